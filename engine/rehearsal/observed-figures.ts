import { loadFigures, SATURATED_BUSY_MS_PER_SECOND } from '../analysis/rescale-plan.ts';
import { subtaskCapacity } from '../analysis/salting-advice.ts';
import type { CheckpointFigures, ObservedFigures } from '../contracts/rehearsal.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { JobSample } from '../history/job-sample.ts';
import type { OperationClock } from '../operations/driver-context.ts';
import { observeLoad } from '../operations/observed-load.ts';
import { demandFromLag, watermarkLagGrowth } from './demand.ts';

/**
 * Production's figures of the keyed vertex, which the twin is built from and compared with: the load per subtask (the
 * history's recent minutes, else measured now), back-pressure and the watermark lag from the same samples (measured
 * now: Flink's back-pressure view, and no watermark trend), the demand
 * (given, else from the lag's growth), the latest completed checkpoint, and what one subtask sustains.
 */

export interface ObserveInput {
  client: FlinkRestClient;
  history: HistoryStore;
  clusterId: string;
  jobId: string;
  vertex: { id: string; name: string; parallelism: number; maxParallelism: number };
  /** The upstream vertices (their back-pressure shows the keyed vertex holding the input back). */
  upstream: Array<{ id: string; parallelism: number }>;
  inputRecordsPerSecond?: number;
  metricsFetchIntervalMs: number;
  clock: OperationClock;
}

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const finite = (n: number | undefined): number | null => (n !== undefined && Number.isFinite(n) ? n : null);

async function latestCheckpoint(client: FlinkRestClient, jobId: string): Promise<CheckpointFigures | null> {
  try {
    const stats = await client.request(endpoints.jobCheckpoints, { jobid: jobId });
    const c = stats.latest?.completed;
    return c && c.end_to_end_duration !== undefined && c.state_size !== undefined ? { durationMs: c.end_to_end_duration, stateSizeBytes: c.state_size } : null;
  } catch (error) {
    // Flink answers 404 for a job without checkpointing: nothing to compare.
    if (error instanceof EngineError && error.info.kind === 'not-found') return null;
    throw error;
  }
}

/**
 * Back-pressure per subtask (ms/s) as Flink's back-pressure view gives it now (`ratio` × 1000): when the load was
 * measured now rather than read from the history, whose samples carry it. NaN where Flink gave none.
 */
async function backPressureNow(client: FlinkRestClient, jobId: string, vertexId: string, parallelism: number): Promise<number[]> {
  const out = new Array<number>(parallelism).fill(Number.NaN);
  try {
    const info = await client.request(endpoints.vertexBackPressure, { jobid: jobId, vertexid: vertexId });
    for (const s of info.subtasks ?? []) if (s.subtask < parallelism) out[s.subtask] = s.ratio * 1000;
  } catch (error) {
    if (!(error instanceof EngineError && error.info.kind === 'not-found')) throw error;
  }
  return out;
}

export async function observeFigures(input: ObserveInput): Promise<ObservedFigures> {
  const { vertex } = input;
  const load = await observeLoad({ history: input.history, client: input.client, clusterId: input.clusterId, jobId: input.jobId, vertexIds: [vertex.id], metricsFetchIntervalMs: input.metricsFetchIntervalMs, clock: input.clock });
  const observed = load.vertices.get(vertex.id);
  if (!observed || observed.parallelism !== vertex.parallelism || !observed.recordsInPerSecond.some((r) => Number.isFinite(r) && r > 0)) {
    throw new EngineError('not-found', `No load figures for ${vertex.name}: its subtasks' counters did not move over the ${load.samples} samples taken.`);
  }
  const records = Array.from(observed.recordsInPerSecond);
  const busyRaw = Array.from(observed.busyTimeMsPerSecond);
  const busy = busyRaw.map((b) => (Number.isFinite(b) ? b : 0));
  const capacity = subtaskCapacity(records, busyRaw);
  if (!capacity) {
    throw new EngineError('invalid-input', `No subtask of ${vertex.name} was busy enough (≥ 100 ms/s) to tell what one sustains: the twin cannot charge records their cost.`);
  }
  const hotSubtask = busy.indexOf(Math.max(...busy));
  // A record's cost below saturation: what the unsaturated subtasks show (a saturated one waits, it does not tell).
  const costPerRecordMs =
    median(records.flatMap((r, s) => (r > 0 && Number.isFinite(busyRaw[s]) && busyRaw[s] < SATURATED_BUSY_MS_PER_SECOND ? [busyRaw[s] / r] : []))) ?? 1000 / capacity.recordsPerSecond;

  // The history's samples of the same window: back-pressure (latest reading) and the watermarks (their trend).
  const samples: JobSample[] = load.source === 'history' ? input.history.samples.window(input.clusterId, input.jobId, load.from, load.to).filter((s) => s.jobState === 'RUNNING') : [];
  const columnsOf = (sample: JobSample, id: string) => sample.vertices.find((v) => v.id === id)?.subtasks ?? null;
  const last = [...samples].reverse().find((s) => columnsOf(s, vertex.id) !== null);
  const lastColumns = last ? columnsOf(last, vertex.id) : null;
  const points = samples.flatMap((s) => {
    const cols = columnsOf(s, vertex.id);
    if (!cols) return [];
    const marks = Array.from(cols.watermark).filter((w) => Number.isFinite(w));
    return marks.length === cols.watermark.length ? [{ t: s.t, watermark: Math.min(...marks) }] : [];
  });
  const upstreamBp = (
    last
      ? input.upstream.flatMap((v) => Array.from(columnsOf(last, v.id)?.rates.backPressuredTimeMsPerSecond ?? []))
      : (await Promise.all(input.upstream.map((v) => backPressureNow(input.client, input.jobId, v.id, v.parallelism)))).flat()
  ).filter((b) => Number.isFinite(b));
  const backPressure = lastColumns ? Array.from(lastColumns.rates.backPressuredTimeMsPerSecond) : await backPressureNow(input.client, input.jobId, vertex.id, vertex.parallelism);

  const throughput = records.reduce((a, r) => a + (Number.isFinite(r) ? r : 0), 0);
  const fromLag = demandFromLag(throughput, watermarkLagGrowth(points));
  const given = input.inputRecordsPerSecond;
  const lastPoint = points.at(-1);
  return {
    load: load.source,
    from: load.from,
    to: load.to,
    samples: load.samples,
    parallelism: vertex.parallelism,
    maxParallelism: vertex.maxParallelism,
    subtasks: records.map((r, s) => ({
      subtask: s,
      recordsInPerSecond: finite(r),
      busyTimeMsPerSecond: finite(busyRaw[s]),
      backPressuredTimeMsPerSecond: finite(backPressure[s]),
    })),
    busy: loadFigures(busy),
    hotSubtask,
    throughputRecordsPerSecond: throughput,
    demandRecordsPerSecond: given ?? fromLag.demand,
    demandBasis: given !== undefined ? 'given' : fromLag.basis,
    upstreamBackPressuredTimeMsPerSecond: upstreamBp.length ? Math.max(...upstreamBp) : null,
    watermarkLagMs: lastPoint ? lastPoint.t - lastPoint.watermark : null,
    checkpoint: await latestCheckpoint(input.client, input.jobId),
    capacityRecordsPerSecond: capacity.recordsPerSecond,
    costPerRecordMs,
  };
}
