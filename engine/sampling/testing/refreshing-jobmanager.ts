import { emptySubtaskColumns, stateCode, type JobSample } from '../../history/job-sample.ts';

/**
 * A JobManager's metric store as the console meets it on a real cluster, for the rate tests: the TaskManagers' counters
 * are read only at the store's refreshes (whenever some client's request comes more than
 * `metrics.fetcher.update-interval` after the last fetch — another client polls too), and every request is answered
 * from the last refresh before it. Between refreshes the console sees the same values; one interval between its
 * samples may hold two refreshes, or none.
 *
 * The subtasks run at constant shares of busy / back-pressured / idle time and a constant record rate, so the exact
 * rates over any interval are known.
 */
export interface SimulatedSubtask {
  /** Shares of the subtask's time, in ms per second; they add up to 1000. */
  busy: number;
  backPressured: number;
  idle: number;
  recordsPerSecond: number;
}

export interface RefreshingJobManager {
  /** Epoch ms of the store's refreshes, increasing. */
  refreshes: readonly number[];
  /** How long before a refresh the TaskManager read its counters (its own metric dump lags). @default 0 */
  readLagMs?: number;
  /** When the subtasks started (their clock's zero). */
  startedAt: number;
  subtasks: readonly SimulatedSubtask[];
}

/** The sample the console takes at time t: the values of the last refresh before t (none before the first refresh). */
export function sampleAt(jm: RefreshingJobManager, t: number): JobSample {
  let refresh = Number.NaN;
  for (const r of jm.refreshes) {
    if (r >= t) break;
    refresh = r;
  }
  const readAt = refresh - (jm.readLagMs ?? 0);
  const seconds = (readAt - jm.startedAt) / 1000;
  const columns = emptySubtaskColumns(jm.subtasks.length);
  jm.subtasks.forEach((s, k) => {
    columns.attempt[k] = 0;
    columns.state[k] = stateCode('RUNNING');
    if (!(seconds >= 0)) return;
    columns.counters.accumulatedBusyMs[k] = s.busy * seconds;
    columns.counters.accumulatedBackPressuredMs[k] = s.backPressured * seconds;
    columns.counters.accumulatedIdleMs[k] = s.idle * seconds;
    columns.counters.recordsIn[k] = s.recordsPerSecond * seconds;
    columns.counters.recordsOut[k] = s.recordsPerSecond * seconds;
    columns.counters.bytesIn[k] = s.recordsPerSecond * seconds * 100;
    columns.counters.bytesOut[k] = s.recordsPerSecond * seconds * 100;
  });
  return {
    clusterId: 'c',
    jobId: 'j'.repeat(32),
    t,
    jobName: 'refreshing',
    jobState: 'RUNNING',
    jobStartTime: jm.startedAt,
    edges: [],
    taskManagers: [],
    lastCompletedCheckpointId: null,
    requests: 0,
    bytes: 0,
    vertices: [{ id: 'v', name: 'v', parallelism: jm.subtasks.length, maxParallelism: 128, status: 'RUNNING', subtasks: columns }],
  };
}

/** A mulberry32 generator: the schedules below are reproducible from their seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Schedule {
  /** ms between refreshes (the JobManager's update interval, or the pace of the client that triggers them). */
  periodMs: number;
  /** The first refresh's offset from the start. */
  phaseMs: number;
  /** Each refresh moves by up to ± this much. @default 0 */
  jitterMs?: number;
  /** Share of refreshes that do not happen (no client asked in time). @default 0 */
  skipShare?: number;
}

/** Refresh times from `from` to `to` on a schedule, with its jitter and skips drawn from `random`. */
export function refreshTimes(schedule: Schedule, from: number, to: number, random: () => number): number[] {
  const times: number[] = [];
  for (let t = from + schedule.phaseMs; t < to; t += schedule.periodMs) {
    if (random() < (schedule.skipShare ?? 0)) continue;
    const jittered = t + (random() * 2 - 1) * (schedule.jitterMs ?? 0);
    if (jittered > (times.at(-1) ?? -Infinity)) times.push(jittered);
  }
  return times;
}
