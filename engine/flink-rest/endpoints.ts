import type { z } from 'zod';
import * as schemas from './schemas.ts';

/**
 * One stateless spec per endpoint, as Flink's own `XxxHeaders` classes: method, URL template and response schema.
 * The client builds requests from these; tests check them against the official spec.
 */
export interface EndpointSpec<Response> {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  /** URL template with `:param` placeholders, as in Flink's docs. */
  path: string;
  /** The official spec's response schema name (`Name[]` for an inline array of it), for the spec check. */
  specSchema: string;
  response: z.ZodType<Response>;
  /** Flink answers with an empty response body (`EmptyResponseBody`): an empty text reads as `{}`. */
  emptyResponse?: boolean;
}

function get<S extends z.ZodType>(path: string, specSchema: string, response: S): EndpointSpec<z.output<S>> {
  return { method: 'GET', path, specSchema, response: response as unknown as z.ZodType<z.output<S>> };
}

export const endpoints = {
  config: get('/config', 'DashboardConfiguration', schemas.DashboardConfiguration),
  overview: get('/overview', 'ClusterOverviewWithVersion', schemas.ClusterOverview),
  jobManagerConfig: get('/jobmanager/config', 'ConfigurationInfoEntry[]', schemas.ConfigurationInfo),
  jobsOverview: get('/jobs/overview', 'MultipleJobsDetails', schemas.JobsOverview),
  jobDetails: get('/jobs/:jobid', 'JobDetailsInfo', schemas.JobDetailsInfo),
  jobPlan: get('/jobs/:jobid/plan', 'JobPlanInfo', schemas.JobPlanInfo),
  vertexDetails: get('/jobs/:jobid/vertices/:vertexid', 'JobVertexDetailsInfo', schemas.JobVertexDetailsInfo),
  vertexBackPressure: get('/jobs/:jobid/vertices/:vertexid/backpressure', 'JobVertexBackPressureInfo', schemas.JobVertexBackPressureInfo),
  vertexWatermarks: get('/jobs/:jobid/vertices/:vertexid/watermarks', 'MetricCollectionResponseBody', schemas.MetricCollection),
  taskManagers: get('/taskmanagers', 'TaskManagersInfo', schemas.TaskManagersInfo),
  jobCheckpoints: get('/jobs/:jobid/checkpoints', 'CheckpointingStatistics', schemas.CheckpointingStatistics),
  subtaskMetricsAggregated: get(
    '/jobs/:jobid/vertices/:vertexid/subtasks/metrics',
    'AggregatedMetricsResponseBody',
    schemas.AggregatedMetrics,
  ),
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
