import type { Accumulator, VertexInspection, VertexTaskManagerRow } from '../contracts/inspect.ts';
import type { FlinkRestClient, TrafficStats } from '../flink-rest/client.ts';
import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import { viewEndpoints } from '../flink-rest/view-endpoints.ts';
import { subtaskTimeline } from '../analysis/subtask-timeline.ts';
import { watermarkLag } from '../analysis/watermark-lag.ts';
import { orWhenMissing, watermarksBySubtask } from '../sampling/vertex-subtasks.ts';

type Watermarks = ResponseOf<typeof endpoints.vertexWatermarks>;
type VertexAccumulators = ResponseOf<typeof viewEndpoints.vertexAccumulators>;
type SubtaskAccumulators = ResponseOf<typeof viewEndpoints.subtaskAccumulators>;
type TaskManagers = ResponseOf<typeof viewEndpoints.vertexTaskManagers>;
type SubtaskTimes = ResponseOf<typeof viewEndpoints.subtaskTimes>;

/**
 * One refresh of a vertex's inspection panel, 5 requests whatever the parallelism: watermarks, accumulators (the
 * vertex's and per subtask), the TaskManagers rollup and the subtask times. Only while the panel is open.
 */
export async function fetchVertexInspection(client: FlinkRestClient, clusterId: string, jobId: string, vertexId: string): Promise<VertexInspection> {
  const tally: TrafficStats = { requests: 0, bytes: 0 };
  const params = { jobid: jobId, vertexid: vertexId };
  const options = { tally };
  const [times, taskManagers, watermarks, vertexAccumulators, subtaskAccumulators] = await Promise.all([
    client.request(viewEndpoints.subtaskTimes, params, undefined, options),
    client.request(viewEndpoints.vertexTaskManagers, params, undefined, options),
    // No metrics yet (a vertex just deployed): no watermarks, as the subtasks table.
    orWhenMissing(client.request(endpoints.vertexWatermarks, params, undefined, options), [] as Watermarks),
    client.request(viewEndpoints.vertexAccumulators, params, undefined, options),
    client.request(viewEndpoints.subtaskAccumulators, params, undefined, options),
  ]);
  return { ...toVertexInspection(clusterId, jobId, { times, taskManagers, watermarks, vertexAccumulators, subtaskAccumulators }), fetchedAt: Date.now(), requestCount: tally.requests };
}

/** Pure: the five answers → the panel. Lags are against the JobManager's `now`, so the console's clock does not matter. */
export function toVertexInspection(
  clusterId: string,
  jobId: string,
  answers: { times: SubtaskTimes; taskManagers: TaskManagers; watermarks: Watermarks; vertexAccumulators: VertexAccumulators; subtaskAccumulators: SubtaskAccumulators },
): Omit<VertexInspection, 'fetchedAt' | 'requestCount'> {
  const { times, taskManagers, watermarks, vertexAccumulators, subtaskAccumulators } = answers;
  const now = Math.max(times.now, taskManagers.now);
  const watermarkOf = watermarksBySubtask(watermarks);
  const indexes = times.subtasks.map((s) => s.subtask);
  return {
    clusterId,
    jobId,
    vertexId: times.id,
    name: times.name ?? taskManagers.name ?? times.id,
    now,
    watermarks: watermarkLag(indexes.map((index) => ({ index, watermark: watermarkOf.get(index) ?? null })), now),
    accumulators: {
      vertex: accumulators(vertexAccumulators['user-accumulators']),
      subtasks: [...subtaskAccumulators.subtasks]
        .sort((a, b) => a.subtask - b.subtask)
        .map((s) => ({ index: s.subtask, attempt: s.attempt ?? 0, endpoint: s.endpoint ?? s.host ?? null, accumulators: accumulators(s['user-accumulators']) })),
    },
    taskManagers: taskManagers.taskmanagers.map((tm): VertexTaskManagerRow => ({
      taskManagerId: tm['taskmanager-id'] ?? null,
      endpoint: tm.endpoint ?? tm.host ?? null,
      status: tm.status,
      startTime: tm['start-time'] !== undefined && tm['start-time'] > 0 ? tm['start-time'] : null,
      durationMs: tm.duration !== undefined && tm.duration >= 0 ? tm.duration : null,
      statusCounts: Object.fromEntries(Object.entries(tm['status-counts'] ?? {}).filter(([, n]) => n > 0)),
      recordsIn: tm.metrics?.['read-records'] ?? null,
      recordsOut: tm.metrics?.['write-records'] ?? null,
      bytesIn: tm.metrics?.['read-bytes'] ?? null,
      bytesOut: tm.metrics?.['write-bytes'] ?? null,
    })),
    timeline: subtaskTimeline(times.subtasks.map((s) => ({ index: s.subtask, endpoint: s.endpoint ?? s.host ?? null, timestamps: s.timestamps })), now),
  };
}

function accumulators(list: ReadonlyArray<{ name: string; type: string; value: string }>): Accumulator[] {
  return [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(({ name, type, value }) => ({ name, type, value }));
}
