import {
  RATE_COLUMNS,
  UNKNOWN_STATE,
  busyBesideIdle,
  subtaskClockMs,
  type CounterColumn,
  type JobSample,
  type RateColumn,
  type SubtaskColumns,
  type TaskManagerRef,
  type VertexSample,
} from '../history/job-sample.ts';

/**
 * Per-subtask figures of one vertex over a time window of samples: what every analysis reads.
 *
 * Means are exact: the growth of Flink's accumulated counters between the first and the last sighting of the same
 * execution attempt, divided by the growth of the subtask's own clock between them (`subtaskClockMs`; the time
 * between sightings only where Flink reports no accumulated times) — never an average of rates, which would weigh a
 * 2 s interval like a 60 s one. So busy + back-pressured + idle means add up to 1000 ms/s. Maxima come from the
 * per-sample rates. A subtask that restarted inside the window (new attempt, counters going backwards, a JobManager
 * that recovered the job) is measured from its restart on.
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
  /** Highest per-sample rate per subtask, for the rates asked for (`WindowStatsOptions.maxima`); NaN when no sample had one. */
  max: Partial<Record<RateColumn, Float64Array>>;
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
  /**
   * Flink's records and bytes counters per subtask at the last sample that had them: totals since the subtask's
   * current attempt started; NaN when unknown.
   */
  totals: Record<TotalColumn, Float64Array>;
}

/** The counters a report shows as totals beside their rates. */
export const TOTAL_COLUMNS = ['recordsIn', 'recordsOut', 'bytesIn', 'bytesOut'] as const;
export type TotalColumn = (typeof TOTAL_COLUMNS)[number];

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
  /** Where the window's samples came from: the console's own of the JobManager, or the cluster's metrics store. */
  samplesFrom: { jobManager: number; prometheus: number };
}

function nanArray(n: number): Float64Array {
  return new Float64Array(n).fill(Number.NaN);
}

function rateRecord(n: number): Record<RateColumn, Float64Array> {
  return Object.fromEntries(RATE_COLUMNS.map((c) => [c, nanArray(n)])) as Record<RateColumn, Float64Array>;
}

/** What to compute beyond the means: maxima cost a pass over every sample, so only the ones asked for. */
export interface WindowStatsOptions {
  /** Rates to take the per-sample maximum of. @default none */
  maxima?: readonly RateColumn[];
}

/**
 * Pure: one vertex's window figures from its samples, oldest first. Memory stays bounded by one vertex, so a
 * 200 × 1,024 job can be aggregated vertex by vertex straight from the store. The means touch only the ends of each
 * subtask's run (a few values per subtask, whatever the number of samples); maxima scan every sample.
 */
