import { placeStringKey } from '../analysis/salting-advice.ts';

/**
 * One String key per key group: the twin's stand-ins for production's keys, so a key group's observed load can be
 * generated as that key's traffic and land exactly where Flink's KeyGroupRangeAssignment puts the key group. Pure.
 */

/** The prefix of the stand-in keys; the twin's results name them, never production's data. */
export const STAND_IN_PREFIX = 'kg';

/**
 * `keys[kg]` lands in key group kg. Candidates `kg-0`, `kg-1`, ... fill their key groups first come (coupon collector:
 * about maxParallelism · ln(maxParallelism) hashes), so the same max parallelism always gives the same keys.
 */
export function keyPerKeyGroup(maxParallelism: number): string[] {
  const keys: Array<string | undefined> = new Array(maxParallelism).fill(undefined);
  let missing = maxParallelism;
  for (let n = 0; missing > 0; n++) {
    const key = `${STAND_IN_PREFIX}-${n}`;
    const { keyGroup } = placeStringKey(key, maxParallelism, 1);
    if (keys[keyGroup] === undefined) {
      keys[keyGroup] = key;
      missing--;
    }
  }
  return keys as string[];
}
