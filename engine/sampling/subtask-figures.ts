import type { FlinkRestClient, RequestOptions } from '../flink-rest/client.ts';
import { endpoints, fillPath, type ResponseOf } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { AggregatedMetrics } from '../flink-rest/schemas.ts';
import { dataSkewOf } from '../analysis/data-skew.ts';

type Aggregates = ResponseOf<typeof endpoints.subtaskMetricsAggregated>;

/**
 * A vertex's figures per subtask in one request: `GET …/vertices/:vid/metrics?get=0.busyTimeMsPerSecond,1.…`, the
 * JobManager's own per-subtask values of the task metrics the graph shows and of those a per-subtask reading of the
 * history keeps (counters, accumulated times, watermark). The same metric store answers Flink's aggregates: the
 * graph's min, max, mean, sum and Data Skew are computed from these exactly as Flink computes them
 * (`aggregatesOf`), so one request serves the page's graph and the history's reading at once.
 *
 * Only for a vertex whose names fit one request line: Flink's REST server (Netty) refuses a request line over
 * 4,096 bytes, answering 404 "bad-request"; a wider vertex is read through its aggregates and vertex details.
 */

/** The graph's task metrics (see job-graph.ts `VERTEX_METRICS`) and a reading's counters, times and watermark. */
export const SUBTASK_FIGURES = [
  'busyTimeMsPerSecond',
  'backPressuredTimeMsPerSecond',
  'idleTimeMsPerSecond',
  'numRecordsInPerSecond',
  'numRecordsOutPerSecond',
  'numRecordsIn',
  'numRecordsOut',
  'numBytesIn',
  'numBytesOut',
  'accumulateBusyTimeMs',
  'accumulateBackPressuredTimeMs',
  'accumulateIdleTimeMs',
  'currentInputWatermark',
] as const;
export type SubtaskFigure = (typeof SUBTASK_FIGURES)[number];

/**
 * The longest request line sent (method, path, query, protocol): Flink's limit is 4,096 bytes (Netty's default
 * `maxInitialLineLength`); a little is kept for a proxy that prefixes the path.
 */
export const MAX_REQUEST_LINE = 3_800;

/** Per subtask, each figure's value; NaN where the JobManager has none (a subtask not reporting yet). */
export interface SubtaskFigures {
  parallelism: number;
  values: Record<SubtaskFigure, Float64Array>;
  /** Figures some subtask reported as something other than a number: Flink cannot aggregate them either. */
  notNumbers: ReadonlySet<SubtaskFigure>;
  /** Epoch ms the figures were read. */
  fetchedAt: number;
}

/** `0.a,0.b,…,1.a,…`: every figure of every subtask. */
export function figureIds(parallelism: number): string {
  const ids: string[] = [];
  for (let k = 0; k < parallelism; k++) for (const name of SUBTASK_FIGURES) ids.push(`${k}.${name}`);
  return ids.join(',');
}

/** Pure: whether one request can ask for every figure of a vertex of this parallelism at `baseUrl`. */
export function figuresFitOneRequest(baseUrl: string, jobId: string, vertexId: string, parallelism: number): boolean {
  if (parallelism < 1) return false;
  // `GET <path>?get=<ids> HTTP/1.1`: commas and dots go unencoded (axios keeps them).
  const path = new URL(baseUrl).pathname.replace(/\/$/, '') + fillPath(endpoints.vertexMetrics.path, { jobid: jobId, vertexid: vertexId });
  const line = 'GET '.length + path.length + '?get='.length + ' HTTP/1.1'.length;
  return line + figureIds(parallelism).length <= MAX_REQUEST_LINE;
}

/** Clients whose cluster refused a request for per-subtask figures: its aggregates and vertex details are read instead. */
const refusedBy = new WeakSet<FlinkRestClient>();

/** Whether a vertex's figures can be read per subtask from this client's cluster: they fit, and it never refused them. */
export function canReadFigures(client: FlinkRestClient, jobId: string, vertex: { id: string; parallelism: number }): boolean {
  return !refusedBy.has(client) && figuresFitOneRequest(client.baseUrl, jobId, vertex.id, vertex.parallelism);
}

/**
 * The cluster refused a request for figures (a proxy with a shorter request line than Flink's, a server without the
 * endpoint): none are asked of it again in this process.
 */
export function figuresRefused(client: FlinkRestClient): void {
  refusedBy.add(client);
}

/** Reads a vertex's figures per subtask (see `canReadFigures`: the caller checks that they can be). */
export async function fetchSubtaskFigures(
  client: FlinkRestClient,
  jobId: string,
  vertex: { id: string; parallelism: number },
  options: RequestOptions,
  now: () => number = Date.now,
): Promise<SubtaskFigures> {
  const metrics = await client.request(endpoints.vertexMetrics, { jobid: jobId, vertexid: vertex.id }, { get: figureIds(vertex.parallelism) }, options);
  return toSubtaskFigures(vertex.parallelism, metrics, now());
}

/** Pure: the JobManager's answer → per-subtask columns (ids it did not ask for, or out of range, are ignored). */
export function toSubtaskFigures(parallelism: number, metrics: ResponseOf<typeof endpoints.vertexMetrics>, fetchedAt: number): SubtaskFigures {
  const values = {} as Record<SubtaskFigure, Float64Array>;
  for (const name of SUBTASK_FIGURES) values[name] = new Float64Array(parallelism).fill(Number.NaN);
  const known = new Set<string>(SUBTASK_FIGURES);
  const notNumbers = new Set<SubtaskFigure>();
  for (const metric of metrics) {
    const dot = metric.id.indexOf('.');
    const k = Number(metric.id.slice(0, dot));
    const name = metric.id.slice(dot + 1) as SubtaskFigure;
    if (dot < 1 || !Number.isInteger(k) || k < 0 || k >= parallelism || !known.has(name) || metric.value === undefined) continue;
    const value = Number(metric.value);
    // Java's Double.valueOf reads "NaN" and "Infinity"; anything else that is not a number is not a figure.
    if (Number.isNaN(value) && metric.value.trim() !== 'NaN') notNumbers.add(name);
    else values[name][k] = value;
  }
  return { parallelism, values, notNumbers, fetchedAt };
}

/**
 * Pure: Flink's aggregates of `names` over the subtasks, as its `AbstractAggregatingMetricsHandler` computes them:
 * per metric, the values of the subtasks that have it, in subtask order; min, max, mean, sum and `DoubleDataSkew`.
 * As Flink does, a metric no subtask has empties the whole answer, and one with a value that is not a number is left
 * out. The result goes through the same checks as Flink's own answer.
 */
export function aggregatesOf(figures: SubtaskFigures, names: readonly SubtaskFigure[], withSkew: boolean): Aggregates {
  const out: Array<Record<string, number | string>> = [];
  for (const name of names) {
    if (figures.notNumbers.has(name)) continue;
    const values = Array.from(figures.values[name]).filter((v) => !Number.isNaN(v));
    if (values.length === 0) return [];
    let min = values[0];
    let max = values[0];
    let sum = 0;
    for (const v of values) {
      min = Math.min(min, v);
      max = Math.max(max, v);
      sum += v;
    }
    out.push({ id: name, min, max, avg: sum / values.length, sum, ...(withSkew ? { skew: dataSkewOf(values) } : {}) });
  }
  const checked = AggregatedMetrics.safeParse(out);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new EngineError('unexpected-response', `The per-subtask figures aggregate to an impossible value: ${issue.message}.`, { endpoint: `GET ${endpoints.vertexMetrics.path}` });
  }
  return checked.data;
}
