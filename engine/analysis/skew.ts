import type { MetricAggregate } from '../contracts/jobs.ts';

/**
 * max/avg of a per-subtask metric: 1 for a perfectly even vertex, P when one of P subtasks does all the work.
 * The figure an operator reads off a hot key ("tenant-cost is 24× its average"). null when nothing is busy.
 */
export function maxOverAvg(aggregate: MetricAggregate | null): number | null {
  if (!aggregate || !(aggregate.avg > 0)) return null;
  return aggregate.max / aggregate.avg;
}

/** A busy subtask worth an alarm: at least half busy. Below that, a high max/avg is few keys or light load. */
export const BUSY_SKEW_ALARM_MS = 500;
/** max/avg from which an imbalance is worth noticing at all (an even vertex hovers around 1×). */
export const BUSY_SKEW_NOTABLE = 2;

/**
 * Whether a vertex's busy skew is an alarm: the busiest subtask is really busy and far above the average. Fewer keys
 * than subtasks reads 3-4× max/avg with every subtask lightly loaded: not an alarm (the diagnosis says which it is).
 */
export function busySkewIsAlarm(aggregate: MetricAggregate | null): boolean {
  const ratio = maxOverAvg(aggregate);
  return ratio !== null && ratio >= BUSY_SKEW_NOTABLE && aggregate!.max >= BUSY_SKEW_ALARM_MS;
}
