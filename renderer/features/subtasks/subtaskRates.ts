import type { VertexSubtasks } from '../../../engine/contracts/jobs';

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

/** Rates between two samples of the same vertex; null where they cannot be told (see the rules inside). */
export function ratesBetween(before: VertexSubtasks, after: VertexSubtasks): Map<number, SubtaskRates> {
  const rates = new Map<number, SubtaskRates>();
  const seconds = (after.fetchedAt - before.fetchedAt) / 1000;
  const previous = matchByIndex(before.subtasks);
  after.subtasks.forEach((row, position) => {
    const old = previous(row.index, position);
    // Only a subtask that runs now, the same attempt as before (a restart resets its counters), has a rate.
    const comparable = seconds > 0 && old !== undefined && row.status === 'RUNNING' && old.attempt === row.attempt;
    // The subtask's own clock where Flink reports it: exact over the interval the counters cover, however the
    // JobManager's metric refreshes fall between the two requests.
    const elapsed = row.clockMs != null && old?.clockMs != null ? (row.clockMs - old.clockMs) / 1000 : seconds;
    rates.set(
      row.index,
      comparable && elapsed > 0
        ? {
            recordsInPerSecond: rate(row.recordsIn, old.recordsIn, elapsed),
            recordsOutPerSecond: rate(row.recordsOut, old.recordsOut, elapsed),
            bytesInPerSecond: rate(row.bytesIn, old.bytesIn, elapsed),
            bytesOutPerSecond: rate(row.bytesOut, old.bytesOut, elapsed),
          }
        : NO_RATES,
    );
  });
  return rates;
}

const NO_RATES: SubtaskRates = Object.freeze({ recordsInPerSecond: null, recordsOutPerSecond: null, bytesInPerSecond: null, bytesOutPerSecond: null });

/** A counter's growth per second; none where either reading is missing or it went down (reset). */
function rate(now: number | null, then: number | null, seconds: number): number | null {
  return now == null || then == null || now < then ? null : (now - then) / seconds;
}

/**
 * The row of the same subtask in an earlier sample. A vertex's subtasks come in index order, so the row at the same
 * place is nearly always it: a map by index is built only the first time it is not (4,096 rows a refresh).
 */
export function matchByIndex<Row extends { index: number }>(rows: readonly Row[]): (index: number, position: number) => Row | undefined {
  let byIndex: Map<number, Row> | null = null;
  return (index, position) => {
    const atPlace = rows[position];
    if (atPlace !== undefined && atPlace.index === index) return atPlace;
    byIndex ??= new Map(rows.map((row) => [row.index, row]));
    return byIndex.get(index);
  };
}

function sameTotals(a: VertexSubtasks, b: VertexSubtasks): boolean {
  if (a.subtasks.length !== b.subtasks.length) return false;
  const previous = matchByIndex(a.subtasks);
  return b.subtasks.every((row, position) => {
    const old = previous(row.index, position);
    return (
      old !== undefined &&
      old.recordsIn === row.recordsIn &&
      old.recordsOut === row.recordsOut &&
      old.bytesIn === row.bytesIn &&
      old.bytesOut === row.bytesOut &&
      old.clockMs === row.clockMs &&
      old.attempt === row.attempt &&
      old.status === row.status
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
