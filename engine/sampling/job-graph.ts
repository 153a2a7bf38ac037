import type { EdgeView, JobGraph, JobPlan, MetricAggregate, VertexView } from '../contracts/jobs.ts';
import { backpressureLevelOf } from '../analysis/backpressure-level.ts';
import { busySkewIsAlarm, maxOverAvg } from '../analysis/skew.ts';
import type { FlinkRestClient, RequestOptions, TrafficStats } from '../flink-rest/client.ts';
import type { RequestPriority } from '../flink-rest/priority-limit.ts';
import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { aggregatesOf, canReadFigures, fetchSubtaskFigures, figuresRefused, type SubtaskFigures } from './subtask-figures.ts';

type JobDetails = ResponseOf<typeof endpoints.jobDetails>;
type AggregatedMetrics = ResponseOf<typeof endpoints.subtaskMetricsAggregated>;

/** Task-scope metrics the graph shows, fetched aggregated over subtasks: one request per vertex. */
export const VERTEX_METRICS = [
  'busyTimeMsPerSecond',
  'backPressuredTimeMsPerSecond',
  'idleTimeMsPerSecond',
  'numRecordsInPerSecond',
  'numRecordsOutPerSecond',
  // Its `skew` is the Data Skew the Web UI shows (Flink 1.20+).
  'numRecordsIn',
] as const;

/** Clients whose cluster refused `agg=skew` (Flink before 1.20 answers 400): asked without it from then on. */
const withoutSkewAgg = new WeakSet<FlinkRestClient>();

/**
 * Per-vertex metric requests in one refresh at most. A job with more running vertices is sampled in turns (a window
 * that moves on each refresh); the others show their latest sample. 2,000 vertices cost 201 requests, not 2,001.
 */
export const MAX_VERTEX_METRIC_REQUESTS = 200;

/** One vertex's metrics in a refresh: fetched now, carried from an earlier refresh (large jobs), or unavailable. */
export type VertexMetricsSample = AggregatedMetrics | { carried: AggregatedMetrics; fetchedAt: number } | { unavailable: string };

/** Where the turns of a large job stand, per client (one per cluster) and job; forgotten after 10 idle minutes. */
interface SamplingTurns {
  next: number;
  latest: Map<string, { metrics: AggregatedMetrics; fetchedAt: number }>;
  usedAt: number;
}
const TURNS_IDLE_MS = 10 * 60_000;
const turnsByClient = new WeakMap<FlinkRestClient, Map<string, SamplingTurns>>();

function turnsOf(client: FlinkRestClient, jobId: string, now: number): SamplingTurns {
  let jobs = turnsByClient.get(client);
  if (!jobs) turnsByClient.set(client, (jobs = new Map()));
  for (const [id, turns] of jobs) if (now - turns.usedAt > TURNS_IDLE_MS) jobs.delete(id);
  let turns = jobs.get(jobId);
  if (!turns) jobs.set(jobId, (turns = { next: 0, latest: new Map(), usedAt: now }));
  turns.usedAt = now;
  return turns;
}

/** Vertices that never ran have no task metrics; asking would only return an empty list. */
function hasTaskMetrics(status: string): boolean {
  return status !== 'CREATED' && status !== 'SCHEDULED';
}

/**
 * A graph as the engine fetched it: with, for the vertices it read per subtask (`perSubtask`), their figures per
 * subtask — the history's reading of them at this refresh. Never sent to a page (see `withoutSubtaskFigures`).
 */
export type FetchedJobGraph = JobGraph & { subtaskFigures?: ReadonlyMap<string, SubtaskFigures> };

export interface JobGraphOptions {
  /** `background` for the history sampler, which fetches the graph itself only when no page did within the interval. */
  priority?: RequestPriority;
  /**
   * Vertices whose figures to read per subtask, where they fit one request (see subtask-figures.ts): the same one
   * request per vertex, the graph's aggregates computed from them as Flink computes its own. The watched job's
   * history asks for them when a per-subtask reading is due, so the page's refresh is that reading.
   */
  perSubtask?: ReadonlySet<string>;
}

/**
 * One refresh of a job page's graph: `GET /jobs/:jobid` (vertices, states and the plan's edges) plus one metrics
 * request per running vertex (at most {@link MAX_VERTEX_METRIC_REQUESTS}), whatever the parallelism, while the job
 * runs (1 request otherwise: only a running job has rates) — Flink's aggregates over the vertex's subtasks, or the
 * subtasks' own figures where `perSubtask` asks for them. A vertex whose metrics request fails is shown as "metrics
 * unavailable"; the rest of the graph is not held back by it, and the whole refresh takes two request deadlines at
 * most. `requestCount` counts this call's requests only, whatever else uses the client meanwhile.
 */
