/**
 * The records/s a job's input brings, when back-pressure hides it: events keep the time they were produced at, so a
 * source held back falls behind in event time. If the keyed vertex's watermark lag grows by g seconds per second, event
 * time advanced at (1 − g) of the clock's pace, and what got through is (1 − g) of the demand. Pure.
 */

/** Below this growth the lag is noise (out-of-orderness, window timing): the input is not held back. */
export const MIN_LAG_GROWTH = 0.02;
/** Above this the estimate divides by almost nothing: it is not trusted. */
export const MAX_LAG_GROWTH = 0.9;

export interface WatermarkPoint {
  /** When it was read (ms, the cluster's clock). */
  t: number;
  /** The vertex's lowest input watermark (ms); NaN when there was none. */
  watermark: number;
}

/** Growth of (t − watermark) per ms of t between the first and the last point with a watermark; null when it cannot tell. */
export function watermarkLagGrowth(points: readonly WatermarkPoint[]): number | null {
  const withWatermark = points.filter((p) => Number.isFinite(p.watermark) && Number.isFinite(p.t));
  if (withWatermark.length < 2) return null;
  const first = withWatermark[0];
  const last = withWatermark.at(-1)!;
  const dt = last.t - first.t;
  if (!(dt > 0)) return null;
  return (last.t - last.watermark - (first.t - first.watermark)) / dt;
}

/** The demand from what got through and the lag's growth; the throughput itself when the lag does not tell. */
export function demandFromLag(throughput: number, growth: number | null): { demand: number; basis: 'watermark-lag' | 'throughput' } {
  if (growth === null || growth < MIN_LAG_GROWTH || growth > MAX_LAG_GROWTH) return { demand: throughput, basis: 'throughput' };
  return { demand: throughput / (1 - growth), basis: 'watermark-lag' };
}