export function vertexWindowStats(samples: readonly VertexAt[], options: WindowStatsOptions = {}): VertexWindowStats {
  const withColumns = samples.filter((s) => s.vertex.subtasks !== null && s.vertex.subtasks.attempt.length === s.vertex.parallelism);
  const last = samples[samples.length - 1]?.vertex;
  // The layout of the last sample decides (a rescale changes the parallelism): older samples of another shape are left out.
  const shaped = withColumns.length > 0 ? withColumns.filter((s) => s.vertex.parallelism === withColumns[withColumns.length - 1].vertex.parallelism) : [];
  const reference = shaped[shaped.length - 1]?.vertex ?? last;
  const n = shaped.length > 0 ? reference.parallelism : 0;
  const maxima = options.maxima ?? [];
  const stats: VertexWindowStats = {
    id: reference?.id ?? '',
    name: reference?.name ?? '',
    parallelism: reference?.parallelism ?? 0,
    maxParallelism: reference?.maxParallelism ?? null,
    status: last?.status ?? 'UNKNOWN',
    samples: shaped.length,
    mean: rateRecord(n),
    max: Object.fromEntries(maxima.map((c) => [c, nanArray(n)])),
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
    totals: Object.fromEntries(TOTAL_COLUMNS.map((c) => [c, nanArray(n)])) as Record<TotalColumn, Float64Array>,
  };
  if (shaped.length === 0) {
    // Samples that read only Flink's aggregates are skipped here, never counted as missing: they say so only when
    // the window holds no per-subtask reading at all.
    const aggregatesOnly = samples.some((s) => s.vertex.subtasks === null && s.vertex.aggregates !== undefined);
    stats.unavailable =
      samples.length === 0
        ? 'no samples in the window'
        : aggregatesOnly && samples.every((s) => s.vertex.unavailable === undefined)
          ? 'no per-subtask reading in the window yet (the samples between readings hold Flink\'s figures aggregated over the subtasks)'
          : (samples.findLast((s) => s.vertex.unavailable !== undefined)?.vertex.unavailable ?? 'the cluster gave no subtask figures');
    return stats;
  }
  const columns: SubtaskColumns[] = shaped.map((s) => s.vertex.subtasks!);
  const count = columns.length;
  const lastColumns = columns[count - 1];
  stats.attempt.set(lastColumns.attempt);
  stats.state.set(lastColumns.state);
  stats.taskManager.set(lastColumns.taskManager);

  // Where each subtask's current run starts: after the JobManager last recovered the job (every counter starts
  // over), or after the subtask's last attempt change. Attempts only grow, so equal ends mean no restart.
  let recoveredAt = 0;
  for (let s = count - 1; s > 0; s--) {
    const here = shaped[s].jobStartTime;
    const before = shaped[s - 1].jobStartTime;
    if (here !== undefined && before !== undefined && here !== before) {
      recoveredAt = s;
      break;
    }
  }
  const segmentStart = new Int32Array(n).fill(recoveredAt);
  if (recoveredAt > 0) stats.restarted.fill(1);
  const firstAttempt = columns[recoveredAt].attempt;
  for (let k = 0; k < n; k++) {
    if (firstAttempt[k] === lastColumns.attempt[k]) continue;
    stats.restarted[k] = 1;
    let s = count - 1;
    while (s > recoveredAt && columns[s - 1].attempt[k] === lastColumns.attempt[k]) s--;
    segmentStart[k] = s;
  }

  const since = columns.map((c) => c.countersSince);
  const clock = columns.map((c) => Float64Array.from(c.attempt, (_, k) => subtaskClockMs(c, k)));
  // Flink's accumulated busy time is derived (the time since the start less idle and back-pressured time), so it can
  // step back a little when an idle period is accounted late: never a restart, and never its own rate where the
  // clock is known (see `busyBesideIdle`). Its pass keeps its resets to itself.
  const busyResets = new Uint8Array(n);
  const idleCovered = nanArray(n);
  for (const rate of RATE_COLUMNS) {
    windowMeans(
      columns.map((c) => c.counters[COUNTER_OF_RATE[rate]]),
      since,
      clock,
      columns.map((c) => c.rates[rate]),
      segmentStart,
      TIME_RATES.has(rate) ? 1000 : Infinity,
      stats.mean[rate],
      rate === 'busyTimeMsPerSecond' ? stats.coveredMs : rate === 'idleTimeMsPerSecond' ? idleCovered : undefined,
      rate === 'busyTimeMsPerSecond' ? busyResets : stats.restarted,
    );
  }
  for (let k = 0; k < n; k++) {
    const clocked = Number.isFinite(clock[count - 1][k]) && Number.isFinite(idleCovered[k]);
    if (!clocked) {
      if (busyResets[k]) stats.restarted[k] = 1;
      continue;
    }
    const shares = busyBesideIdle(stats.mean.backPressuredTimeMsPerSecond[k], stats.mean.idleTimeMsPerSecond[k]);
    stats.mean.backPressuredTimeMsPerSecond[k] = shares.backPressured;
    stats.mean.idleTimeMsPerSecond[k] = shares.idle;
    stats.mean.busyTimeMsPerSecond[k] = shares.busy;
    stats.coveredMs[k] = idleCovered[k];
  }

  for (const rate of maxima) {
    const max = stats.max[rate]!;
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

  // First and last finite values per subtask, sample by sample (sequential memory), stopping once all are found.
  firstFinite(columns.map((c) => c.watermark), shaped, false, stats.watermarkFirst, stats.watermarkFirstAt);
  firstFinite(columns.map((c) => c.watermark), shaped, true, stats.watermarkLast, stats.watermarkLastAt);
  firstFinite(columns.map((c) => c.checkpointedBytes), shaped, true, stats.checkpointedBytes);
  for (const total of TOTAL_COLUMNS) firstFinite(columns.map((c) => c.counters[total]), shaped, true, stats.totals[total]);
  return stats;
}

/**
 * The window mean of one counter for every subtask: its growth over the subtask's run in the window, from the first
 * to the last finite value, divided by the growth of the subtask's clock between them. A value going backwards
 * without an attempt change (a reset) starts the run over from there.
 *
 * Without a clock (no accumulated times), the time between when the values were first seen stands in. Either way the
 * first sample of a watch (or of a new attempt) shows values of unknown age — the JobManager serves metrics it fetched
 * earlier, at its own pace, maybe long before the window — and has no rate, so the count starts at the next fresh
 * sighting (the subtask's counters seen to change), when there is one.
 *
 * Written as passes over all subtasks (no allocation per subtask): a 200 × 1,024 job has 1.4 million of these.
 */
function windowMeans(
  series: readonly Float64Array[],
  since: readonly Float64Array[],
  clock: readonly Float64Array[],
  rates: readonly Float32Array[],
  segmentStart: Int32Array,
  cap: number,
  mean: Float64Array,
  covered: Float64Array | undefined,
  restarted: Uint8Array,
): void {
  const count = series.length;
  const n = mean.length;
  const first = Int32Array.from(segmentStart);
  const last = new Int32Array(n).fill(count - 1);
  let unknownAge = 0;
  const ofUnknownAge = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    while (first[k] < count && !Number.isFinite(series[first[k]][k])) first[k]++;
    while (last[k] > first[k] && !Number.isFinite(series[last[k]][k])) last[k]--;
    // Values of unknown age stay out even with a clock: it would measure exactly, but from a reading (the JobManager's
    // last fetch before the watch began) that may lie long before the window.
    if (first[k] < last[k] && !Number.isFinite(rates[first[k]][k])) {
      ofUnknownAge[k] = 1;
      unknownAge++;
    }
  }
  // Values of unknown age: start at the first fresh sighting (the subtask's counters seen to change, any of them:
  // the JobManager refreshes them together), sample by sample for all such subtasks at once.
  for (let s = 1; s < count - 1 && unknownAge > 0; s++) {
    const here = since[s];
    const before = since[s - 1];
    for (let k = 0; k < n; k++) {
      if (ofUnknownAge[k] === 0 || s <= first[k] || s >= last[k]) continue;
      if (here[k] !== before[k] && Number.isFinite(series[s][k])) {
        first[k] = s;
        ofUnknownAge[k] = 0;
        unknownAge--;
      }
    }
  }
  for (let k = 0; k < n; k++) {
    const f = first[k];
    const l = last[k];
    if (f >= l) {
      mean[k] = lastFinite(rates, k, segmentStart[k]);
      continue;
    }
    if (ofUnknownAge[k] === 1) {
      // No fresh sighting before the last: the last sample's own rate (the sampler judged its interval) is the figure,
      // over that interval only; none when it had none (a first reading too old to measure from).
      mean[k] = rates[l][k];
      const interval = clock[l][k] - clock[l - 1][k];
      if (covered && Number.isFinite(mean[k])) covered[k] = Number.isFinite(interval) && interval > 0 ? interval : since[l][k] - since[l - 1][k];
      continue;
    }
    let from = f;
    let delta = series[l][k] - series[f][k];
    if (delta < 0) {
      // Reset without a new attempt: count from where it went backwards.
      restarted[k] = 1;
      let previous = f;
      for (let s = f + 1; s <= l; s++) {
        const value = series[s][k];
        if (!Number.isFinite(value)) continue;
        if (value < series[previous][k]) from = s;
        previous = s;
      }
      delta = series[l][k] - series[from][k];
    }
    const clockMs = clock[l][k] - clock[from][k];
    const elapsedMs = Number.isFinite(clockMs) ? clockMs : since[l][k] - since[from][k];
    if (elapsedMs > 0 && Number.isFinite(elapsedMs)) {
      mean[k] = Math.min((delta / elapsedMs) * 1000, cap);
      if (covered) covered[k] = elapsedMs;
    } else {
      // The counters did not move inside the window (the JobManager refreshes them slower than we sample):
      // the per-sample rates, carried from the last refresh, are the best figure there is.
      mean[k] = lastFinite(rates, k, segmentStart[k]);
    }
  }
}

