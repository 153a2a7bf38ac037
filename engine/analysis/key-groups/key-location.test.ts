import { describe, expect, it } from 'vitest';
import { keyedVertexIds } from '../keyed-vertices.ts';
import { javaLongHashCode } from './java-hash.ts';
import { assignKeyToParallelOperator } from './key-group-range-assignment.ts';
import { keyGroupRanges, locateKey, ownerOfKeyGroup, parseKey } from './key-location.ts';

describe('locateKey', () => {
  it("places string keys by Java's String.hashCode and Flink's murmur hash (the worked examples of the digest)", () => {
    expect(locateKey({ key: 'hello', keyType: 'string', maxParallelism: 128, parallelism: 4 })).toMatchObject({
      hashCode: 99162322,
      keyGroup: 35,
      subtask: 1,
      range: { startKeyGroup: 32, endKeyGroup: 63 },
    });
    expect(locateKey({ key: 'flink', keyType: 'string', maxParallelism: 128, parallelism: 32 })).toMatchObject({ keyGroup: 98, subtask: 24 });
    expect(locateKey({ key: '😀', keyType: 'string', maxParallelism: 128, parallelism: 32 })).toMatchObject({ keyGroup: 54, subtask: 13 });
    // The seed scenario: acme's key group 50 is on tenant-cost subtask 12 at parallelism 32.
    expect(locateKey({ key: 'acme', keyType: 'string', maxParallelism: 128, parallelism: 32 })).toMatchObject({ keyGroup: 50, subtask: 12 });
  });

  it('places int and long keys by Integer and Long hashCode', () => {
    const int = locateKey({ key: '-42', keyType: 'int', maxParallelism: 256, parallelism: 10 });
    expect(int.hashCode).toBe(-42);
    expect(int.subtask).toBe(assignKeyToParallelOperator(-42, 256, 10));
    const long = locateKey({ key: '9223372036854775807', keyType: 'long', maxParallelism: 128, parallelism: 3 });
    expect(long.hashCode).toBe(javaLongHashCode(9223372036854775807n));
    expect(long.hashCode).toBe(-2147483648);
    expect(long.subtask).toBe(assignKeyToParallelOperator(9223372036854775807n, 128, 3));
  });

  it('says where a rescale would move the key, and whether its key group changes hands', () => {
    const location = locateKey({ key: 'acme', keyType: 'string', maxParallelism: 128, parallelism: 32, rescaleTo: [32, 64, 16, 48] });
    expect(location.rescale.map((r) => [r.parallelism, r.subtask, r.moves])).toEqual([
      [64, 25, true],
      [16, 6, true],
      [48, 18, true],
    ]);
    for (const r of location.rescale) expect(r.range.startKeyGroup <= 50 && 50 <= r.range.endKeyGroup).toBe(true);
  });

  it('refuses keys and parallelisms Flink would refuse, naming the fix', () => {
    expect(() => parseKey('2147483648', 'int')).toThrow(/does not fit a Java int.*long/);
    expect(() => parseKey('12a', 'long')).toThrow(/not a whole number/);
    expect(() => locateKey({ key: 'x', keyType: 'string', maxParallelism: 128, parallelism: 129 })).toThrow(/higher than its maximum parallelism/);
    expect(() => ownerOfKeyGroup(128, 128, 4)).toThrow(/outside 0\.\.127/);
  });
});

describe('keyGroupRanges', () => {
  it('gives every subtask its inclusive range, covering all key groups once', () => {
    expect(keyGroupRanges(128, 3)).toEqual([
      { startKeyGroup: 0, endKeyGroup: 42 },
      { startKeyGroup: 43, endKeyGroup: 85 },
      { startKeyGroup: 86, endKeyGroup: 127 },
    ]);
    const ranges = keyGroupRanges(1000, 7);
    expect(ranges[0].startKeyGroup).toBe(0);
    expect(ranges[6].endKeyGroup).toBe(999);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i].startKeyGroup).toBe(ranges[i - 1].endKeyGroup + 1);
  });
});

describe('keyedVertexIds', () => {
  it('marks the vertices reading a HASH (keyBy) input', () => {
    const ids = keyedVertexIds([
      { source: 'a', target: 'b', shipStrategy: 'HASH' },
      { source: 'b', target: 'c', shipStrategy: 'REBALANCE' },
      { source: 'b', target: 'd', shipStrategy: 'FORWARD' },
      { source: 'c', target: 'd', shipStrategy: 'HASH' },
    ]);
    expect([...ids].sort()).toEqual(['b', 'd']);
  });
});
