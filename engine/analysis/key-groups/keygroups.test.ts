import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { javaHashCode, javaIntHashCode, javaLongHashCode, javaStringHashCode } from './java-hash.ts';
import {
  assignKeyToParallelOperator,
  assignToKeyGroup,
  checkParallelismAgainstMax,
  computeDefaultMaxParallelism,
  computeKeyGroupRangeForOperatorIndex,
  computeOperatorIndexForKeyGroup,
  keyGroupRangeContains,
  UPPER_BOUND_MAX_PARALLELISM,
} from './key-group-range-assignment.ts';
import { crc32Utf8, murmur3x64_128Hex, murmurHash } from './murmur.ts';

describe('Java hashCode', () => {
  it('matches well-known String.hashCode values', () => {
    expect(javaStringHashCode('')).toBe(0);
    expect(javaStringHashCode('hello')).toBe(99162322);
    expect(javaStringHashCode('user-42')).toBe(-147182656);
    expect(javaStringHashCode('flink')).toBe(97520992);
    // U+1F600 is two UTF-16 code units, D83D DE00, exactly as Java sees it.
    expect(javaStringHashCode('😀')).toBe(1772899);
    // 31^n overflow wraps to a signed int.
    expect(javaStringHashCode('polygenelubricants')).toBe(-2147483648);
  });

  it('hashes Integer, Long and Boolean keys as Java does', () => {
    expect(javaIntHashCode(42)).toBe(42);
    expect(javaIntHashCode(-7)).toBe(-7);
    expect(() => javaIntHashCode(2 ** 31)).toThrow(/not a Java int/);
    expect(javaLongHashCode(0n)).toBe(0);
    expect(javaLongHashCode(-1n)).toBe(0);
    expect(javaLongHashCode(1n << 32n)).toBe(1);
    expect(javaLongHashCode(123456789012n)).toBe(-1097262584);
    expect(javaHashCode(true)).toBe(1231);
    expect(javaHashCode(false)).toBe(1237);
  });
});

describe('MathUtils.murmurHash', () => {
  it('matches the DIGEST values', () => {
    expect(murmurHash(0)).toBe(593689054);
    expect(murmurHash(1)).toBe(68075478);
    expect(murmurHash(-1)).toBe(1982413648);
    expect(murmurHash(99162322)).toBe(1715862179);
    expect(murmurHash(-147182656)).toBe(1600933524);
    expect(murmurHash(97520992)).toBe(1330823394);
    expect(murmurHash(1772899)).toBe(1934073014);
  });

  it('is always a non-negative int', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2147483648, max: 2147483647 }), (code) => {
        const h = murmurHash(code);
        return Number.isInteger(h) && h >= 0 && h <= 2147483647;
      }),
    );
  });
});

describe('KeyGroupRangeAssignment (DIGEST worked examples, maxParallelism 128)', () => {
  const examples: Array<[string, number, number, number]> = [
    // key, key group, operator @ p=4, operator @ p=32
    ['hello', 35, 1, 8],
    ['user-42', 20, 0, 5],
    ['flink', 98, 3, 24],
    ['', 94, 2, 23],
    ['😀', 54, 1, 13],
  ];
  for (const [key, keyGroup, at4, at32] of examples) {
    it(`places ${JSON.stringify(key)} in key group ${keyGroup}, subtask ${at4} of 4 and ${at32} of 32`, () => {
      expect(assignToKeyGroup(key, 128)).toBe(keyGroup);
      expect(assignKeyToParallelOperator(key, 128, 4)).toBe(at4);
      expect(assignKeyToParallelOperator(key, 128, 32)).toBe(at32);
    });
  }

  it('computes the documented key-group ranges', () => {
    expect([0, 1, 2].map((i) => computeKeyGroupRangeForOperatorIndex(128, 3, i))).toEqual([
      { startKeyGroup: 0, endKeyGroup: 42 },
      { startKeyGroup: 43, endKeyGroup: 85 },
      { startKeyGroup: 86, endKeyGroup: 127 },
    ]);
    for (let i = 0; i < 4; i++) {
      expect(computeKeyGroupRangeForOperatorIndex(128, 4, i)).toEqual({ startKeyGroup: 32 * i, endKeyGroup: 32 * i + 31 });
    }
  });

  it('computes the default max parallelism with its bounds', () => {
    expect(computeDefaultMaxParallelism(1)).toBe(128);
    expect(computeDefaultMaxParallelism(85)).toBe(128);
    expect(computeDefaultMaxParallelism(86)).toBe(256);
    expect(computeDefaultMaxParallelism(100)).toBe(256);
    expect(computeDefaultMaxParallelism(1000)).toBe(2048);
    expect(computeDefaultMaxParallelism(21846)).toBe(32768);
    expect(computeDefaultMaxParallelism(32768)).toBe(32768);
    expect(() => computeDefaultMaxParallelism(0)).toThrow(/not within bounds/);
    expect(() => computeDefaultMaxParallelism(32769)).toThrow(/not within bounds/);
  });

  it('rejects bad parallelism with a message that names the fix', () => {
    expect(() => computeKeyGroupRangeForOperatorIndex(4, 8, 0)).toThrow(/must not be smaller than parallelism/);
    expect(() => checkParallelismAgainstMax('tenant-cost', 200, 128)).toThrow(/Lower the parallelism or raise the maximum parallelism/);
    expect(() => assignToKeyGroup(null as unknown as string, 128)).toThrow(/must not be null/);
  });

  it('the subtask of a key group always owns that key group, and the ranges tile [0, maxParallelism)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: UPPER_BOUND_MAX_PARALLELISM }), fc.integer({ min: 1, max: 512 }), (maxP, p0) => {
        const p = Math.min(p0, maxP);
        let next = 0;
        for (let i = 0; i < p; i++) {
          const range = computeKeyGroupRangeForOperatorIndex(maxP, p, i);
          if (range.startKeyGroup !== next) return false;
          next = range.endKeyGroup + 1;
          // A sample of key groups inside the range map back to subtask i.
          for (const kg of [range.startKeyGroup, range.endKeyGroup, (range.startKeyGroup + range.endKeyGroup) >> 1]) {
            if (kg <= range.endKeyGroup && computeOperatorIndexForKeyGroup(maxP, p, kg) !== i) return false;
          }
        }
        return next === maxP;
      }),
      { numRuns: 300 },
    );
  });

  it('assignKeyToParallelOperator agrees with the key-group ranges for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.constantFrom(1, 3, 4, 32, 128), (key, p) => {
        const kg = assignToKeyGroup(key, 128);
        const index = assignKeyToParallelOperator(key, 128, p);
        return keyGroupRangeContains(computeKeyGroupRangeForOperatorIndex(128, p, index), kg);
      }),
    );
  });
});

describe('other hashes', () => {
  it("murmur3_128 matches Guava's test vectors (Flink operator IDs from uids)", () => {
    expect(murmur3x64_128Hex('')).toBe('00000000000000000000000000000000');
    expect(murmur3x64_128Hex('The quick brown fox jumps over the lazy dog')).toBe('6c1b07bc7bbc4be347939ac4a93c437a');
  });

  it('crc32 matches java.util.zip.CRC32', () => {
    expect(crc32Utf8('123456789')).toBe(0xcbf43926);
    expect(crc32Utf8('The quick brown fox jumps over the lazy dog')).toBe(0x414fa339);
    expect(crc32Utf8('')).toBe(0);
    expect(crc32Utf8('é')).toBe(crc32Utf8('\u00e9'));
  });
});
