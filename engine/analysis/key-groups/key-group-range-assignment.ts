import { javaHashCode, type JavaKey } from './java-hash.ts';
import { murmurHash } from './murmur.ts';

/**
 * Flink's `KeyGroupRangeAssignment` (flink-runtime `org.apache.flink.runtime.state`): pure static math that places a
 * key in a key group and a key group on an operator subtask. Same inputs, same answers as a real Flink.
 *
 * Bounds: `0 < parallelism <= maxParallelism <= 32768`.
 */

/** `KeyGroupRangeAssignment.DEFAULT_LOWER_BOUND_MAX_PARALLELISM` = 2^7. */
export const DEFAULT_LOWER_BOUND_MAX_PARALLELISM = 1 << 7;
/** `Transformation.UPPER_BOUND_MAX_PARALLELISM` = 2^15 (inclusive). */
export const UPPER_BOUND_MAX_PARALLELISM = 1 << 15;

/** An inclusive range of key groups `[startKeyGroup, endKeyGroup]` (Flink's `KeyGroupRange`). */
export interface KeyGroupRange {
  startKeyGroup: number;
  endKeyGroup: number;
}

export function keyGroupRangeSize(range: KeyGroupRange): number {
  return range.endKeyGroup - range.startKeyGroup + 1;
}

export function keyGroupRangeContains(range: KeyGroupRange, keyGroup: number): boolean {
  return keyGroup >= range.startKeyGroup && keyGroup <= range.endKeyGroup;
}

function isInt(value: number): boolean {
  return Number.isInteger(value);
}

/** `checkParallelismPreconditions`: `0 < parallelism <= 32768`. */
export function checkParallelismPreconditions(parallelism: number): void {
  if (!isInt(parallelism) || parallelism <= 0 || parallelism > UPPER_BOUND_MAX_PARALLELISM) {
    throw new RangeError(`Operator parallelism not within bounds: ${parallelism} (must be 1..${UPPER_BOUND_MAX_PARALLELISM}).`);
  }
}

function checkMaxParallelism(maxParallelism: number): void {
  if (!isInt(maxParallelism) || maxParallelism <= 0 || maxParallelism > UPPER_BOUND_MAX_PARALLELISM) {
    throw new RangeError(`Maximum parallelism must be 1..${UPPER_BOUND_MAX_PARALLELISM}, got ${maxParallelism}.`);
  }
}

/** `computeKeyGroupForKeyHash(keyHash, maxParallelism) = murmurHash(keyHash) % maxParallelism`. */
export function computeKeyGroupForKeyHash(keyHash: number, maxParallelism: number): number {
  return murmurHash(keyHash) % maxParallelism;
}

/** `assignToKeyGroup(key, maxParallelism)`: the key group of a key, from its Java `hashCode`. */
export function assignToKeyGroup(key: JavaKey, maxParallelism: number): number {
  if (key === null || key === undefined) throw new TypeError('Assigned key must not be null!');
  return computeKeyGroupForKeyHash(javaHashCode(key), maxParallelism);
}

/** `computeOperatorIndexForKeyGroup(maxParallelism, parallelism, keyGroupId) = keyGroupId * parallelism / maxParallelism`. */
export function computeOperatorIndexForKeyGroup(maxParallelism: number, parallelism: number, keyGroupId: number): number {
  // keyGroupId < 2^15 and parallelism <= 2^15: the product fits in a double exactly, as in Java's int arithmetic.
  return Math.floor((keyGroupId * parallelism) / maxParallelism);
}

/** `assignKeyToParallelOperator(key, maxParallelism, parallelism)`: the subtask index that owns a key. */
export function assignKeyToParallelOperator(key: JavaKey, maxParallelism: number, parallelism: number): number {
  return computeOperatorIndexForKeyGroup(maxParallelism, parallelism, assignToKeyGroup(key, maxParallelism));
}

/** `computeKeyGroupRangeForOperatorIndex`: the inclusive key-group range a subtask owns. */
export function computeKeyGroupRangeForOperatorIndex(maxParallelism: number, parallelism: number, operatorIndex: number): KeyGroupRange {
  checkParallelismPreconditions(parallelism);
  checkParallelismPreconditions(maxParallelism);
  if (maxParallelism < parallelism) {
    throw new RangeError(`Maximum parallelism (${maxParallelism}) must not be smaller than parallelism (${parallelism}).`);
  }
  if (!isInt(operatorIndex) || operatorIndex < 0 || operatorIndex >= parallelism) {
    throw new RangeError(`Operator index ${operatorIndex} is outside 0..${parallelism - 1}.`);
  }
  const start = Math.floor((operatorIndex * maxParallelism + parallelism - 1) / parallelism);
  const end = Math.floor(((operatorIndex + 1) * maxParallelism - 1) / parallelism);
  return { startKeyGroup: start, endKeyGroup: end };
}

/** The smallest power of two >= x (`MathUtils.roundUpToPowerOfTwo`), for 1 <= x <= 2^30. */
export function roundUpToPowerOfTwo(x: number): number {
  let p = 1;
  while (p < x) p *= 2;
  return p;
}

/**
 * `computeDefaultMaxParallelism(operatorParallelism)`:
 * `min(max(roundUpToPowerOfTwo(p + p/2), 128), 32768)`.
 */
export function computeDefaultMaxParallelism(operatorParallelism: number): number {
  checkParallelismPreconditions(operatorParallelism);
  const candidate = roundUpToPowerOfTwo(operatorParallelism + Math.floor(operatorParallelism / 2));
  return Math.min(Math.max(candidate, DEFAULT_LOWER_BOUND_MAX_PARALLELISM), UPPER_BOUND_MAX_PARALLELISM);
}

/** Validates a (parallelism, maxParallelism) pair the way a job submission would, with a message that names the fix. */
export function checkParallelismAgainstMax(operator: string, parallelism: number, maxParallelism: number): void {
  checkParallelismPreconditions(parallelism);
  checkMaxParallelism(maxParallelism);
  if (parallelism > maxParallelism) {
    throw new RangeError(
      `The parallelism of "${operator}" (${parallelism}) is higher than its maximum parallelism (${maxParallelism}). ` +
        'Lower the parallelism or raise the maximum parallelism.',
    );
  }
}
