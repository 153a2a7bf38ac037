/**
 * Flink's `StatsSummary` (flink-runtime `org.apache.flink.runtime.checkpoint`): min / max / average over every value
 * added, and percentiles over a sliding window of the latest values (`DescriptiveStatisticsHistogram`, whose
 * quantiles are commons-math3 `Percentile` with its default `LEGACY` estimation), as `StatsSummaryDto` puts them on the
 * wire.
 *
 * - Negative values are ignored (`add` keeps only `value >= 0`), which is how "-1 = unknown" stays out.
 * - `avg` is Java's `sum / count` in long arithmetic (truncated), 0 when empty.
 * - Without a histogram (window size 0, as in a task's per-subtask summary) or with no values, every percentile is
 *   NaN, which Jackson writes as the string "NaN" (seen on a real Flink 2.2.1).
 */

/** A double as Flink's Jackson mapper writes it: a number, or "NaN" when it is not finite. */
export type WireDouble = number | 'NaN';

/** `StatsSummaryDto` as it is on the wire. */
export interface StatsSummaryWire {
  min: number;
  max: number;
  avg: number;
  p50: WireDouble;
  p90: WireDouble;
  p95: WireDouble;
  p99: WireDouble;
  p999: WireDouble;
}

/** `CompletedCheckpointStatsSummary.HISTOGRAM_WINDOW_SIZE`: the latest 10,000 completed checkpoints. */
export const COMPLETED_CHECKPOINT_HISTOGRAM_WINDOW = 10_000;

/** The quantiles `StatsSummaryDto.valueOf` reports. */
export const REPORTED_QUANTILES = [0.5, 0.9, 0.95, 0.99, 0.999] as const;

/**
 * commons-math3 `Percentile.evaluate(p)` with `EstimationType.LEGACY` on sorted values, for `quantile` in (0, 1]
 * as `DescriptiveStatisticsHistogramStatistics.getQuantile` passes it (`quantile * 100`, then `/ 100` inside):
 * position `p·(n+1)`; below 1 → the smallest value, at or past n → the largest, else linear interpolation between
 * the neighbours. One value → that value; none → NaN.
 */
export function legacyPercentile(sorted: ArrayLike<number>, quantile: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (n === 1) return sorted[0];
  const p = (quantile * 100) / 100;
  const pos = p === 0 ? 0 : p === 1 ? n : p * (n + 1);
  const fpos = Math.floor(pos);
  const dif = pos - fpos;
  if (pos < 1) return sorted[0];
  if (pos >= n) return sorted[n - 1];
  const lower = sorted[fpos - 1];
  const upper = sorted[fpos];
  return lower + dif * (upper - lower);
}

/** Jackson's rendering of a double: finite numbers as numbers, anything else as the string "NaN". */
export function wireDouble(value: number): WireDouble {
  return Number.isFinite(value) ? value : 'NaN';
}

export class StatsSummary {
  private minimum = 0;
  private maximum = 0;
  private total = 0;
  private n = 0;
  private readonly window: Float64Array | null;
  private windowCount = 0;
  private windowNext = 0;
  private sortedCache: Float64Array | null = null;

  /** @param histogramWindowSize values kept for percentiles; 0 = no histogram (percentiles are NaN). */
  constructor(readonly histogramWindowSize = 0) {
    if (!(Number.isInteger(histogramWindowSize) && histogramWindowSize >= 0)) {
      throw new RangeError(`The histogram window size must be a whole number >= 0, got ${histogramWindowSize}.`);
    }
    this.window = histogramWindowSize > 0 ? new Float64Array(histogramWindowSize) : null;
  }

  /** Adds a value if it is >= 0 (Flink ignores negative "unknown" values). */
  add(value: number): void {
    if (!(value >= 0)) return;
    if (this.n > 0) {
      if (value < this.minimum) this.minimum = value;
      if (value > this.maximum) this.maximum = value;
    } else {
      this.minimum = value;
      this.maximum = value;
    }
    this.n++;
    this.total += value;
    if (this.window) {
      this.window[this.windowNext] = value;
      this.windowNext = (this.windowNext + 1) % this.window.length;
      if (this.windowCount < this.window.length) this.windowCount++;
      this.sortedCache = null;
    }
  }

  get min(): number {
    return this.minimum;
  }

  get max(): number {
    return this.maximum;
  }

  get sum(): number {
    return this.total;
  }

  get count(): number {
    return this.n;
  }

  /** `getAverage()`: `sum / count` truncated as Java's long division, 0 when empty. */
  get average(): number {
    return this.n === 0 ? 0 : Math.trunc(this.total / this.n);
  }

  /** The quantile over the histogram window, or NaN without a histogram or values. */
  quantile(q: number): number {
    if (!this.window || this.windowCount === 0) return Number.NaN;
    if (!this.sortedCache) {
      this.sortedCache = this.window.slice(0, this.windowCount).sort();
    }
    return legacyPercentile(this.sortedCache, q);
  }

  /** `StatsSummaryDto.valueOf(this)` on the wire. */
  toWire(): StatsSummaryWire {
    return {
      min: this.minimum,
      max: this.maximum,
      avg: this.average,
      p50: wireDouble(this.quantile(0.5)),
      p90: wireDouble(this.quantile(0.9)),
      p95: wireDouble(this.quantile(0.95)),
      p99: wireDouble(this.quantile(0.99)),
      p999: wireDouble(this.quantile(0.999)),
    };
  }
}

/** `new StatsSummaryDto(0, 0, 0, 0, 0, 0, 0, 0)`: what Flink reports for the retired `alignment_buffered`. */
export function zeroStatsSummary(): StatsSummaryWire {
  return { min: 0, max: 0, avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0 };
}
