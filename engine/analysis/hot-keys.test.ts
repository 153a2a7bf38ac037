import { describe, expect, it } from 'vitest';
import { KeyTally, summarizeHotKeys } from './hot-keys.ts';
import { assignKeyToParallelOperator, assignToKeyGroup } from './key-groups/key-group-range-assignment.ts';

function tallyOf(values: unknown[], type?: 'long' | 'int'): KeyTally {
  const tally = new KeyTally(type);
  for (const v of values) tally.add(v);
  return tally;
}

describe('hot keys', () => {
  it('ranks keys by count with their share of the keyed records and their rate', () => {
    const values = [...Array(40).fill('acme'), ...Array(35).fill('globex'), ...Array(25).fill('initech')];
    const summary = summarizeHotKeys(tallyOf(values), { spanMs: 10_000 });
    expect(summary.keys.map((k) => [k.key, k.count, k.share, k.ratePerSecond])).toEqual([
      ['acme', 40, 0.4, 4],
      ['globex', 35, 0.35, 3.5],
      ['initech', 25, 0.25, 2.5],
    ]);
    expect(summary.distinctKeys).toBe(3);
    expect(summary.subtaskShares).toBeUndefined();
  });

  it('counts values that cannot be a key apart, and keeps only the top N', () => {
    const tally = tallyOf(['a', 'b', 'b', { x: 1 }, null, 1.5, [1]]);
    expect(tally.keyed).toBe(3);
    expect(tally.unkeyable).toBe(4);
    const summary = summarizeHotKeys(tally, { spanMs: 1000, top: 1 });
    expect(summary.keys.map((k) => k.key)).toEqual(['b']);
    expect(summary.keys[0].share).toBeCloseTo(2 / 3);
  });

  it('places each hot key on Flink\'s key group and subtask for a keyed vertex, and sums the subtasks\' shares', () => {
    const values = [...Array(40).fill('acme'), ...Array(60).fill('globex')];
    const summary = summarizeHotKeys(tallyOf(values), { spanMs: 1000, keyedVertex: { maxParallelism: 128, parallelism: 32 } });
    for (const k of summary.keys) {
      expect(k.keyGroup).toBe(assignToKeyGroup(k.key, 128));
      expect(k.subtask).toBe(assignKeyToParallelOperator(k.key, 128, 32));
    }
    const shares = summary.subtaskShares!;
    expect(shares).toHaveLength(32);
    expect(shares.reduce((s, x) => s + x.share, 0)).toBeCloseTo(1);
    expect(shares[0].share).toBeGreaterThanOrEqual(0.6);
  });

  it('hashes whole numbers as Java Long by default and as Integer when asked', () => {
    const asLong = summarizeHotKeys(tallyOf([7]), { spanMs: 1, keyedVertex: { maxParallelism: 128, parallelism: 4 } });
    const asInt = summarizeHotKeys(tallyOf([7], 'int'), { spanMs: 1, keyedVertex: { maxParallelism: 128, parallelism: 4 } });
    expect(asLong.keys[0].keyGroup).toBe(assignToKeyGroup(7n, 128));
    expect(asInt.keys[0].keyGroup).toBe(assignToKeyGroup(7, 128));
  });

  it('refuses a parallelism above the max parallelism', () => {
    expect(() => summarizeHotKeys(tallyOf(['a']), { spanMs: 1, keyedVertex: { maxParallelism: 8, parallelism: 16 } })).toThrow(/maximum parallelism/);
  });
});
