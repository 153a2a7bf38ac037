import { describe, expect, it } from 'vitest';
import { computeKeyGroupRangeForOperatorIndex } from './key-group-range-assignment.ts';
import { describeSpread, keyGroupSpread } from './key-group-spread.ts';

describe('key-group spread', () => {
  it('128 key groups over 48 subtasks: 32 subtasks get 3 and 16 get 2, as Flink hands out the ranges', () => {
    const spread = keyGroupSpread(128, 48);
    expect(spread).toEqual({ maxParallelism: 128, parallelism: 48, larger: { subtasks: 32, keyGroups: 3 }, smaller: { subtasks: 16, keyGroups: 2 }, even: false });
    const sizes = Array.from({ length: 48 }, (_, i) => {
      const r = computeKeyGroupRangeForOperatorIndex(128, 48, i);
      return r.endKeyGroup - r.startKeyGroup + 1;
    });
    expect(sizes.filter((n) => n === 3)).toHaveLength(32);
    expect(sizes.filter((n) => n === 2)).toHaveLength(16);
    expect(describeSpread(spread)).toBe(
      '128 key groups over 48 subtasks: 32 subtasks get 3 key groups and 16 get 2, so under evenly spread keys the first carry 1.5× the load of the others.',
    );
  });

  it('is even when the parallelism divides the max parallelism', () => {
    expect(keyGroupSpread(128, 32)).toMatchObject({ even: true, smaller: { subtasks: 32, keyGroups: 4 }, larger: { subtasks: 0 } });
    expect(describeSpread(keyGroupSpread(128, 32))).toBe('128 key groups over 32 subtasks: 4 each, an even spread.');
    expect(describeSpread(keyGroupSpread(128, 3))).toContain('2 subtasks get 43 key groups and 1 get 42');
  });

  it('refuses a parallelism above the max parallelism', () => {
    expect(() => keyGroupSpread(128, 129)).toThrow(/higher than its maximum parallelism \(128\)/);
  });
});
