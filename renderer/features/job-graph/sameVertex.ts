import type { MetricAggregate, VertexView } from '../../../engine/contracts/jobs';

/**
 * Whether a refresh changed nothing a vertex shows: the graph then keeps its node, and React Flow and the memoized
 * node skip it. A JobManager serves metrics from a cache refreshed every `metrics.fetcher.update-interval`, so many
 * refreshes of a 200-vertex job change few vertices, or none. Pure.
 */
export function sameVertex(a: VertexView, b: VertexView): boolean {
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.parallelism === b.parallelism &&
    a.maxParallelism === b.maxParallelism &&
    a.status === b.status &&
    a.recordsInPerSecond === b.recordsInPerSecond &&
    a.recordsOutPerSecond === b.recordsOutPerSecond &&
    sameAggregate(a.busyTimeMsPerSecond, b.busyTimeMsPerSecond) &&
    sameAggregate(a.backPressuredTimeMsPerSecond, b.backPressuredTimeMsPerSecond) &&
    sameAggregate(a.idleTimeMsPerSecond, b.idleTimeMsPerSecond) &&
    a.busySkew === b.busySkew &&
    a.dataSkewPercent === b.dataSkewPercent &&
    a.backpressureLevel === b.backpressureLevel &&
    a.metricsUnavailable === b.metricsUnavailable &&
    a.metricsFetchedAt === b.metricsFetchedAt
  );
}

function sameAggregate(a: MetricAggregate | null, b: MetricAggregate | null): boolean {
  if (a === null || b === null) return a === b;
  return a.min === b.min && a.max === b.max && a.avg === b.avg && a.sum === b.sum;
}
