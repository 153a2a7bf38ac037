import { COUNTER_COLUMNS, busyBesideIdle, stateCode, subtaskClockMs, type CounterColumn, type JobSample, type RateColumn, type SubtaskColumns } from '../history/job-sample.ts';

/** Rate columns from counter columns: records and bytes per second; the accumulated times in ms per second. */
const RATE_OF: Array<[RateColumn, CounterColumn, 'count' | 'time']> = [
  ['recordsInPerSecond', 'recordsIn', 'count'],
  ['recordsOutPerSecond', 'recordsOut', 'count'],
  ['bytesInPerSecond', 'bytesIn', 'count'],
  ['bytesOutPerSecond', 'bytesOut', 'count'],
  ['busyTimeMsPerSecond', 'accumulatedBusyMs', 'time'],
  ['backPressuredTimeMsPerSecond', 'accumulatedBackPressuredMs', 'time'],
  ['idleTimeMsPerSecond', 'accumulatedIdleMs', 'time'],
];

const RUNNING = stateCode('RUNNING');

/**
 * How much more of the subtask's clock than of the console's time one interval may hold: a reading up to one
 * JobManager fetch interval (10 s by default) old when first seen, and one fresh now. More, and the earlier reading
 * was older than the console can account for.
 */
const STALE_READING_ALLOWANCE_MS = 10_000;

/**
 * Pure: fills `current`'s rates from the counters of `previous` and `current`, and returns it.
 *
 * The JobManager refreshes metrics on its own schedule (`metrics.fetcher.update-interval`, lazily, on whichever
 * client's request comes next), so one interval between samples can hold two refreshes, or none. Rates are therefore
 * divided by the subtask's own clock (`subtaskClockMs`: the growth of its busy + back-pressured + idle time between
 * the two readings), never by the time between the console's requests: busy + back-pressured + idle = 1000 ms/s
 * exactly, and records and bytes per second are exact over the interval the counters cover — unless the earlier
 * reading was far older than its sighting (no rate then: see STALE_READING_ALLOWANCE_MS). Counters unchanged since
 * the previous sample (no refresh in between) keep the previous rates. Only where the cluster reports no accumulated
 * times does the time between first sightings stand in (`countersSince`). A new attempt, a counter going backwards,
 * a subtask not running or counters unchanged for longer than `staleAfterMs` give no rate (NaN), never a made-up one.
 */
export function withRates(previous: JobSample | undefined, current: JobSample, staleAfterMs = 60_000): JobSample {
  const before = new Map(previous?.vertices.map((v) => [v.id, v]));
  for (const vertex of current.vertices) {
    const now = vertex.subtasks;
    if (!now) continue;
    const then = before.get(vertex.id)?.subtasks;
    const comparable = then && then.attempt.length === now.attempt.length ? then : undefined;
    for (let k = 0; k < now.attempt.length; k++) fillSubtask(comparable, now, k, current.t, staleAfterMs);
  }
  return current;
}

function fillSubtask(then: SubtaskColumns | undefined, now: SubtaskColumns, k: number, t: number, staleAfterMs: number): void {
  now.countersSince[k] = t;
  if (!then || then.attempt[k] !== now.attempt[k] || !(then.countersSince[k] <= t)) return;
  if (now.state[k] !== RUNNING) return;
  if (COUNTER_COLUMNS.every((c) => sameValue(then.counters[c][k], now.counters[c][k]))) {
    now.countersSince[k] = then.countersSince[k];
    if (t - then.countersSince[k] > staleAfterMs) return;
    for (const [rate] of RATE_OF) now.rates[rate][k] = then.rates[rate][k];
    return;
  }
  const clockMs = subtaskClockMs(now, k) - subtaskClockMs(then, k);
  const sightingsMs = t - then.countersSince[k];
  // The earlier reading may be far older than its sighting (the first of a watch, served from a JobManager nobody
  // polled for a while): then the exact rate is an average over time before the console looked. Not this interval's.
  if (clockMs > 2 * sightingsMs + STALE_READING_ALLOWANCE_MS) return;
  const elapsedMs = Number.isFinite(clockMs) ? clockMs : sightingsMs;
  if (!(elapsedMs > 0)) return;
  for (const [rate, counter, kind] of RATE_OF) {
    // With a clock, busy time is what back-pressure and idleness leave (below): Flink derives it so, and its
    // accumulated busy time may step back a little.
    if (rate === 'busyTimeMsPerSecond' && Number.isFinite(clockMs)) continue;
    const delta = now.counters[counter][k] - then.counters[counter][k];
    // NaN (a counter missing on either side) stays NaN; a counter going backwards was reset: no rate.
    if (!(delta >= 0)) continue;
    const perSecond = (delta / elapsedMs) * 1000;
    now.rates[rate][k] = kind === 'time' ? Math.min(perSecond, 1000) : perSecond;
  }
  if (Number.isFinite(clockMs)) {
    const shares = busyBesideIdle(now.rates.backPressuredTimeMsPerSecond[k], now.rates.idleTimeMsPerSecond[k]);
    now.rates.busyTimeMsPerSecond[k] = shares.busy;
    now.rates.backPressuredTimeMsPerSecond[k] = shares.backPressured;
    now.rates.idleTimeMsPerSecond[k] = shares.idle;
  }
}

function sameValue(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}