/** Per subtask, the first (or, `fromEnd`, the last) finite non-negative value over the samples, and its time. */
function firstFinite(series: readonly Float64Array[], samples: readonly VertexAt[], fromEnd: boolean, out: Float64Array, at?: Float64Array): void {
  const n = out.length;
  const found = new Uint8Array(n);
  let left = n;
  for (let i = 0; i < series.length && left > 0; i++) {
    const s = fromEnd ? series.length - 1 - i : i;
    const values = series[s];
    for (let k = 0; k < n; k++) {
      if (found[k] === 0 && values[k] >= 0 && values[k] < Infinity) {
        found[k] = 1;
        left--;
        out[k] = values[k];
        if (at) at[k] = samples[s].t;
      }
    }
  }
}

function lastFinite(values: readonly Float32Array[], k: number, from: number): number {
  for (let s = values.length - 1; s >= from; s--) {
    const v = values[s][k];
    if (Number.isFinite(v)) return v;
  }
  return Number.NaN;
}

/** Pure: the window figures of a whole job from its samples, oldest first (see `vertexWindowStats`). */
export function jobWindowStats(samples: readonly JobSample[], options: WindowStatsOptions = {}): JobWindowStats {
  const last = samples[samples.length - 1];
  const order = last ? last.vertices.map((v) => v.id) : [];
  const byVertex = new Map<string, VertexAt[]>(order.map((id) => [id, []]));
  for (const sample of samples) {
    for (const vertex of sample.vertices) byVertex.get(vertex.id)?.push({ t: sample.t, vertex, jobStartTime: sample.jobStartTime });
  }
  return assembleJobWindow(
    samples.map((s) => ({ t: s.t, jobStartTime: s.jobStartTime, source: s.source })),
    last,
    order.map((id) => vertexWindowStats(byVertex.get(id)!, options)),
  );
}

/** The job-level part of a window from the samples' heads and the vertices' figures (for callers streaming vertex by vertex). */
export function assembleJobWindow(
  heads: ReadonlyArray<{ t: number; jobStartTime: number; source?: 'prometheus' }>,
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
    samplesFrom: { jobManager: heads.filter((h) => h.source !== 'prometheus').length, prometheus: heads.filter((h) => h.source === 'prometheus').length },
  };
}
