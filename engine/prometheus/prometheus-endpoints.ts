import type { z } from 'zod';
import type { EndpointSpec } from '../flink-rest/endpoints.ts';
import * as schemas from './prometheus-schemas.ts';

const MiB = 1024 * 1024;

/**
 * The Prometheus HTTP API's endpoints the console reads, as specs for the same client as a cluster's
 * (`FlinkRestClient`: deadlines, body caps, TLS with an extra CA, auth, redirects within the origin, validation).
 * Not Flink endpoints: the Flink spec checks walk Flink's spec lists only, and `specSchema` here names the answer in
 * Prometheus' documentation (https://prometheus.io/docs/prometheus/latest/querying/api/) instead.
 */
function get<S extends z.ZodType>(path: string, specSchema: string, response: S, maxResponseBytes: number): EndpointSpec<z.output<S>> {
  return { method: 'GET', path, specSchema: `Prometheus HTTP API: ${specSchema}`, response: response as unknown as z.ZodType<z.output<S>>, maxResponseBytes };
}

/**
 * The cap on one range query's answer. `prometheus-history.ts` plans its queries to stay far below it (by vertex, then
 * by time); one that still goes over is refused unread, naming the endpoint.
 */
export const MAX_RANGE_ANSWER_BYTES = 64 * MiB;

export const prometheusEndpoints = {
  /** `query`, `time`: an instant query. */
  query: get('/api/v1/query', 'instant query (vector, matrix, scalar or string)', schemas.QueryAnswer, 16 * MiB),
  /** `query`, `start`, `end`, `step`: a range query, at most 11,000 points per series. */
  queryRange: get('/api/v1/query_range', 'range query (matrix)', schemas.QueryRangeAnswer, MAX_RANGE_ANSWER_BYTES),
  /** `match[]`, `start`, `end`: the label sets of the series that match, without values. */
  series: get('/api/v1/series', 'series (label sets)', schemas.SeriesAnswer, 16 * MiB),
  buildInfo: get('/api/v1/status/buildinfo', 'build information', schemas.BuildInfoAnswer, MiB),
  /** Prometheus itself only (Thanos, Mimir answer 404): what it scrapes, and how often. */
  targets: get('/api/v1/targets', 'targets', schemas.TargetsAnswer, 16 * MiB),
} as const;
