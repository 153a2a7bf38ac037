/**
 * Skew figures of one metric over a vertex's subtasks (one value per subtask).
 *
 * `dataSkewPercent` is exactly Flink's own figure (`DoubleAccumulator.DoubleDataSkew`, what `agg=skew` and the Web
 * UI's Data Skew tab show): the mean absolute deviation divided by the mean, × 100, capped at 100, 0 when the mean
 * is 0. It saturates at 100, so max/mean and max/median come with it: they keep growing with the imbalance.
 */

/** How far above the others a subtask must be to be called hot: mean + K × MAD of the rest ... */
export const HOT_MAD_FACTOR = 3;
/**
 * ... and at least this many times the rest's mean: "far above", more than the lumps equal keys make when a few of
 * them hash onto the same subtask (2 or 3 keys where a sibling has 1).
 */
export const HOT_MIN_RATIO = 3;
/**
 * A saturated subtask's figures are capped by its capacity (backpressure holds its input back), so its true lead is
 * bigger than it shows: twice its siblings is already far above.
 */
export const HOT_MIN_RATIO_SATURATED = 2;
/** Busy time (ms/s) at which a subtask is saturated. */
export const SATURATED_BUSY_MS = 900;
/** A value at or below this share of the vertex's maximum counts as idle (a subtask that owns no active key). */
export const IDLE_SHARE = 0.01;

export interface SkewStatistics {
  /** Subtasks with a usable value. */
  counted: number;
  /** Subtasks without a value (NaN: the metric is missing). */
  missing: number;
  /** Values a broken metric gave (negative or infinite): left out of every figure. */
  invalid: number;
  min: number | null;
  max: number | null;
  /** Index of the subtask with the maximum (the lowest index on a tie). */
  maxSubtask: number | null;
  mean: number | null;
  median: number | null;
  sum: number | null;
  /** Flink's DoubleDataSkew over the counted values, in percent (0..100). */
  dataSkewPercent: number | null;
  /** max / mean; null when the mean is 0 or nothing was counted. */
  maxOverMean: number | null;
  /** max / median; null when the median is 0 or nothing was counted. */
  maxOverMedian: number | null;
  /** Subtasks at (about) zero while others are not: they own no active key, or receive nothing. */
  idle: number;
  /** Hot subtasks (see `hotSubtasks`), hottest first. */
  hot: number[];
}

/**
 * Flink's `DoubleDataSkew.getValue()`, bit for bit: the average absolute deviation from the average, over the
 * average, × 100, capped at 100; 0 for no values or an average of 0.
 */
export function dataSkewPercent(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const avg = sum / n;
  if (avg === 0) return 0;
  let totalAbsDev = 0;
  for (let i = 0; i < n; i++) totalAbsDev += Math.abs(avg - values[i]);
  const avgDev = totalAbsDev / n;
  return Math.min((avgDev / avg) * 100, 100);
}

/** A metric value as Flink's REST API sends it (a string, sometimes "NaN"): a number, or NaN when it is not one. */
export function parseMetricValue(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string' || raw.trim() === '') return Number.NaN;
  const value = Number(raw);
  return Number.isNaN(value) ? Number.NaN : value;
}

/**
 * Pure: every skew figure of one metric, from one value per subtask (NaN = missing). `busy` (ms/s per subtask) tells
 * which subtasks are saturated, for the hot test.
 */
export function skewStatistics(values: ArrayLike<number>, busy?: ArrayLike<number>, hotFloor = 0): SkewStatistics {
  const n = values.length;
  const counted: number[] = [];
  const index: number[] = [];
  let missing = 0;
  let invalid = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (Number.isNaN(v)) missing++;
    else if (!Number.isFinite(v) || v < 0) invalid++;
    else {
      counted.push(v);
      index.push(i);
    }
  }
  if (counted.length === 0) {
    return { counted: 0, missing, invalid, min: null, max: null, maxSubtask: null, mean: null, median: null, sum: null, dataSkewPercent: null, maxOverMean: null, maxOverMedian: null, idle: 0, hot: [] };
  }
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let maxSubtask = -1;
  for (let j = 0; j < counted.length; j++) {
    const v = counted[j];
    sum += v;
    if (v < min) min = v;
    if (v > max) {
      max = v;
      maxSubtask = index[j];
    }
  }
  const mean = sum / counted.length;
  const sorted = Float64Array.from(counted).sort();
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const idleBelow = max * IDLE_SHARE;
  let idle = 0;
  if (max > 0) for (const v of counted) if (v <= idleBelow) idle++;
  return {
    counted: counted.length,
    missing,
    invalid,
    min,
    max,
    maxSubtask,
    mean,
    median,
    sum,
    dataSkewPercent: dataSkewPercent(counted),
    maxOverMean: mean > 0 ? max / mean : null,
    maxOverMedian: median > 0 ? max / median : null,
    idle,
    hot: hotSubtasks(values, { busy, floor: hotFloor }),
  };
}

/**
 * The hot subtasks of one metric, hottest first: among the subtasks doing anything (idle ones, which own no active
 * key, are not the yardstick: fewer keys than subtasks is not skew), each is hot when it is above mean + K × MAD
 * (mean absolute deviation) of the others not yet found hot, and at least `HOT_MIN_RATIO` × their mean
 * (`HOT_MIN_RATIO_SATURATED` for a subtask `busy` shows saturated). Testing the hottest first against the rest lets
 * one hot subtask not hide another, and tells two subtasks apart at parallelism 2. Below `floor` nothing is hot
 * (a subtask busy 1 ms/s is not hot, whatever its siblings do).
 */
export function hotSubtasks(values: ArrayLike<number>, options: { busy?: ArrayLike<number>; floor?: number; madFactor?: number; limit?: number } = {}): number[] {
  const floor = options.floor ?? 0;
  const madFactor = options.madFactor ?? HOT_MAD_FACTOR;
  const minRatioOf = (k: number) => ((options.busy?.[k] ?? 0) >= SATURATED_BUSY_MS ? HOT_MIN_RATIO_SATURATED : HOT_MIN_RATIO);
  let max = 0;
  const valid: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v) && v >= 0) {
      valid.push(i);
      if (v > max) max = v;
    }
  }
  if (valid.length < 2 || max <= 0) return [];
  const active = valid.filter((i) => values[i] > max * IDLE_SHARE).sort((a, b) => values[b] - values[a] || a - b);
  const idleSiblings = valid.length - active.length;
  // At most a quarter of the subtasks can be "hot": beyond that the load is simply uneven.
  const limit = options.limit ?? Math.max(1, Math.floor(valid.length / 4));
  const hot: number[] = [];
  // Running sums over the subtasks not yet called hot.
  let restSum = 0;
  for (const i of active) restSum += values[i];
  for (let h = 0; h < active.length && hot.length < limit; h++) {
    const candidate = values[active[h]];
    if (candidate < floor) break;
    const rest = active.slice(h + 1);
    restSum -= candidate;
    if (rest.length === 0) {
      // The only subtask doing anything: hot when it has idle siblings (all the load on one subtask).
      if (idleSiblings > 0) hot.push(active[h]);
      break;
    }
    const restMean = restSum / rest.length;
    let absDev = 0;
    for (const i of rest) absDev += Math.abs(values[i] - restMean);
    const mad = absDev / rest.length;
    if (candidate > restMean + madFactor * mad && candidate >= minRatioOf(active[h]) * restMean) hot.push(active[h]);
    else break;
  }
  return hot;
}
