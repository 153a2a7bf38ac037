import type { SubtaskRow, VertexSubtasks } from '../contracts/jobs.ts';
import type { FlinkRestClient, TrafficStats } from '../flink-rest/client.ts';
import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';

type VertexDetails = ResponseOf<typeof endpoints.vertexDetails>;
type BackPressure = ResponseOf<typeof endpoints.vertexBackPressure>;
type Watermarks = ResponseOf<typeof endpoints.vertexWatermarks>;

/** Long.MIN_VALUE: Flink's "no watermark yet". */
const NO_WATERMARK = -9223372036854775808;

/**
 * One refresh of a vertex's subtasks table, in 3 requests whatever the parallelism: the vertex details
 * (status, endpoint, records and bytes), the backpressure endpoint (busy/idle/back-pressured ratios per subtask)
 * and the watermarks.
 */
export async function fetchVertexSubtasks(
  client: FlinkRestClient,
  clusterId: string,
  jobId: string,
  vertexId: string,
): Promise<VertexSubtasks> {
  // This call's requests only, whatever else uses the client meanwhile.
  const tally: TrafficStats = { requests: 0, bytes: 0 };
  const params = { jobid: jobId, vertexid: vertexId };
  const [details, backPressure, watermarks] = await Promise.all([
    client.request(endpoints.vertexDetails, params, undefined, { tally }),
    // Flink 2.2 answers 500 (NoSuchElementException) here until the vertex has metrics: that is "no data yet".
    orWhenMissing(client.request(endpoints.vertexBackPressure, params, undefined, { tally }), { status: 'deprecated' as const }),
    orWhenMissing(client.request(endpoints.vertexWatermarks, params, undefined, { tally }), []),
  ]);
  return { ...toVertexSubtasks(clusterId, jobId, details, backPressure, watermarks), requestCount: tally.requests };
}

/** The table is still worth showing without ratios or watermarks: only the vertex details are essential. */
export async function orWhenMissing<T>(request: Promise<T>, noData: T): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof EngineError && (error.info.kind === 'server-error' || error.info.kind === 'not-found')) return noData;
    throw error;
  }
}

/** Pure: merges the three responses by subtask index. */
export function toVertexSubtasks(
  clusterId: string,
  jobId: string,
  details: VertexDetails,
  backPressure: BackPressure,
  watermarks: Watermarks,
): Omit<VertexSubtasks, 'requestCount'> {
  // `deprecated` means the JobManager has no task metrics yet: no data, which is not the same as healthy.
  const pressure = backPressure.status === 'ok' ? new Map(backPressure.subtasks?.map((s) => [s.subtask, s])) : new Map();
  const watermarkOf = watermarksBySubtask(watermarks);
  const perSecond = (ratio: number | undefined) => (ratio === undefined ? null : Math.round(ratio * 1000));
  const subtasks = details.subtasks.map((subtask): SubtaskRow => {
    // Busy, back-pressured and idle time are "now" figures: a subtask that is not RUNNING has none, whatever the
    // JobManager's last sample says. Its records and bytes stay: they are totals.
    const p = subtask.status === 'RUNNING' ? pressure.get(subtask.subtask) : undefined;
    return {
      index: subtask.subtask,
      attempt: subtask.attempt ?? 0,
      status: subtask.status,
      endpoint: subtask.endpoint ?? subtask.host ?? null,
      taskManagerId: subtask['taskmanager-id'] ?? null,
      recordsIn: subtask.metrics?.['read-records'] ?? null,
      recordsOut: subtask.metrics?.['write-records'] ?? null,
      bytesIn: subtask.metrics?.['read-bytes'] ?? null,
      bytesOut: subtask.metrics?.['write-bytes'] ?? null,
      clockMs: clockOf(subtask.metrics),
      busyTimeMsPerSecond: perSecond(p?.busyRatio),
      backPressuredTimeMsPerSecond: perSecond(p?.ratio),
      idleTimeMsPerSecond: perSecond(p?.idleRatio),
      backpressureLevel: p?.backpressureLevel ?? null,
      watermark: watermarkOf.get(subtask.subtask) ?? null,
    };
  });
  return {
    clusterId,
    jobId,
    vertexId: details.id,
    name: details.name,
    parallelism: details.parallelism,
    subtasks,
    backpressureLevel: subtasks.some((s) => s.backpressureLevel !== null) ? (backPressure.backpressureLevel ?? null) : null,
    fetchedAt: Date.now(),
  };
}

/** `<index>.currentInputWatermark` values by subtask index; a subtask without a watermark yet has none here. */
export function watermarksBySubtask(watermarks: Watermarks): Map<number, number> {
  const watermarkOf = new Map<number, number>();
  for (const metric of watermarks) {
    const index = Number(metric.id.split('.')[0]);
    const value = Number(metric.value);
    if (Number.isInteger(index) && Number.isFinite(value) && value > NO_WATERMARK) watermarkOf.set(index, value);
  }
  return watermarkOf;
}

/** Flink's accumulated busy + back-pressured + idle time: the subtask's own clock; null without all three. */
function clockOf(metrics: Record<string, number | undefined> | undefined): number | null {
  const sum = (metrics?.['accumulated-busy-time'] ?? Number.NaN) + (metrics?.['accumulated-backpressured-time'] ?? Number.NaN) + (metrics?.['accumulated-idle-time'] ?? Number.NaN);
  return Number.isFinite(sum) ? sum : null;
}
