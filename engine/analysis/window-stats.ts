import {
  RATE_COLUMNS,
  UNKNOWN_STATE,
  type CounterColumn,
  type JobSample,
  type RateColumn,
  type TaskManagerRef,
  type VertexSample,
} from '../history/job-sample.ts';

/**
 * Per-subtask figures of one vertex over a time window of samples: what every analysis reads.
 *
 * Means are exact: the growth of Flink's accumulated counters between the first and the last sighting of the same
 * execution attempt, divided by the time between those sightings (never an average of rates, which would weigh a
 * 2 s interval like a 60 s one). Maxima come from the per-sample rates. A subtask that restarted inside the window
 * (new attempt, counters going backwards, a JobManager that recovered the job) is measured from its restart on.
 * Missing figures stay NaN, never 0.
 */

/** The counter each rate column is the window mean of. */
export const COUNTER_OF_RATE: Record<RateColumn, CounterColumn> = {
  recordsInPerSecond: 'recordsIn',
  recordsOutPerSecond: 'recordsOut',
  bytesInPerSecond: 'bytesIn',
  bytesOutPerSecond: 'bytesOut',
  busyTimeMsPerSecond: 'accumulatedBusyMs',
  backPressuredTimeMsPerSecond: 'accumulatedBackPressuredMs',
  idleTimeMsPerSecond: 'accumulatedIdleMs',
};

const TIME_RATES = new Set<RateColumn>(['busyTimeMsPerSecond', 'backPressuredTimeMsPerSecond', 'idleTimeMsPerSecond']);

/** One sample of one vertex, as `SampleLog.vertexWindow` gives it (plus the job's start time, when known). */
export interface VertexAt {
  t: number;
  vertex: VertexSample;
  /** The job's start time at this sample: a change means the JobManager recovered the job and counters restarted. */
  jobStartTime?: number;
}

export interface VertexWindowStats {
  id: string;
  name: string;
  parallelism: number;
  maxParallelism: number | null;
  /** The vertex's status at the last sample. */
  status: string;
  /** Samples of the window that had this vertex's subtasks. */
  samples: number;
  /** Why there are no figures (no sample had the subtasks), in words; undefined when there are. */
  unavailable?: string;
  /** Window mean per subtask of each rate (records/s, bytes/s, ms/s); NaN when not measurable. */
  mean: Record<RateColumn, Float64Array>;
  /** Highest per-sample rate per subtask; NaN when no sample had one. */
  max: Record<RateColumn, Float64Array>;
  /** ms of the window the busy-time mean covers, per subtask (less than the window after a restart). */
  coveredMs: Float64Array;
  /** 1 where the subtask restarted inside the window. */
  restarted: Uint8Array;
  /** At the last sample: attempt, state code, TaskManager index (into `JobWindowStats.taskManagers`). */
  attempt: Int32Array;
  state: Uint8Array;
  taskManager: Int32Array;
  /** Input watermark per subtask at the first and the last sample that had one (epoch ms; NaN = none). */
  watermarkFirst: Float64Array;
  watermarkLast: Float64Array;
  /** Time of those first and last watermark sightings, per subtask. */
  watermarkFirstAt: Float64Array;
  watermarkLastAt: Float64Array;
  /** Checkpointed state size per subtask at the last sample that had it; NaN when unknown. */
  checkpointedBytes: Float64Array;
}

export interface JobWindowStats {
  clusterId: string;
  jobId: string;
  jobName: string;
  jobState: string;
  /** First and last sample time of the window; NaN without samples. */
  from: number;
  to: number;
  samples: number;
  vertices: VertexWindowStats[];
  edges: JobSample['edges'];
  /** TaskManagers as the last sample lists them (what `VertexWindowStats.taskManager` indexes). */
  taskManagers: TaskManagerRef[];
  /** The job's start time changed inside the window (JobManager failover). */
  jobRecovered: boolean;
}

function nanArray(n: number): Float64Array {
  return new Float64Array(n).fill(Number.NaN);
}

function rateRecord(n: number): Record<RateColumn, Float64Array> {
  return Object.fromEntries(RATE_COLUMNS.map((c) => [c, nanArray(n)])) as Record<RateColumn, Float64Array>;
}

/**
 * Pure: one vertex's window figures from its samples, oldest first. Memory stays bounded by one vertex, so a
 * 200 × 1,024 job can be aggregated vertex by vertex straight from the store.
 */
