import type { SubtaskRow, VertexSubtasks } from '../../../engine/contracts/jobs';

/**
 * Per-subtask rates from two consecutive refreshes of the subtasks table, computed here in the renderer: the table's
 * one request per refresh returns totals since the subtask started (`read-records`, ...), and per-subtask rate
 * metrics would cost one request per subtask. Pure, so the rules are tested rather than eyeballed.
 */
export interface SubtaskRates {
  recordsInPerSecond: number | null;
  recordsOutPerSecond: number | null;
  bytesInPerSecond: number | null;
  bytesOutPerSecond: number | null;
}

export interface RateState {
  /** The sample the next rates are measured from. */
  baseline: VertexSubtasks | null;
  /** Rates by subtask index, as of the last refresh. */
  rates: ReadonlyMap<number, SubtaskRates>;
  /** Refreshes in a row whose totals did not move at all. */
  unchanged: number;
  lastFetchedAt: number | null;
}

/** Rates carried over unchanged clocks for this long at most. */
const STALE_AFTER_MS = 60_000;

export const INITIAL_RATE_STATE: RateState = { baseline: null, rates: new Map(), unchanged: 0, lastFetchedAt: null };

const COUNTERS = [
  ['recordsIn', 'recordsInPerSecond'],
  ['recordsOut', 'recordsOutPerSecond'],
  ['bytesIn', 'bytesInPerSecond'],
  ['bytesOut', 'bytesOutPerSecond'],
] as const satisfies ReadonlyArray<readonly [keyof SubtaskRow, keyof SubtaskRates]>;

/** Rates between two samples of the same vertex; null where they cannot be told (see the rules inside). */
export function ratesBetween(before: VertexSubtasks, after: VertexSubtasks): Map<number, SubtaskRates> {
  const rates = new Map<number, SubtaskRates>();
  const seconds = (after.fetchedAt - before.fetchedAt) / 1000;
  const previous = new Map(before.subtasks.map((row) => [row.index, row]));
  for (const row of after.subtasks) {
    const old = previous.get(row.index);
    // Only a subtask that runs now, the same attempt as before (a restart resets its counters), has a rate.
    const comparable = seconds > 0 && old !== undefined && row.status === 'RUNNING' && old.attempt === row.attempt;
    // The subtask's own clock where Flink reports it: exact over the interval the counters cover, however the
    // JobManager's metric refreshes fall between the two requests.
    const clockSeconds = row.clockMs != null && old?.clockMs != null ? (row.clockMs - old.clockMs) / 1000 : null;
    const elapsed = clockSeconds ?? seconds;
    const rate = (counter: (typeof COUNTERS)[number][0]): number | null => {
      const now = row[counter];
      const then = old?.[counter];
      if (!comparable || !(elapsed > 0) || now == null || then == null || now < then) return null;
      return (now - then) / elapsed;
    };
    rates.set(row.index, Object.fromEntries(COUNTERS.map(([counter, key]) => [key, rate(counter)])) as unknown as SubtaskRates);
  }
  return rates;
}

function sameTotals(a: VertexSubtasks, b: VertexSubtasks): boolean {
  if (a.subtasks.length !== b.subtasks.length) return false;
  const byIndex = new Map(a.subtasks.map((row) => [row.index, row]));
  return b.subtasks.every((row) => {
    const old = byIndex.get(row.index);
    return (
      old !== undefined &&
      old.attempt === row.attempt &&
      old.status === row.status &&
      old.clockMs === row.clockMs &&
      COUNTERS.every(([counter]) => old[counter] === row[counter])
    );
  });
}

/**
 * The next rate state after a refresh. A JobManager serves totals from its metric cache (refreshed every
 * `metrics.fetcher.update-interval`), so a refresh can repeat the previous sample exactly: then the rates of the last
 * real step are kept — for as long as the subtasks' clocks stand still where Flink reports them (no refresh), else
 * once: totals that still have not moved on the next refresh are real and read as 0/s.
 * Idempotent for the same sample (React may compute twice).
 */
export function nextRateState(state: RateState, sample: VertexSubtasks): RateState {
  if (state.lastFetchedAt === sample.fetchedAt) return state;
  const baseline = state.baseline;
  if (!baseline || baseline.vertexId !== sample.vertexId || baseline.jobId !== sample.jobId) {
    return { baseline: sample, rates: new Map(), unchanged: 0, lastFetchedAt: sample.fetchedAt };
  }
  if (sameTotals(baseline, sample) && state.rates.size > 0) {
    // With the subtasks' clocks known, unchanged clocks mean the JobManager has not refreshed: the rates stand, for a
    // minute at most (as the history's): a JobManager that stopped refreshing has no current rates.
    if (sample.subtasks.every((row) => row.clockMs != null)) {
      if (sample.fetchedAt - baseline.fetchedAt <= STALE_AFTER_MS) return { ...state, lastFetchedAt: sample.fetchedAt };
      return { ...state, rates: new Map(), lastFetchedAt: sample.fetchedAt };
    }
    if (state.unchanged === 0) return { ...state, unchanged: 1, lastFetchedAt: sample.fetchedAt };
  }
  return { baseline: sample, rates: ratesBetween(baseline, sample), unchanged: 0, lastFetchedAt: sample.fetchedAt };
}
