import type { SkewMetric } from '../contracts/diagnosis.ts';
import type { VertexMetricPoint } from '../contracts/history.ts';
import type { EdgeView, VertexView } from '../contracts/jobs.ts';

/**
 * One sample of a watched job, as the history store keeps it: per vertex, per-subtask columns (one typed array per
 * figure, indexed by subtask). Columns keep a 200-vertex × 1,024-subtask job at a few bytes per figure, encode
 * without per-row overhead and let analyses scan a metric without touching the others.
 *
 * Missing values are NaN (never 0): a figure the cluster did not give is not a figure of zero.
 */

/** Cumulative counters as Flink reports them in the vertex details (`read-records`, `accumulated-busy-time`, ...). */
export const COUNTER_COLUMNS = [
  'recordsIn',
  'recordsOut',
  'bytesIn',
  'bytesOut',
  /** ms since the subtask started, Flink's `accumulated-busy-time` etc. */
  'accumulatedBusyMs',
  'accumulatedBackPressuredMs',
  'accumulatedIdleMs',
] as const;

/**
 * Rates over the interval since the previous sample in which the cluster's figures moved (see rates.ts): the skew
 * metrics that are rates. A list of its own because it is the sample codec's column order on disk, which must not
 * move with the contract's list; checked against it below.
 */
export const RATE_COLUMNS = [
  'recordsInPerSecond',
  'recordsOutPerSecond',
  'bytesInPerSecond',
  'bytesOutPerSecond',
  'busyTimeMsPerSecond',
  'backPressuredTimeMsPerSecond',
  'idleTimeMsPerSecond',
] as const satisfies readonly RateColumn[];

export type CounterColumn = (typeof COUNTER_COLUMNS)[number];
/** Every skew metric but the checkpointed state, which comes from checkpoints, not from rates. */
export type RateColumn = Exclude<SkewMetric, 'checkpointedStateBytes'>;
// Fails to compile when a rate skew metric has no column.
const _everyRateStored: Exclude<RateColumn, (typeof RATE_COLUMNS)[number]> extends never ? true : never = true;

export interface SubtaskColumns {
  counters: Record<CounterColumn, Float64Array>;
  /**
   * When these counter values were first seen (epoch ms). The JobManager refreshes metrics on its own schedule, so
   * two samples can show the same values; rates divide by the time between first sightings, not between samples.
   */
  countersSince: Float64Array;
  rates: Record<RateColumn, Float32Array>;
  /** Epoch ms of the current input watermark; NaN when there is none (yet). */
  watermark: Float64Array;
  /**
   * State size (bytes) of the subtask in the job's last completed checkpoint (Flink's full `state_size`, from the
   * checkpoint's per-subtask details); NaN when unknown.
   */
  checkpointedBytes: Float64Array;
  /** Execution attempt: a new attempt restarts every counter from zero. */
  attempt: Int32Array;
  /** Index into `SUBTASK_STATES`; 255 = a state this version does not know. */
  state: Uint8Array;
  /** Index into the sample's `taskManagers`; -1 when unknown. */
  taskManager: Int32Array;
}

/**
 * The subtask's own clock (ms): its accumulated busy + back-pressured + idle time, which Flink keeps so that the three
 * add up to the time since the subtask started, read by the TaskManager together with every other counter. Rates
 * divided by its growth are exact over the interval the counters really cover, however the JobManager's metric
 * refreshes fall between samples; NaN when the cluster does not report all three times.
 */
export function subtaskClockMs(columns: Pick<SubtaskColumns, 'counters'>, k: number): number {
  const c = columns.counters;
  return c.accumulatedBusyMs[k] + c.accumulatedBackPressuredMs[k] + c.accumulatedIdleMs[k];
}

/**
 * Pure: busy, back-pressured and idle ms per second from the last two's exact rates, as Flink defines busy time
 * (`1000 − min(idle + back-pressured, 1000)`): they add up to 1000 by construction. Flink's accumulated idle time can
 * run a little ahead of the clock (an idle period accounted in one piece), so idle is held to what back-pressure
 * leaves; NaN in, NaN out.
 */
export function busyBesideIdle(backPressured: number, idle: number): { busy: number; backPressured: number; idle: number } {
  if (!Number.isFinite(backPressured) || !Number.isFinite(idle)) return { busy: Number.NaN, backPressured, idle };
  const bp = Math.min(1000, Math.max(0, backPressured));
  const id = Math.min(1000 - bp, Math.max(0, idle));
  return { busy: 1000 - bp - id, backPressured: bp, idle: id };
}

/** Flink's ExecutionState values, in the order they are coded in `SubtaskColumns.state`. */
export const SUBTASK_STATES = [
  'CREATED',
  'SCHEDULED',
  'DEPLOYING',
  'INITIALIZING',
  'RUNNING',
  'FINISHED',
  'CANCELING',
  'CANCELED',
  'FAILED',
  'RECONCILING',
] as const;
export const UNKNOWN_STATE = 255;

export function stateCode(state: string): number {
  const code = (SUBTASK_STATES as readonly string[]).indexOf(state);
  return code === -1 ? UNKNOWN_STATE : code;
}

export function stateName(code: number): string {
  return SUBTASK_STATES[code] ?? 'UNKNOWN';
}

/**
 * A vertex's rates at one sample, over its subtasks (max, mean or sum of those that had the figure; null when none
 * had): what a time axis needs, kept in the sample's head so charts over a window never decode the columns. The chart's
 * point, plus idle time and records out, which the store keeps for what else reads a window.
 */