export async function fetchJobGraph(client: FlinkRestClient, clusterId: string, jobId: string, options: JobGraphOptions = {}): Promise<FetchedJobGraph> {
  const tally: TrafficStats = { requests: 0, bytes: 0 };
  const { priority } = options;
  const subtaskFigures = new Map<string, SubtaskFigures>();
  const details = await client.request(endpoints.jobDetails, { jobid: jobId }, undefined, { tally, priority });
  const running = hasRates(details.state) ? details.vertices.filter((v) => hasTaskMetrics(v.status)) : [];
  const sampled = new Set(running.map((v) => v.id));
  let turns: SamplingTurns | undefined;
  if (running.length > MAX_VERTEX_METRIC_REQUESTS) {
    turns = turnsOf(client, jobId, Date.now());
    const start = turns.next % running.length;
    sampled.clear();
    for (let i = 0; i < MAX_VERTEX_METRIC_REQUESTS; i++) sampled.add(running[(start + i) % running.length].id);
    turns.next = (start + MAX_VERTEX_METRIC_REQUESTS) % running.length;
  }
  // All metric requests share one deadline: on a slow cluster the refresh ends after two request deadlines at most
  // (the details, then the metrics), not after V / concurrency of them; vertices not reached show as unavailable.
  const metricsDeadline = AbortSignal.timeout(client.timeoutMs);
  const samples = await Promise.all(
    details.vertices.map(async (vertex): Promise<VertexMetricsSample> => {
      if (!hasRates(details.state) || !hasTaskMetrics(vertex.status)) return [];
      if (!sampled.has(vertex.id)) {
        const latest = turns?.latest.get(vertex.id);
        return latest ? { carried: latest.metrics, fetchedAt: latest.fetchedAt } : { unavailable: `Not sampled yet: this job's refreshes ask metrics for ${MAX_VERTEX_METRIC_REQUESTS} of its ${running.length} running vertices in turns.` };
      }
      const requestOptions = { tally, signal: metricsDeadline, priority };
      const perSubtask = options.perSubtask?.has(vertex.id) && canReadFigures(client, jobId, vertex);
      const sample = perSubtask
        ? await fetchVertexFigures(client, jobId, vertex, requestOptions, subtaskFigures)
        : await fetchVertexMetrics(client, jobId, vertex.id, requestOptions);
      if (turns && Array.isArray(sample)) turns.latest.set(vertex.id, { metrics: sample, fetchedAt: Date.now() });
      return sample;
    }),
  );
  const graph = toJobGraph(clusterId, details, samples);
  return {
    ...graph,
    requestCount: tally.requests,
    responseBytes: tally.bytes,
    ...(turns ? { metricsSampling: { sampled: sampled.size, of: running.length, maxPerRefresh: MAX_VERTEX_METRIC_REQUESTS } } : {}),
    ...(subtaskFigures.size > 0 ? { subtaskFigures } : {}),
  };
}

/** The graph as a page gets it: the per-subtask figures are the history's, not the page's. */
export function withoutSubtaskFigures(graph: FetchedJobGraph): JobGraph {
  if (!graph.subtaskFigures) return graph;
  const { subtaskFigures: _, ...rest } = graph;
  return rest;
}

/**
 * A vertex's figures per subtask, and the graph's aggregates computed from them. A refusal of the request (a proxy
 * with a shorter request line than Flink's, a server that does not know the endpoint) falls back to Flink's
 * aggregates, for this refresh and the client's next ones.
 */
async function fetchVertexFigures(
  client: FlinkRestClient,
  jobId: string,
  vertex: { id: string; parallelism: number },
  options: RequestOptions,
  into: Map<string, SubtaskFigures>,
): Promise<VertexMetricsSample> {
  try {
    const figures = await fetchSubtaskFigures(client, jobId, vertex, options);
    const aggregates = aggregatesOf(figures, VERTEX_METRICS, !withoutSkewAgg.has(client));
    into.set(vertex.id, figures);
    return aggregates;
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    // Flink answers [] for a vertex it has no metrics of, and 404 "bad-request" to a request line over its limit; a
    // proxy may say 414 or 400.
    if (error.info.status === 404 || error.info.status === 414 || error.info.status === 400) {
      figuresRefused(client);
      return fetchVertexMetrics(client, jobId, vertex.id, options);
    }
    return { unavailable: error.info.message };
  }
}

/** A job's vertices and edges: `GET /jobs/:jobid` alone, the request every graph refresh starts with. */
export async function fetchJobPlan(client: FlinkRestClient, clusterId: string, jobId: string): Promise<JobPlan> {
  return toJobPlan(clusterId, await client.request(endpoints.jobDetails, { jobid: jobId }));
}

/** Pure: Flink's job details → the structure the graph is laid out from (the same vertices and edges as the graph's). */
export function toJobPlan(clusterId: string, details: JobDetails): JobPlan {
  const vertices = details.vertices.map(({ id, name, parallelism }) => ({ id, name, parallelism }));
  return { clusterId, jobId: details.jid, name: details.name, vertices, edges: edgesOf(details, new Set(vertices.map((v) => v.id))) };
}

