/**
 * Flink's KeyGroupRangeAssignment for a String key, written out here apart from the engine's own implementation
 * (engine/analysis/key-groups/), so a test can check the app's placement against an independent computation:
 * String.hashCode, MathUtils.murmurHash, then `keyGroup * parallelism / maxParallelism`.
 */

function stringHashCode(value: string): number {
  let h = 0;
  for (let i = 0; i < value.length; i++) h = (Math.imul(31, h) + value.charCodeAt(i)) | 0;
  return h;
}

const rotl = (x: number, r: number): number => ((x << r) | (x >>> (32 - r))) | 0;

/** MathUtils.murmurHash(int): one murmur3 round on the int, fmix32, then the absolute value (Integer.MIN_VALUE → 0). */
function murmurOfInt(code: number): number {
  let k = Math.imul(code, 0xcc9e2d51);
  k = rotl(k, 15);
  k = Math.imul(k, 0x1b873593);
  k = rotl(k, 13);
  k = (Math.imul(k, 5) + 0xe6546b64) | 0;
  k ^= 4;
  k ^= k >>> 16;
  k = Math.imul(k, 0x85ebca6b);
  k ^= k >>> 13;
  k = Math.imul(k, 0xc2b2ae35);
  k ^= k >>> 16;
  if (k >= 0) return k;
  return k === -2147483648 ? 0 : -k;
}

export function flinkKeyGroupOf(key: string, maxParallelism: number): number {
  return murmurOfInt(stringHashCode(key)) % maxParallelism;
}

export function flinkSubtaskOf(key: string, maxParallelism: number, parallelism: number): number {
  return Math.floor((flinkKeyGroupOf(key, maxParallelism) * parallelism) / maxParallelism);
}