export function vertexWindowStats(samples: readonly VertexAt[]): VertexWindowStats {
  const withColumns = samples.filter((s) => s.vertex.subtasks !== null && s.vertex.subtasks.attempt.length === s.vertex.parallelism);
  const last = samples[samples.length - 1]?.vertex;
  // The layout of the last sample decides (a rescale changes the parallelism): older samples of another shape are left out.
  const shaped = withColumns.length > 0 ? withColumns.filter((s) => s.vertex.parallelism === withColumns[withColumns.length - 1].vertex.parallelism) : [];
  const reference = shaped[shaped.length - 1]?.vertex ?? last;
  const n = shaped.length > 0 ? reference.parallelism : 0;
  const stats: VertexWindowStats = {
    id: reference?.id ?? '',
    name: reference?.name ?? '',
    parallelism: reference?.parallelism ?? 0,
    maxParallelism: reference?.maxParallelism ?? null,
    status: last?.status ?? 'UNKNOWN',
    samples: shaped.length,
    mean: rateRecord(n),
    max: rateRecord(n),
    coveredMs: nanArray(n),
    restarted: new Uint8Array(n),
    attempt: new Int32Array(n),
    state: new Uint8Array(n).fill(UNKNOWN_STATE),
    taskManager: new Int32Array(n).fill(-1),
    watermarkFirst: nanArray(n),
    watermarkLast: nanArray(n),
    watermarkFirstAt: nanArray(n),
    watermarkLastAt: nanArray(n),
    checkpointedBytes: nanArray(n),
  };
  if (shaped.length === 0) {
    stats.unavailable = last?.unavailable ?? (samples.length === 0 ? 'no samples in the window' : 'the cluster gave no subtask figures');
    return stats;
  }
  const columns = shaped.map((s) => s.vertex.subtasks!);
  const lastColumns = columns[columns.length - 1];
  stats.attempt.set(lastColumns.attempt);
  stats.state.set(lastColumns.state);
  stats.taskManager.set(lastColumns.taskManager);

  // Where each subtask's current run starts in the window: after its last attempt change or job recovery.
  const segmentStart = new Int32Array(n);
  for (let s = shaped.length - 1; s > 0; s--) {
    const here = columns[s].attempt;
    const before = columns[s - 1].attempt;
    const recovered = shaped[s].jobStartTime !== undefined && shaped[s - 1].jobStartTime !== undefined && shaped[s].jobStartTime !== shaped[s - 1].jobStartTime;
    for (let k = 0; k < n; k++) {
      if (segmentStart[k] === 0 && (recovered || here[k] !== before[k])) {
        segmentStart[k] = s;
        stats.restarted[k] = 1;
      }
    }
  }

  for (const rate of RATE_COLUMNS) {
    const counter = COUNTER_OF_RATE[rate];
    const mean = stats.mean[rate];
    const cap = TIME_RATES.has(rate) ? 1000 : Infinity;
    for (let k = 0; k < n; k++) {
      const window = counterWindow(columns, counter, rate, k, segmentStart[k]);
      if (window.restarted) stats.restarted[k] = 1;
      if (window.elapsedMs > 0) {
        mean[k] = Math.min((window.delta / window.elapsedMs) * 1000, cap);
        if (rate === 'busyTimeMsPerSecond') stats.coveredMs[k] = window.elapsedMs;
      } else {
        // The counters did not move inside the window (the JobManager refreshes them slower than we sample):
        // the per-sample rates, carried from the last refresh, are the best figure there is.
        mean[k] = lastFiniteRate(columns, rate, k, segmentStart[k]);
      }
    }
    const max = stats.max[rate];
    max.fill(-Infinity);
    for (const c of columns) {
      const values = c.rates[rate];
      for (let k = 0; k < n; k++) {
        const v = values[k];
        if (v > max[k]) max[k] = v;
      }
    }
    for (let k = 0; k < n; k++) if (max[k] === -Infinity) max[k] = Number.NaN;
  }

  for (let s = 0; s < shaped.length; s++) {
    const c = columns[s];
    const t = shaped[s].t;
    for (let k = 0; k < n; k++) {
      const w = c.watermark[k];
      if (Number.isFinite(w)) {
        if (Number.isNaN(stats.watermarkFirst[k])) {
          stats.watermarkFirst[k] = w;
          stats.watermarkFirstAt[k] = t;
        }
        stats.watermarkLast[k] = w;
        stats.watermarkLastAt[k] = t;
      }
      const b = c.checkpointedBytes[k];
      if (Number.isFinite(b) && b >= 0) stats.checkpointedBytes[k] = b;
    }
  }
  return stats;
}

