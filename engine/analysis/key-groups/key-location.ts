import type { KeyLocation, KeyLookup, KeyType } from '../../contracts/diagnosis.ts';
import { javaHashCode, type JavaKey } from './java-hash.ts';
import {
  checkParallelismAgainstMax,
  computeKeyGroupForKeyHash,
  computeKeyGroupRangeForOperatorIndex,
  computeOperatorIndexForKeyGroup,
  type KeyGroupRange,
} from './key-group-range-assignment.ts';

/**
 * Where a key lives on a keyed vertex, and where a rescale would move it: Flink's `KeyGroupRangeAssignment` for the
 * questions an operator asks ("which subtask owns tenant acme?"). Shared by the skew view and the rescale plan.
 */

/** The key-group range of every subtask, index = subtask. */
export function keyGroupRanges(maxParallelism: number, parallelism: number): KeyGroupRange[] {
  checkParallelismAgainstMax('the vertex', parallelism, maxParallelism);
  return Array.from({ length: parallelism }, (_, i) => computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism, i));
}

/** The subtask that owns a key group at a parallelism, and that subtask's range. */
export function ownerOfKeyGroup(keyGroup: number, maxParallelism: number, parallelism: number): { subtask: number; range: KeyGroupRange } {
  checkParallelismAgainstMax('the vertex', parallelism, maxParallelism);
  if (!Number.isInteger(keyGroup) || keyGroup < 0 || keyGroup >= maxParallelism) {
    throw new RangeError(`Key group ${keyGroup} is outside 0..${maxParallelism - 1}.`);
  }
  const subtask = computeOperatorIndexForKeyGroup(maxParallelism, parallelism, keyGroup);
  return { subtask, range: computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism, subtask) };
}

/**
 * A key typed into the console as the Java value Flink hashes: `string` → String, `int` → Integer (−2^31..2^31−1),
 * `long` → Long (−2^63..2^63−1). Throws a RangeError that names the fix for anything else.
 */
export function parseKey(text: string, type: KeyType): JavaKey {
  if (type === 'string') return text;
  const trimmed = text.trim();
  if (!/^[-+]?\d+$/.test(trimmed)) throw new RangeError(`"${text}" is not a whole number: an ${type} key is digits with an optional sign.`);
  const value = BigInt(trimmed);
  if (type === 'int') {
    if (value < -(2n ** 31n) || value > 2n ** 31n - 1n) throw new RangeError(`${trimmed} does not fit a Java int (−2147483648..2147483647): use the long type.`);
    return Number(value);
  }
  if (value < -(2n ** 63n) || value > 2n ** 63n - 1n) throw new RangeError(`${trimmed} does not fit a Java long.`);
  return value;
}

/** Pure: where a key lives at the vertex's parallelism, and where it would go at each of `rescaleTo`. */
export function locateKey(lookup: KeyLookup): KeyLocation {
  const { maxParallelism, parallelism } = lookup;
  checkParallelismAgainstMax('the vertex', parallelism, maxParallelism);
  const hashCode = javaHashCode(parseKey(lookup.key, lookup.keyType));
  const keyGroup = computeKeyGroupForKeyHash(hashCode, maxParallelism);
  const here = ownerOfKeyGroup(keyGroup, maxParallelism, parallelism);
  return {
    key: lookup.key,
    keyType: lookup.keyType,
    hashCode,
    keyGroup,
    maxParallelism,
    parallelism,
    subtask: here.subtask,
    range: here.range,
    rescale: (lookup.rescaleTo ?? [])
      .filter((p) => p !== parallelism)
      .map((p) => {
        const there = ownerOfKeyGroup(keyGroup, maxParallelism, p);
        // Subtask indexes are positions, not identities: a key "moves" when its key group's range changes hands.
        const moves = there.subtask !== here.subtask || there.range.startKeyGroup !== here.range.startKeyGroup || there.range.endKeyGroup !== here.range.endKeyGroup;
        return { parallelism: p, subtask: there.subtask, range: there.range, moves };
      }),
  };
}
