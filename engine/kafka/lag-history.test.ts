import { describe, expect, it } from 'vitest';
import { MemoryLagHistory } from './lag-history.ts';

const point = (at: number, totalLag: number) => ({ at, totalLag, partitionsWithoutCommit: 0, pendingRecords: null });

describe('MemoryLagHistory', () => {
  it('reads back a time window of one group, oldest first, whatever the order of appends', () => {
    const history = new MemoryLagHistory();
    history.append('c1', 'g', point(3000, 30));
    history.append('c1', 'g', point(1000, 10));
    history.append('c1', 'g', point(2000, 20));
    history.append('c1', 'other', point(2000, 99));
    history.append('c2', 'g', point(2000, 77));
    expect(history.read('c1', 'g', 1500, 3000).map((p) => p.totalLag)).toEqual([20, 30]);
    expect(history.read('c1', 'g', 0, Number.MAX_SAFE_INTEGER).map((p) => p.at)).toEqual([1000, 2000, 3000]);
  });

  it('keeps at most maxPoints per group (the oldest go) and forgets a removed cluster', () => {
    const history = new MemoryLagHistory(2);
    for (let i = 1; i <= 4; i++) history.append('c1', 'g', point(i, i));
    expect(history.read('c1', 'g', 0, 10).map((p) => p.at)).toEqual([3, 4]);
    history.forgetCluster('c1');
    expect(history.read('c1', 'g', 0, 10)).toEqual([]);
  });
});