/**
 * The growth of one counter of one subtask over its run in the window: from the first to the last finite value,
 * timed by when those values were first seen. A value going backwards without an attempt change (a reset) starts
 * the run over from there.
 *
 * "First seen" is only a good clock for values the sampler saw change: the JobManager serves metrics it fetched
 * earlier, at its own pace. The first sample of a watch (or of a new attempt) shows values of unknown age — it has
 * no rate — so the count starts at the first value seen to change after it, when there is one.
 */
function counterWindow(
  columns: readonly VertexSample['subtasks'][],
  counter: CounterColumn,
  rate: RateColumn,
  k: number,
  from: number,
): { delta: number; elapsedMs: number; restarted: boolean } {
  let first = -1;
  let lastIndex = -1;
  for (let s = from; s < columns.length; s++) {
    if (Number.isFinite(columns[s]!.counters[counter][k])) {
      first = s;
      break;
    }
  }
  if (first !== -1 && !Number.isFinite(columns[first]!.rates[rate][k])) {
    for (let s = first + 1; s < columns.length - 1; s++) {
      const value = columns[s]!.counters[counter][k];
      const before = columns[s - 1]!.counters[counter][k];
      if (Number.isFinite(value) && Number.isFinite(before) && value !== before) {
        first = s;
        break;
      }
    }
  }
  for (let s = columns.length - 1; s >= from; s--) {
    if (Number.isFinite(columns[s]!.counters[counter][k])) {
      lastIndex = s;
      break;
    }
  }
  if (first === -1 || lastIndex <= first) return { delta: 0, elapsedMs: 0, restarted: false };
  let restarted = false;
  let delta = columns[lastIndex]!.counters[counter][k] - columns[first]!.counters[counter][k];
  if (delta < 0) {
    // Reset without a new attempt: find where it went backwards and count from there.
    restarted = true;
    let previous = first;
    for (let s = first + 1; s <= lastIndex; s++) {
      const value = columns[s]!.counters[counter][k];
      if (!Number.isFinite(value)) continue;
      if (value < columns[previous]!.counters[counter][k]) first = s;
      previous = s;
    }
    delta = columns[lastIndex]!.counters[counter][k] - columns[first]!.counters[counter][k];
  }
  const elapsedMs = columns[lastIndex]!.countersSince[k] - columns[first]!.countersSince[k];
  return { delta, elapsedMs: Number.isFinite(elapsedMs) ? elapsedMs : 0, restarted };
}

function lastFiniteRate(columns: readonly VertexSample['subtasks'][], rate: RateColumn, k: number, from: number): number {
  for (let s = columns.length - 1; s >= from; s--) {
    const v = columns[s]!.rates[rate][k];
    if (Number.isFinite(v)) return v;
  }
  return Number.NaN;
}

/** Pure: the window figures of a whole job from its samples, oldest first (see `vertexWindowStats`). */
export function jobWindowStats(samples: readonly JobSample[]): JobWindowStats {
  const last = samples[samples.length - 1];
  const order = last ? last.vertices.map((v) => v.id) : [];
  const byVertex = new Map<string, VertexAt[]>(order.map((id) => [id, []]));
  for (const sample of samples) {
    for (const vertex of sample.vertices) byVertex.get(vertex.id)?.push({ t: sample.t, vertex, jobStartTime: sample.jobStartTime });
  }
  return assembleJobWindow(
    samples.map((s) => ({ t: s.t, jobStartTime: s.jobStartTime })),
    last,
    order.map((id) => vertexWindowStats(byVertex.get(id)!)),
  );
}

/** The job-level part of a window from the samples' heads and the vertices' figures (for callers streaming vertex by vertex). */
export function assembleJobWindow(
  heads: ReadonlyArray<{ t: number; jobStartTime: number }>,
  last: Pick<JobSample, 'clusterId' | 'jobId' | 'jobName' | 'jobState' | 'edges' | 'taskManagers'> | undefined,
  vertices: VertexWindowStats[],
): JobWindowStats {
  const starts = new Set(heads.map((h) => h.jobStartTime).filter((s) => s > 0));
  return {
    clusterId: last?.clusterId ?? '',
    jobId: last?.jobId ?? '',
    jobName: last?.jobName ?? '',
    jobState: last?.jobState ?? 'UNKNOWN',
    from: heads[0]?.t ?? Number.NaN,
    to: heads[heads.length - 1]?.t ?? Number.NaN,
    samples: heads.length,
    vertices,
    edges: last?.edges ?? [],
    taskManagers: last?.taskManagers ?? [],
    jobRecovered: starts.size > 1,
  };
}
