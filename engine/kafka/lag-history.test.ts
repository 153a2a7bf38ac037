import { afterAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../history/history-store.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { StoredLagHistory } from './lag-history.ts';

const dirs = tempDirs('flink-ops-lag-');
afterAll(() => dirs.removeAll());
const point = (at: number, totalLag: number) => ({ at, totalLag, partitionsWithoutCommit: 0, pendingRecords: null });

describe('StoredLagHistory', () => {
  it('reads back a time window of one group, oldest first, whatever the order of appends, after a reopen', async () => {
    const dir = dirs.make();
    const store = HistoryStore.open(dir);
    const history = new StoredLagHistory(store);
    history.append('c1', 'g', point(3000, 30));
    history.append('c1', 'g', point(1000, 10));
    history.append('c1', 'g', point(2000, 20));
    history.append('c1', 'other', point(2000, 99));
    history.append('c2', 'g', point(2000, 77));
    await store.close();

    const reopened = new StoredLagHistory(HistoryStore.open(dir));
    expect(reopened.read('c1', 'g', 1500, 3000).map((p) => p.totalLag)).toEqual([20, 30]);
    expect(reopened.read('c1', 'g', 0, Number.MAX_SAFE_INTEGER).map((p) => p.at)).toEqual([1000, 2000, 3000]);
  });

  it('drops points older than the store\'s sample retention as it writes', () => {
    const history = new StoredLagHistory(HistoryStore.open(dirs.make(), { retention: { sampleMaxAgeMs: 10_000 } }));
    for (let at = 0; at <= 30_000; at += 5_000) history.append('c1', 'g', point(at, at));
    expect(history.read('c1', 'g', 0, Infinity).map((p) => p.at)).toEqual([20_000, 25_000, 30_000]);
  });
});
