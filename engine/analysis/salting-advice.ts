import type { LoadFigures } from '../contracts/rescale.ts';
import type { SaltedKey, SaltingAdvice, SubtaskCapacity } from '../contracts/advice.ts';
import { javaStringHashCode } from './key-groups/java-hash.ts';
import { computeKeyGroupForKeyHash, computeOperatorIndexForKeyGroup } from './key-groups/key-group-range-assignment.ts';
import { estimateCapacity, loadFigures, SATURATED_BUSY_MS_PER_SECOND } from './rescale-plan.ts';

/**
 * The salting advice for one hot key of a keyed vertex (the two-stage aggregation of the course's chapter 11): how many
 * buckets, the salted keys and the subtask each lands on (Flink's KeyGroupRangeAssignment), and the busy time per
 * subtask predicted after the change. Pure.
 */

/** Each bucket gets at most this share of what one subtask sustains: room for bursts and for the other keys it shares. */
export const SALTING_HEADROOM = 0.7;
/** The salted key's default form: the job's key, `#`, the bucket number. */
export const DEFAULT_SALT_FORMAT = '{key}#{i}';
/** More buckets than this and the merge stage (stage B) costs more than the split saves. */
export const MAX_SALT_BUCKETS = 1024;

export const SALTING_COSTS = [
  'State: stage A keeps one pane per salted key and open window, so N times the panes of the hot key (the other keys are unchanged if only the hot key is salted).',
  'A new stateful operator (stage A) with a new uid: it starts with empty state when the job is restored from a savepoint; stage B keeps the old uid and state only if it stays the same operator.',
  'Stage A runs without allowed lateness: its partial results are final at the watermark, and late records must be handled in stage B (or dropped, counted).',
  'One more network shuffle (salted key, then the key again) and N partial results per window for stage B to merge.',
];

export interface SaltingInput {
  key: string;
  /** The hot key's rate (records/s); null when not known. */
  keyRecordsPerSecond: number | null;
  /** The rate is what the key got through (its subtask is saturated): its demand can be higher. */
  keyRateIsLowerBound: boolean;
  maxParallelism: number;
  /** Per subtask (index = subtask), the observed load; NaN where not known. */
  recordsInPerSecond: ArrayLike<number>;
  busyTimeMsPerSecond: ArrayLike<number>;
  /** The salted key's form: `{key}` and `{i}` replaced. */
  format?: string;
  /** The operator's own buckets, instead of the rule's. */
  buckets?: number;
}

/** `{key}` and `{i}` in `format` replaced: the salted key of bucket i. Throws when the format lacks `{i}` (every bucket would be one key). */
export function saltedKeyName(format: string, key: string, i: number): string {
  if (!format.includes('{i}')) throw new RangeError(`The salted key format "${format}" has no {i}: every bucket would be the same key. Use e.g. {key}#{i}.`);
  return format.replaceAll('{key}', key).replaceAll('{i}', String(i));
}

/** Where a String key lands: its key group and subtask (Flink's `KeyGroupRangeAssignment`). */
export function placeStringKey(key: string, maxParallelism: number, parallelism: number): { keyGroup: number; subtask: number } {
  const keyGroup = computeKeyGroupForKeyHash(javaStringHashCode(key), maxParallelism);
  return { keyGroup, subtask: computeOperatorIndexForKeyGroup(maxParallelism, parallelism, keyGroup) };
}

/** Expected distinct subtasks k keys reach when placed at random over n: n·(1−(1−1/n)^k). */
export function expectedDistinctSubtasks(keys: number, subtasks: number): number {
  return subtasks * (1 - (1 - 1 / subtasks) ** keys);
}

/** The chapter's rule: the fewest buckets N with rate / N ≤ headroom × capacity. */
export function saltBuckets(rate: number, capacityRecordsPerSecond: number, headroom = SALTING_HEADROOM): number {
  return Math.max(2, Math.ceil(rate / (headroom * capacityRecordsPerSecond)));
}

function rate(n: number): string {
  return `${n >= 100 ? Math.round(n) : Number(n.toFixed(1))} records/s`;
}

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The observed capacity of one subtask: the busiest subtask's rate scaled to 1,000 ms/s busy. */
export function subtaskCapacity(recordsInPerSecond: ArrayLike<number>, busyTimeMsPerSecond: ArrayLike<number>): SubtaskCapacity | null {
  const c = estimateCapacity(recordsInPerSecond, busyTimeMsPerSecond);
  if (!c) return null;
  return { ...c, saturated: c.busyTimeMsPerSecond >= SATURATED_BUSY_MS_PER_SECOND };
}

