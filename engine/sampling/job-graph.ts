import type { EdgeView, JobGraph, MetricAggregate, VertexView } from '../contracts/engine-api.ts';
import { backpressureLevelOf } from '../analysis/backpressure-level.ts';
import { busySkewIsAlarm, maxOverAvg } from '../analysis/skew.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';

type JobDetails = ResponseOf<typeof endpoints.jobDetails>;
type AggregatedMetrics = ResponseOf<typeof endpoints.subtaskMetricsAggregated>;

/** Task-scope metrics the graph shows, fetched aggregated over subtasks: one request per vertex. */
export const VERTEX_METRICS = [
  'busyTimeMsPerSecond',
  'backPressuredTimeMsPerSecond',
  'idleTimeMsPerSecond',
  'numRecordsInPerSecond',
  'numRecordsOutPerSecond',
] as const;

/**
 * One refresh of a job page's graph: `GET /jobs/:jobid` (vertices, states and the plan's edges) plus one
 * aggregated metrics request per vertex, whatever the parallelism. 1 + V requests.
 */
export async function fetchJobGraph(client: FlinkRestClient, clusterId: string, jobId: string): Promise<JobGraph> {
  const before = client.stats.requests;
  const details = await client.request(endpoints.jobDetails, { jobid: jobId });
  const metrics = await Promise.all(
    details.vertices.map((vertex) => fetchVertexMetrics(client, jobId, vertex.id, vertex.status)),
  );
  const graph = toJobGraph(clusterId, details, metrics);
  return { ...graph, requestCount: client.stats.requests - before };
}

async function fetchVertexMetrics(
  client: FlinkRestClient,
  jobId: string,
  vertexId: string,
  status: string,
): Promise<AggregatedMetrics> {
  // Vertices that never ran have no task metrics; asking would only return an empty list.
  if (status === 'CREATED' || status === 'SCHEDULED') return [];
  try {
    return await client.request(
      endpoints.subtaskMetricsAggregated,
      { jobid: jobId, vertexid: vertexId },
      { get: VERTEX_METRICS.join(','), agg: 'min,max,avg,sum' },
    );
  } catch (error) {
    // A vertex can vanish between the two calls (job finished, restarted): show it without metrics.
    if (error instanceof EngineError && error.info.kind === 'not-found') return [];
    throw error;
  }
}

/** Pure: Flink's job details and per-vertex aggregates → the graph the UI draws. */
export function toJobGraph(clusterId: string, details: JobDetails, metrics: AggregatedMetrics[]): Omit<JobGraph, 'requestCount'> {
  const vertices = details.vertices.map((vertex, i): VertexView => {
    const byId = new Map(metrics[i]?.map((m) => [m.id, m]));
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
      recordsInPerSecond: aggregate('numRecordsInPerSecond')?.sum ?? null,
      recordsOutPerSecond: aggregate('numRecordsOutPerSecond')?.sum ?? null,
      busyTimeMsPerSecond: busy,
      backPressuredTimeMsPerSecond: backPressured,
      idleTimeMsPerSecond: aggregate('idleTimeMsPerSecond'),
      busySkew: vertex.parallelism > 1 ? maxOverAvg(busy) : null,
      busySkewAlarm: vertex.parallelism > 1 && busySkewIsAlarm(busy),
      backpressureLevel: backPressured ? backpressureLevelOf(backPressured.max) : null,
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
