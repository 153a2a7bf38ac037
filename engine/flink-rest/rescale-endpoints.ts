import type { z } from 'zod';
import type { EndpointSpec } from './endpoints.ts';
import * as schemas from './rescale-schemas.ts';

function get<S extends z.ZodType>(path: string, specSchema: string, response: S): EndpointSpec<z.output<S>> {
  return { method: 'GET', path, specSchema, response: response as unknown as z.ZodType<z.output<S>> };
}

/**
 * The adaptive scheduler's rescale history (Flink 2.3+, not in the 1.19 official spec), one spec per endpoint as
 * Flink's `JobRescales*Headers`. A 404 means no rescale history here: an older Flink, another scheduler, or
 * `web.adaptive-scheduler.rescale-history.size: 0` (Flink's `RescalesUnavailableException`).
 */
export const rescaleEndpoints = {
  overview: get('/jobs/:jobid/rescales/overview', 'JobRescalesOverview', schemas.JobRescalesOverview),
  history: get('/jobs/:jobid/rescales/history', 'JobRescalesHistory', schemas.JobRescalesHistory),
  details: get('/jobs/:jobid/rescales/details/:rescaleuuid', 'JobRescaleDetails', schemas.JobRescaleDetails),
  summary: get('/jobs/:jobid/rescales/summary', 'JobRescalesSummary', schemas.JobRescalesSummary),
  config: get('/jobs/:jobid/rescales/config', 'JobRescaleConfigInfo', schemas.JobRescaleConfig),
} as const;