export interface VertexRollup extends Omit<VertexMetricPoint, 't'> {
  idleAvg: number | null;
  recordsOutPerSecond: number | null;
}

/**
 * Pure: the rollup of a vertex's rate columns (missing figures skipped, never counted as 0); for a sample that read
 * only Flink's aggregated figures of the vertex, those.
 */
export function rollupOf(vertex: Pick<VertexSample, 'subtasks' | 'aggregates'>): VertexRollup {
  if (!vertex.subtasks && vertex.aggregates) return { ...vertex.aggregates };
  const rates = vertex.subtasks?.rates;
  const stats = (column: Float32Array | undefined) => {
    let max = -Infinity;
    let sum = 0;
    let n = 0;
    for (const v of column ?? []) {
      if (!Number.isFinite(v)) continue;
      if (v > max) max = v;
      sum += v;
      n += 1;
    }
    return n === 0 ? { max: null, avg: null, sum: null } : { max, avg: sum / n, sum };
  };
  const busy = stats(rates?.busyTimeMsPerSecond);
  const backPressured = stats(rates?.backPressuredTimeMsPerSecond);
  return {
    busyMax: busy.max,
    busyAvg: busy.avg,
    backPressuredMax: backPressured.max,
    backPressuredAvg: backPressured.avg,
    idleAvg: stats(rates?.idleTimeMsPerSecond).avg,
    recordsInPerSecond: stats(rates?.recordsInPerSecond).sum,
    recordsOutPerSecond: stats(rates?.recordsOutPerSecond).sum,
  };
}

/** A vertex as the graph shows it (without its live figures), and its subtasks' columns. */
export interface VertexSample extends Pick<VertexView, 'id' | 'name' | 'parallelism' | 'maxParallelism' | 'status'> {
  /**
   * null when this sample has no per-subtask reading of the vertex: the cluster could not give it (said in
   * `unavailable`), or the sampler read only its aggregated figures this time (`aggregates`, no `unavailable`: the
   * per-subtask details are read at their own cadence, see sampling-plan.ts). Per-subtask analyses skip such a sample;
   * it is neither missing data nor zeros.
   */
  subtasks: SubtaskColumns | null;
  /** Why `subtasks` is null, in words, when the cluster could not give them. */
  unavailable?: string;
  /**
   * Flink's own figures of the vertex aggregated over its subtasks (`subtasks/metrics?agg=`, what the job page's graph
   * reads) at this sample, when the sample read them: a chart's point without a per-subtask reading.
   */
  aggregates?: VertexRollup;
}

/** What a sample read of a vertex: all its subtasks, only Flink's aggregates over them, or nothing. */
export type VertexCoverage = 'subtasks' | 'aggregates' | 'none';

export function coverageOf(vertex: Pick<VertexSample, 'subtasks' | 'aggregates'>): VertexCoverage {
  return vertex.subtasks ? 'subtasks' : vertex.aggregates ? 'aggregates' : 'none';
}

export interface TaskManagerRef {
  id: string;
  /** host:port the subtasks report (`endpoint` on Flink 2.x, `host` before). */
  endpoint: string | null;
}

/** One sample of one job: what the store keeps per time step. */
export interface JobSample {
  clusterId: string;
  jobId: string;
  /** Epoch ms when the sample was taken (the engine's clock). */
  t: number;
  jobName: string;
  jobState: string;
  /** The job's start time as the cluster reports it: it changes when the JobManager recovers the job. */
  jobStartTime: number;
  vertices: VertexSample[];
  edges: EdgeView[];
  taskManagers: TaskManagerRef[];
  /** Id of the last completed checkpoint the cluster reported at this sample, if any. */
  lastCompletedCheckpointId: number | null;
  /** What this sample cost the cluster (0 when read from Prometheus: the JobManager was not asked). */
  requests: number;
  bytes: number;
  /**
   * Where the figures came from: `prometheus` = read from the cluster's metrics store (engine/prometheus/); absent =
   * sampled from the JobManager's REST API.
   */
  source?: 'prometheus';
}

/** Empty columns for a vertex of the given parallelism: counters and rates NaN, states unknown. */
export function emptySubtaskColumns(parallelism: number): SubtaskColumns {
  const float64 = () => new Float64Array(parallelism).fill(Number.NaN);
  const float32 = () => new Float32Array(parallelism).fill(Number.NaN);
  return {
    counters: Object.fromEntries(COUNTER_COLUMNS.map((c) => [c, float64()])) as Record<CounterColumn, Float64Array>,
    countersSince: float64(),
    rates: Object.fromEntries(RATE_COLUMNS.map((c) => [c, float32()])) as Record<RateColumn, Float32Array>,
    watermark: float64(),
    checkpointedBytes: float64(),
    attempt: new Int32Array(parallelism),
    state: new Uint8Array(parallelism).fill(UNKNOWN_STATE),
    taskManager: new Int32Array(parallelism).fill(-1),
  };
}

/** Bytes a sample's columns take in memory (and, before compression, on disk). */
export function columnBytes(sample: Pick<JobSample, 'vertices'>): number {
  let bytes = 0;
  for (const vertex of sample.vertices) {
    const s = vertex.subtasks;
    if (!s) continue;
    for (const c of COUNTER_COLUMNS) bytes += s.counters[c].byteLength;
    for (const c of RATE_COLUMNS) bytes += s.rates[c].byteLength;
    bytes += s.countersSince.byteLength + s.watermark.byteLength + s.checkpointedBytes.byteLength + s.attempt.byteLength + s.state.byteLength + s.taskManager.byteLength;
  }
  return bytes;
}
