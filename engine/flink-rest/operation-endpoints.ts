import type { z } from 'zod';
import type { EndpointSpec } from './endpoints.ts';
import * as schemas from './operation-schemas.ts';

/** A write (or its poll): the response spec plus the request body's schema name in the official spec. */
export interface OperationEndpointSpec<Response> extends EndpointSpec<Response> {
  /** The official spec's request body schema, for the spec check; absent for bodiless requests. */
  specRequest?: string;
  /** The success status the official spec declares (202 for triggers and cancel). */
  specStatus: 200 | 202;
}

function spec<S extends z.ZodType>(
  method: EndpointSpec<unknown>['method'],
  path: string,
  specSchema: string,
  response: S,
  extra: { specRequest?: string; specStatus?: 200 | 202; emptyResponse?: boolean } = {},
): OperationEndpointSpec<z.output<S>> {
  return { method, path, specSchema, response: response as unknown as z.ZodType<z.output<S>>, specStatus: extra.specStatus ?? 200, ...extra };
}

/**
 * The endpoints of savepoint, stop-with-savepoint, cancel, rescale and resubmit, one stateless spec each (as Flink's
 * `XxxHeaders`). Trigger-then-poll: `triggerSavepoint` / `stopWithSavepoint` answer a trigger id, `savepointStatus`
 * is polled with it (both share Flink's savepoint operation cache).
 */
export const operationEndpoints = {
  triggerSavepoint: spec('POST', '/jobs/:jobid/savepoints', 'TriggerResponse', schemas.TriggerResponse, { specRequest: 'SavepointTriggerRequestBody', specStatus: 202 }),
  stopWithSavepoint: spec('POST', '/jobs/:jobid/stop', 'TriggerResponse', schemas.TriggerResponse, { specRequest: 'StopWithSavepointRequestBody', specStatus: 202 }),
  savepointStatus: spec('GET', '/jobs/:jobid/savepoints/:triggerid', 'AsynchronousOperationResult', schemas.SavepointStatus),
  /** `PATCH /jobs/:jobid?mode=cancel`: 202 with an empty body. */
  cancelJob: spec('PATCH', '/jobs/:jobid', '(empty)', schemas.EmptyResponse, { specStatus: 202, emptyResponse: true }),
  jobStatus: spec('GET', '/jobs/:jobid/status', 'JobStatusInfo', schemas.JobStatusInfo),
  resourceRequirements: spec('GET', '/jobs/:jobid/resource-requirements', 'JobResourceRequirementsBody', schemas.JobResourceRequirements),
  updateResourceRequirements: spec('PUT', '/jobs/:jobid/resource-requirements', '(empty)', schemas.EmptyResponse, {
    specRequest: 'JobResourceRequirementsBody',
    emptyResponse: true,
  }),
  jars: spec('GET', '/jars', 'JarListInfo', schemas.JarListInfo),
  /** The job graph a run with these arguments would start: Flink runs the program's main() and starts nothing. */
  planJar: spec('POST', '/jars/:jarid/plan', 'JobPlanInfo', schemas.JarPlan, { specRequest: 'JarPlanRequestBody' }),
  /** Multipart (`jarfile`); the body is a FormData, not JSON. */
  uploadJar: spec('POST', '/jars/upload', 'JarUploadResponseBody', schemas.JarUploadResponse),
  deleteJar: spec('DELETE', '/jars/:jarid', '(empty)', schemas.EmptyResponse, { emptyResponse: true }),
  /** Trigger-then-poll with a request id Flink chooses (the body carries none, unlike savepoints). */
  disposeSavepoint: spec('POST', '/savepoint-disposal', 'TriggerResponse', schemas.TriggerResponse, { specRequest: 'SavepointDisposalRequest' }),
  savepointDisposalStatus: spec('GET', '/savepoint-disposal/:triggerid', 'AsynchronousOperationResult', schemas.SavepointDisposalStatus),
  runJar: spec('POST', '/jars/:jarid/run', 'JarRunResponseBody', schemas.JarRunResponse, { specRequest: 'JarRunRequestBody' }),
  jobConfig: spec('GET', '/jobs/:jobid/config', 'JobConfigInfo', schemas.JobConfig),
  jobExecutionResult: spec('GET', '/jobs/:jobid/execution-result', 'JobExecutionResultResponseBody', schemas.JobExecutionResult),
  jobExceptions: spec('GET', '/jobs/:jobid/exceptions', 'JobExceptionsInfoWithHistory', schemas.JobExceptions),
  dashboardFeatures: spec('GET', '/config', 'DashboardConfiguration', schemas.DashboardFeatures),
  /** The configuration the JobManager runs this job with (application mode has its own). */
  jobManagerConfigOfJob: spec('GET', '/jobs/:jobid/jobmanager/config', 'ConfigurationInfoEntry[]', schemas.ConfigurationEntries),
  savepointHistory: spec('GET', '/jobs/:jobid/checkpoints', 'CheckpointingStatistics', schemas.SavepointHistory),
} as const;