async function fetchVertexMetrics(client: FlinkRestClient, jobId: string, vertexId: string, options: RequestOptions): Promise<VertexMetricsSample> {
  const skew = !withoutSkewAgg.has(client);
  try {
    return await client.request(
      endpoints.subtaskMetricsAggregated,
      { jobid: jobId, vertexid: vertexId },
      { get: VERTEX_METRICS.join(','), agg: skew ? 'min,max,avg,sum,skew' : 'min,max,avg,sum' },
      options,
    );
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    // Flink before 1.20 has no SKEW aggregation: "Cannot resolve query parameter (agg) from value …" (400).
    if (skew && error.info.status === 400 && /\bagg\b|aggregat|skew/i.test(error.info.message)) {
      withoutSkewAgg.add(client);
      return fetchVertexMetrics(client, jobId, vertexId, options);
    }
    // A vertex can vanish between the two calls (job finished, restarted): show it without metrics.
    if (error.info.kind === 'not-found') return [];
    return { unavailable: error.info.message };
  }
}

/**
 * Only a RUNNING job has rates. The JobManager keeps a FAILED, CANCELED or RESTARTING job's last metric sample for a
 * while; shown, it would read as live ("out 4.05k/s, busy 1000 ms/s" on a dead job).
 */
export function hasRates(jobState: string): boolean {
  return jobState === 'RUNNING';
}

/** Pure: Flink's job details and per-vertex metrics (in the order of the vertices) → the graph the UI draws. */
export function toJobGraph(clusterId: string, details: JobDetails, metrics: VertexMetricsSample[]): Omit<JobGraph, 'requestCount'> {
  const live = hasRates(details.state);
  const vertices = details.vertices.map((vertex, i): VertexView => {
    const sample = (live ? metrics[i] : undefined) ?? [];
    const list = Array.isArray(sample) ? sample : 'carried' in sample ? sample.carried : [];
    const byId = new Map(list.map((m) => [m.id, m]));
    const aggregate = (name: string): MetricAggregate | null => {
      const m = byId.get(name);
      if (!m || m.max === undefined || !Number.isFinite(m.max)) return null;
      return { min: m.min ?? m.max, max: m.max, avg: m.avg ?? m.max, sum: m.sum ?? m.max };
    };
    const backPressured = aggregate('backPressuredTimeMsPerSecond');
    const busy = aggregate('busyTimeMsPerSecond');
    return {
      id: vertex.id,
      name: vertex.name,
      parallelism: vertex.parallelism,
      maxParallelism: vertex.maxParallelism ?? details.maxParallelism ?? null,
      status: vertex.status,
      tasks: vertex.tasks ?? {},
      ...(vertex['start-time'] !== undefined && vertex['start-time'] > 0 ? { startTime: vertex['start-time'] } : {}),
      recordsInPerSecond: aggregate('numRecordsInPerSecond')?.sum ?? null,
      recordsOutPerSecond: aggregate('numRecordsOutPerSecond')?.sum ?? null,
      busyTimeMsPerSecond: busy,
      backPressuredTimeMsPerSecond: backPressured,
      idleTimeMsPerSecond: aggregate('idleTimeMsPerSecond'),
      busySkew: vertex.parallelism > 1 ? maxOverAvg(busy) : null,
      busySkewAlarm: vertex.parallelism > 1 && busySkewIsAlarm(busy),
      dataSkewPercent: vertex.parallelism > 1 ? (byId.get('numRecordsIn')?.skew ?? null) : null,
      backpressureLevel: backPressured ? backpressureLevelOf(backPressured.max) : null,
      ...(!Array.isArray(sample) && 'unavailable' in sample ? { metricsUnavailable: sample.unavailable } : {}),
      ...(!Array.isArray(sample) && 'carried' in sample ? { metricsFetchedAt: sample.fetchedAt } : {}),
    };
  });
  return {
    clusterId,
    jobId: details.jid,
    name: details.name,
    state: details.state,
    startTime: details['start-time'],
    durationMs: details.duration,
    maxParallelism: details.maxParallelism ?? null,
    endTime: details['end-time'] > 0 ? details['end-time'] : null,
    vertices,
    edges: edgesOf(details, new Set(vertices.map((v) => v.id))),
    fetchedAt: details.now ?? Date.now(),
  };
}

/** Edges come from the plan's inputs: `ship_strategy` is what the Web UI prints on each edge. */
function edgesOf(details: JobDetails, vertexIds: Set<string>): EdgeView[] {
  const edges: EdgeView[] = [];
  for (const node of details.plan?.nodes ?? []) {
    for (const input of node.inputs ?? []) {
      if (!vertexIds.has(input.id) || !vertexIds.has(node.id)) continue;
      edges.push({ source: input.id, target: node.id, shipStrategy: input.ship_strategy ?? 'UNKNOWN' });
    }
  }
  return edges;
}
