import type { MetricAggregate } from '../contracts/engine-api.ts';

/**
 * max/avg of a per-subtask metric: 1 for a perfectly even vertex, P when one of P subtasks does all the work.
 * The figure an operator reads off a hot key ("tenant-cost is 24× its average"). null when nothing is busy.
 */
export function maxOverAvg(aggregate: MetricAggregate | null): number | null {
  if (!aggregate || !(aggregate.avg > 0)) return null;
  return aggregate.max / aggregate.avg;
}
