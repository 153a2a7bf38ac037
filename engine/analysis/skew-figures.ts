import type { MetricSkew } from '../contracts/diagnosis.ts';

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

/** A metric's `MetricSkew` as the analysis works it out: with the sum, and the hot subtasks as bare indexes. */
export interface SkewStatistics extends Omit<MetricSkew, 'metric' | 'hot'> {
  sum: number | null;
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
 * which subtasks are saturated, for the hot test. A few passes over typed arrays: it runs for every metric of every
 * vertex (1,600 times for 200 vertices × 8 metrics).
 */
export function skewStatistics(values: ArrayLike<number>, busy?: ArrayLike<number>, hotFloor = 0): SkewStatistics {
  const n = values.length;
  const counted = new Float64Array(n);
  let m = 0;
  let missing = 0;
  let invalid = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let maxSubtask = -1;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v !== v) missing++;
    else if (!(v >= 0 && v < Infinity)) invalid++;
    else {
      counted[m++] = v;
      sum += v;
      if (v < min) min = v;
      if (v > max) {
        max = v;
        maxSubtask = i;
      }
    }
  }
  if (m === 0) {
    return { counted: 0, missing, invalid, min: null, max: null, maxSubtask: null, mean: null, median: null, sum: null, dataSkewPercent: null, maxOverMean: null, maxOverMedian: null, idle: 0, hot: [] };
  }
  const used = counted.subarray(0, m);
  const mean = sum / m;
  let idle = 0;
  if (max > 0) {
    const idleBelow = max * IDLE_SHARE;
    for (let j = 0; j < m; j++) if (used[j] <= idleBelow) idle++;
  }
  const skew = dataSkewPercent(used);
  const mid = m >> 1;
  const upper = select(used, mid);
  let lower = upper;
  if (m % 2 === 0) {
    // After the selection everything left of `mid` is ≤ used[mid]: the other middle value is their maximum.
    lower = -Infinity;
    for (let j = 0; j < mid; j++) if (used[j] > lower) lower = used[j];
  }
  const median = (lower + upper) / 2;
  return {
    counted: m,
    missing,
    invalid,
    min,
    max,
    maxSubtask,
    mean,
    median,
    sum,
    dataSkewPercent: skew,
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
  const n = values.length;
  let max = 0;
  let valid = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v >= 0 && v < Infinity) {
      valid++;
      if (v > max) max = v;
    }
  }
  if (valid < 2 || max <= 0) return [];
  // 1 = active and still in "the rest"; 0 = idle, invalid or already called hot.
  const rest = new Uint8Array(n);
  const idleBelow = max * IDLE_SHARE;
  let restCount = 0;
  let restSum = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v > idleBelow && v < Infinity) {
      rest[i] = 1;
      restCount++;
      restSum += v;
    }
  }
  const idleSiblings = valid - restCount;
  // At most a quarter of the subtasks can be "hot": beyond that the load is simply uneven.
  const limit = options.limit ?? Math.max(1, Math.floor(valid / 4));
  const hot: number[] = [];
  while (restCount > 0 && hot.length < limit) {
    let candidate = -1;
    for (let i = 0; i < n; i++) if (rest[i] === 1 && (candidate === -1 || values[i] > values[candidate])) candidate = i;
    const value = values[candidate];
    if (value < floor) break;
    rest[candidate] = 0;
    restCount--;
    restSum -= value;
    if (restCount === 0) {
      // The only subtask doing anything: hot when it has idle siblings (all the load on one subtask).
      if (idleSiblings > 0) hot.push(candidate);
      break;
    }
    const restMean = restSum / restCount;
    let absDev = 0;
    for (let i = 0; i < n; i++) if (rest[i] === 1) absDev += Math.abs(values[i] - restMean);
    const mad = absDev / restCount;
    if (value > restMean + madFactor * mad && value >= minRatioOf(candidate) * restMean) hot.push(candidate);
    else break;
  }
  return hot;
}

/** Hoare's selection (quickselect): the k-th smallest value, in expected linear time; reorders `a`. */
function select(a: Float64Array, k: number): number {
  let left = 0;
  let right = a.length - 1;
  while (left < right) {
    const pivot = a[(left + right) >> 1];
    let i = left;
    let j = right;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return a[k];
}
