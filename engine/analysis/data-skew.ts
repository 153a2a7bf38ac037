/**
 * Flink's Data Skew (`DoubleAccumulator.DoubleDataSkew`, the `skew` aggregation of `…/subtasks/metrics`): the mean
 * absolute deviation of the subtasks' values divided by their mean, × 100, capped at 100; 0 when the mean is 0 or
 * there are no values. The Web UI's Data Skew is this of `numRecordsIn`.
 */
export function dataSkewOf(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const avg = values.reduce((a, b) => a + b, 0) / values.length;
  if (avg === 0) return 0;
  const avgDev = values.reduce((s, v) => s + Math.abs(avg - v), 0) / values.length;
  return Math.min((avgDev / avg) * 100, 100);
}
