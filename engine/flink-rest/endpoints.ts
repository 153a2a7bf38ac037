import type { z } from 'zod';
import * as schemas from './schemas.ts';

/**
 * One stateless spec per endpoint, as Flink's own `XxxHeaders` classes: method, URL template and response schema.
 * The client builds requests from these; tests check them against the official spec.
 */
export interface EndpointSpec<Response> {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** URL template with `:param` placeholders, as in Flink's docs. */
  path: string;
  /** The official spec's response schema name (`Name[]` for an inline array of it), for the spec check. */
  specSchema: string;
  response: z.ZodType<Response>;
  /** The response must name what was asked for: `field` of the body equals path parameter `param`. */
  echoes?: { field: string; param: string };
  /** A generous cap on the (decompressed) body. @default DEFAULT_MAX_RESPONSE_BYTES */
  maxResponseBytes?: number;
  /** Flink answers with an empty response body (`EmptyResponseBody`): an empty text reads as `{}`. */
  emptyResponse?: boolean;
}

const MiB = 1024 * 1024;
/** Far above any real answer of these endpoints (a 2,000-vertex job's details are about 2 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * MiB;

function get<S extends z.ZodType>(
  path: string,
  specSchema: string,
  response: S,
  extra: Pick<EndpointSpec<unknown>, 'echoes' | 'maxResponseBytes'> = {},
): EndpointSpec<z.output<S>> {
  return { method: 'GET', path, specSchema, response: response as unknown as z.ZodType<z.output<S>>, ...extra };
}

export const endpoints = {
  config: get('/config', 'DashboardConfiguration', schemas.DashboardConfiguration, { maxResponseBytes: MiB }),
  overview: get('/overview', 'ClusterOverviewWithVersion', schemas.ClusterOverview),
  jobManagerConfig: get('/jobmanager/config', 'ConfigurationInfoEntry[]', schemas.ConfigurationInfo),
  jobsOverview: get('/jobs/overview', 'MultipleJobsDetails', schemas.JobsOverview),
  jobDetails: get('/jobs/:jobid', 'JobDetailsInfo', schemas.JobDetailsInfo, { echoes: { field: 'jid', param: 'jobid' }, maxResponseBytes: 64 * MiB }),
  jobPlan: get('/jobs/:jobid/plan', 'JobPlanInfo', schemas.JobPlanInfo, { maxResponseBytes: 64 * MiB }),
  vertexDetails: get('/jobs/:jobid/vertices/:vertexid', 'JobVertexDetailsInfo', schemas.JobVertexDetailsInfo, { echoes: { field: 'id', param: 'vertexid' } }),
  vertexBackPressure: get('/jobs/:jobid/vertices/:vertexid/backpressure', 'JobVertexBackPressureInfo', schemas.JobVertexBackPressureInfo),
  vertexWatermarks: get('/jobs/:jobid/vertices/:vertexid/watermarks', 'MetricCollectionResponseBody', schemas.MetricCollection),
  vertexMetrics: get('/jobs/:jobid/vertices/:vertexid/metrics', 'MetricCollectionResponseBody', schemas.SubtaskMetricValues),
  taskManagers: get('/taskmanagers', 'TaskManagersInfo', schemas.TaskManagersInfo),
  jobCheckpoints: get('/jobs/:jobid/checkpoints', 'CheckpointingStatistics', schemas.CheckpointingStatistics),
  taskManagerMetrics: get('/taskmanagers/:taskmanagerid/metrics', 'MetricCollectionResponseBody', schemas.TaskManagerMetricCollection),
  jobExceptions: get('/jobs/:jobid/exceptions', 'JobExceptionsInfoWithHistory', schemas.JobExceptionsInfoWithHistory),
  jobConfig: get('/jobs/:jobid/config', 'JobConfigInfo', schemas.JobConfigInfo),
  jobJobManagerConfig: get('/jobs/:jobid/jobmanager/config', 'ConfigurationInfoEntry[]', schemas.ConfigurationInfo),
  jobMetrics: get('/jobs/:jobid/metrics', 'MetricCollectionResponseBody', schemas.MetricCollection),
  checkpointDetails: get('/jobs/:jobid/checkpoints/details/:checkpointid', 'CheckpointStatistics', schemas.CheckpointStatistics),
  checkpointSubtaskDetails: get(
    '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid',
    'TaskCheckpointStatisticsWithSubtaskDetails',
    schemas.TaskCheckpointStatisticsWithSubtaskDetails,
  ),
  subtaskMetricsAggregated: get(
    '/jobs/:jobid/vertices/:vertexid/subtasks/metrics',
    'AggregatedMetricsResponseBody',
    schemas.AggregatedMetrics,
  ),
  checkpointConfig: get('/jobs/:jobid/checkpoints/config', 'CheckpointConfigInfo', schemas.CheckpointConfigInfo),
} as const;

export type Endpoints = typeof endpoints;

/** Endpoints only the bundled local engine serves, under its own path: never sent to a real cluster. */
export const localEngineEndpoints = {
  killTaskManager: {
    method: 'POST',
    path: '/local-engine/v1/taskmanagers/:taskmanagerid/kill',
    specSchema: '(local engine only)',
    response: schemas.LocalEngineKillResult,
  } satisfies EndpointSpec<z.output<typeof schemas.LocalEngineKillResult>>,
} as const;
export type ResponseOf<E> = E extends EndpointSpec<infer R> ? R : never;

/** Fills `:param` placeholders, encoding each value. A missing parameter is a programming error. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/:([a-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(value);
  });
}

/** A plain-text file Flink serves whole (`text/plain`, a log or stdout): read in pages by `FlinkRestClient.readText`. */
export interface TextEndpointSpec extends EndpointSpec<unknown> {
  text: true;
}