/**
 * The hot key's rate when nobody measured it: what its subtask processed beyond a typical subtask (the other keys
 * there are counted as the median of the others). A lower bound when the subtask is saturated.
 */
export function estimateKeyRate(subtask: number, recordsInPerSecond: ArrayLike<number>): number | null {
  const own = recordsInPerSecond[subtask];
  if (!Number.isFinite(own)) return null;
  const others = Array.from(recordsInPerSecond).filter((r, i) => i !== subtask && Number.isFinite(r));
  return Math.max(0, own - (median(others) ?? 0));
}

export function adviseSalting(input: SaltingInput): SaltingAdvice {
  const parallelism = input.recordsInPerSecond.length;
  const maxP = input.maxParallelism;
  const format = input.format ?? DEFAULT_SALT_FORMAT;
  saltedKeyName(format, input.key, 0);
  const home = placeStringKey(input.key, maxP, parallelism);
  const capacity = subtaskCapacity(input.recordsInPerSecond, input.busyTimeMsPerSecond);
  const keyRate = input.keyRecordsPerSecond;
  const base = { key: input.key, keyGroup: home.keyGroup, subtask: home.subtask, parallelism, maxParallelism: maxP, keyRecordsPerSecond: keyRate, keyRateIsLowerBound: input.keyRateIsLowerBound, capacity, headroom: SALTING_HEADROOM, format };
  const busy = Array.from({ length: parallelism }, (_, s) => (Number.isFinite(input.busyTimeMsPerSecond[s]) ? input.busyTimeMsPerSecond[s] : 0));
  const before = loadFigures(busy);
  const recordsBefore = loadFigures(Array.from({ length: parallelism }, (_, s) => (Number.isFinite(input.recordsInPerSecond[s]) ? input.recordsInPerSecond[s] : 0)));
  const none = (verdict: SaltingAdvice['verdict'], sentence: string): SaltingAdvice => ({ ...base, verdict, sentence, buckets: null, perBucketRecordsPerSecond: null, saltedKeys: [], distinctSubtasks: null, expectedDistinctSubtasks: null, predicted: [], before, after: null, recordsBefore, recordsAfter: null, demandScale: 1, costs: [], notes: [] });

  if (keyRate === null) return none('rate-unknown', `The rate of ${input.key} is not known: give it (records/s) to size the buckets.`);
  if (!capacity) {
    return none('capacity-unknown', `The capacity of one subtask is not known: no subtask of the vertex was busy enough (≥ 100 ms/s) to tell what one sustains, so the buckets cannot be sized.`);
  }
  const limit = SALTING_HEADROOM * capacity.recordsPerSecond;
  if (input.buckets === undefined && keyRate <= limit && !(input.keyRateIsLowerBound && capacity.saturated && capacity.subtask === home.subtask)) {
    return none(
      'not-needed',
      `${input.key} (${rate(keyRate)}) is under ${Math.round(SALTING_HEADROOM * 100)}% of what one subtask sustains (~${rate(capacity.recordsPerSecond)}): no salting needed.`,
    );
  }
  const buckets = input.buckets ?? Math.min(MAX_SALT_BUCKETS, saltBuckets(keyRate, capacity.recordsPerSecond));
  if (!Number.isInteger(buckets) || buckets < 2 || buckets > MAX_SALT_BUCKETS) throw new RangeError(`Salt buckets must be a whole number from 2 to ${MAX_SALT_BUCKETS}, not ${buckets}.`);
  const perBucket = keyRate / buckets;
  const saltedKeys: SaltedKey[] = Array.from({ length: buckets }, (_, i) => {
    const key = saltedKeyName(format, input.key, i);
    return { bucket: i, key, ...placeStringKey(key, maxP, parallelism) };
  });
  const distinct = new Set(saltedKeys.map((k) => k.subtask)).size;

  // After: each subtask keeps what it carries (the hot key's subtask, less the hot key: its other keys cost what keys
  // cost elsewhere), plus the buckets that land on it, at the cost per record one subtask shows at capacity.
  const msPerRecord = 1000 / capacity.recordsPerSecond;
  const othersMsPerRecord = median(
    Array.from({ length: parallelism }, (_, s) => s)
      .filter((s) => s !== home.subtask && input.recordsInPerSecond[s] > 0 && Number.isFinite(input.busyTimeMsPerSecond[s]))
      .map((s) => input.busyTimeMsPerSecond[s] / input.recordsInPerSecond[s]),
  ) ?? msPerRecord;
  const records = Array.from({ length: parallelism }, (_, s) => (Number.isFinite(input.recordsInPerSecond[s]) ? input.recordsInPerSecond[s] : 0));
  // A saturated key holds everything upstream of it down (back-pressure reaches the source): given a demand above what
  // got through, the other keys were held down by the same factor and get that much more once it is relieved.
  const through = estimateKeyRate(home.subtask, input.recordsInPerSecond) ?? keyRate;
  const saturatedHome = busy[home.subtask] >= SATURATED_BUSY_MS_PER_SECOND;
  const demandScale = saturatedHome && !input.keyRateIsLowerBound && through > 0 && keyRate > through ? keyRate / through : 1;
  const residual = Math.max(0, records[home.subtask] - Math.min(keyRate, through));
  const existingRecords = records.map((r, s) => (s === home.subtask ? residual : r) * demandScale);
  const existingBusy = busy.map((b, s) => (s === home.subtask ? residual * othersMsPerRecord : b) * demandScale);
  const predicted = existingBusy.map((b, s) => {
    const here = saltedKeys.filter((k) => k.subtask === s);
    return {
      subtask: s,
      recordsPerSecond: existingRecords[s] + here.length * perBucket,
      busyTimeMsPerSecond: b + here.length * perBucket * msPerRecord,
      saltedKeys: here.map((k) => k.key),
    };
  });
  const after: LoadFigures = loadFigures(predicted.map((p) => p.busyTimeMsPerSecond));

  const notes: string[] = [];
  if (input.keyRateIsLowerBound) {
    notes.push(`${input.key}'s rate is what its saturated subtask got through (${rate(keyRate)}): its demand is higher. Give the measured rate (a Kafka sample of the topic, or the source's rate) for the right number of buckets.`);
  }
  if (demandScale > 1) {
    notes.push(
      `${input.key} got ${rate(through)} through its saturated subtask of the ${rate(keyRate)} it brings: the other keys were held down by the same back-pressure, so the prediction gives them ${demandScale.toFixed(2)}× what they carried.`,
    );
  }
  const collided = predicted.filter((p) => p.saltedKeys.length > 1);
  if (collided.length) {
    notes.push(
      `Salted keys share subtasks (${collided.map((p) => `${p.saltedKeys.join(', ')} on subtask ${p.subtask}`).join('; ')}): expected with hashing, not an even spread.`,
    );
  }
  const over = predicted.filter((p) => p.busyTimeMsPerSecond > 1000);
  if (over.length) notes.push(`Subtask${over.length === 1 ? '' : 's'} ${over.map((p) => p.subtask).join(', ')} would still be over capacity: use more buckets.`);

  const sentence =
    `Salt ${input.key} into ${buckets} buckets (${rate(perBucket)} each, under ${Math.round(SALTING_HEADROOM * 100)}% of the ~${rate(capacity.recordsPerSecond)} one subtask sustains): ` +
    `${buckets} keys over ${parallelism} subtasks reach ${distinct} (about ${expectedDistinctSubtasks(buckets, parallelism).toFixed(1)} expected at random); ` +
    `busy max/mean ${before.maxOverMean?.toFixed(1) ?? '?'} → ${after.maxOverMean?.toFixed(1) ?? '?'}.`;
  return {
    ...base,
    verdict: 'salt',
    sentence,
    buckets,
    perBucketRecordsPerSecond: perBucket,
    saltedKeys,
    distinctSubtasks: distinct,
    expectedDistinctSubtasks: expectedDistinctSubtasks(buckets, parallelism),
    predicted,
    before,
    after,
    recordsBefore,
    recordsAfter: loadFigures(predicted.map((p) => p.recordsPerSecond)),
    demandScale,
    costs: SALTING_COSTS,
    notes,
  };
}

/**
 * Why a rescale cannot split one key: a key is one key group, and a key group is on one subtask at any parallelism.
 * `saturates`: the key's subtask is saturated now (what the key got through is a lower bound of its demand).
 */
export function rescaleDoesNotSplit(key: string, keyRate: number | null, capacity: SubtaskCapacity | null, saturates: boolean): string {
  const why = `A rescale does not split ${key}: one key is one key group, and one key group is on one subtask at any parallelism. `;
  if (keyRate !== null && capacity !== null && keyRate > capacity.recordsPerSecond) {
    return `${why}${key} alone (${rate(keyRate)}) stays above the ~${rate(capacity.recordsPerSecond)} one subtask sustains wherever it lands.`;
  }
  if (saturates) return `${why}${key} alone keeps its subtask saturated wherever it lands: more subtasks only take the other keys away from it.`;
  return `${why}It only moves the key group to another subtask, with whatever else lands there.`;
}
