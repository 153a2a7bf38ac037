import { describe, expect, it } from 'vitest';
import { javaStringHashCode } from '../analysis/key-groups/java-hash.ts';
import { murmurHash } from '../analysis/key-groups/murmur.ts';
import { keyPerKeyGroup } from './key-group-keys.ts';
import { twinTraffic } from './twin-traffic.ts';

/** Flink's KeyGroupRangeAssignment spelled out, apart from the helpers under test. */
const keyGroupOf = (key: string, maxParallelism: number) => murmurHash(javaStringHashCode(key)) % maxParallelism;
const subtaskOf = (key: string, maxParallelism: number, parallelism: number) => Math.floor((keyGroupOf(key, maxParallelism) * parallelism) / maxParallelism);

function perSubtask(rates: Record<string, number>, maxParallelism: number, parallelism: number): number[] {
  const out = new Array<number>(parallelism).fill(0);
  for (const [key, r] of Object.entries(rates)) out[subtaskOf(key, maxParallelism, parallelism)] += r;
  return out;
}

describe('keyPerKeyGroup', () => {
  it('gives one key per key group, each landing in its own key group, the same every time', () => {
    for (const maxP of [1, 7, 128, 4096]) {
      const keys = keyPerKeyGroup(maxP);
      expect(keys).toHaveLength(maxP);
      expect(new Set(keys).size).toBe(maxP);
      keys.forEach((key, kg) => expect(keyGroupOf(key, maxP), key).toBe(kg));
    }
    expect(keyPerKeyGroup(128)).toEqual(keyPerKeyGroup(128));
  });
});

describe('twinTraffic', () => {
  // hot-tenant as production shows it: subtask 12 saturated at 250 records/s, the 31 others at ~12.
  const records = Array.from({ length: 32 }, () => 12);
  records[12] = 250;

  it('reproduces every subtask\'s load at the demand, the hot key on its own key group with its excess', () => {
    const t = twinTraffic({ maxParallelism: 128, recordsInPerSecond: records, demandScale: 1.6, key: 'acme' });
    expect(t.hotKey).toBe('acme');
    expect(t.hotKeyRecordsPerSecond).toBeCloseTo((250 - 12) * 1.6, 6);
    const loads = perSubtask(t.recordsPerSecond, 128, 32);
    loads.forEach((l, s) => expect(l, `subtask ${s}`).toBeCloseTo(records[s] * 1.6, 6));
    expect(t.totalRecordsPerSecond).toBeCloseTo(records.reduce((a, b) => a + b, 0) * 1.6, 6);
    // Every key group carries load: a rescale moves it as Flink moves key groups.
    expect(Object.keys(t.recordsPerSecond)).toHaveLength(129);
    // At another parallelism the load follows the key groups: acme alone keeps its 380 records/s.
    const at64 = perSubtask(t.recordsPerSecond, 128, 64);
    expect(at64[subtaskOf('acme', 128, 64)]).toBeGreaterThan(380);
  });

  it('without a key, a stand-in of the hottest subtask\'s first key group takes its excess', () => {
    const t = twinTraffic({ maxParallelism: 128, recordsInPerSecond: records, demandScale: 1, key: undefined });
    expect(t.hotKey).toBe(keyPerKeyGroup(128)[48]);
    expect(t.hotKeyRecordsPerSecond).toBeGreaterThan(238);
    expect(perSubtask(t.recordsPerSecond, 128, 32)[12]).toBeCloseTo(250, 6);
  });

  it("sampled keys take their share of the demand, and each subtask's rest goes to its key groups", () => {
    const t = twinTraffic({ maxParallelism: 128, recordsInPerSecond: records, demandScale: 1.6, keyShares: [{ key: 'acme', share: 0.4 }] });
    const total = records.reduce((a, b) => a + b, 0) * 1.6;
    expect(t.hotKeyRecordsPerSecond).toBeCloseTo(0.4 * total, 6);
    expect(perSubtask(t.recordsPerSecond, 128, 32)[3]).toBeCloseTo(12 * 1.6, 6);
  });

  it('refuses a vertex without records and a demand below what got through', () => {
    expect(() => twinTraffic({ maxParallelism: 128, recordsInPerSecond: [0, Number.NaN], demandScale: 1 })).toThrow(/processed no records/);
    expect(() => twinTraffic({ maxParallelism: 128, recordsInPerSecond: records, demandScale: 0.5 })).toThrow(/at least 1/);
  });
});
