import { describe, expect, it } from 'vitest';
import { adviseSalting, DEFAULT_SALT_FORMAT, estimateKeyRate, expectedDistinctSubtasks, rescaleDoesNotSplit, SALTING_HEADROOM, saltBuckets, saltedKeyName } from './salting-advice.ts';

/**
 * Flink's placement recomputed another way (BigInt arithmetic mod 2^32, not the module's Math.imul): String.hashCode,
 * MathUtils.murmurHash, then keyGroup * parallelism / maxParallelism.
 */
const M32 = 2n ** 32n;
const u32 = (x: bigint) => ((x % M32) + M32) % M32;
const s32 = (x: bigint) => (u32(x) >= 2n ** 31n ? u32(x) - M32 : u32(x));
const rotl = (x: bigint, r: bigint) => u32((u32(x) << r) | (u32(x) >> (32n - r)));
function independentHashCode(text: string): bigint {
  let h = 0n;
  for (let i = 0; i < text.length; i++) h = u32(h * 31n + BigInt(text.charCodeAt(i)));
  return s32(h);
}
function independentMurmur(code: bigint): number {
  let h = u32(code * 0xcc9e2d51n);
  h = rotl(h, 15n);
  h = u32(h * 0x1b873593n);
  h = rotl(h, 13n);
  h = u32(h * 5n + 0xe6546b64n);
  h ^= 4n;
  h ^= h >> 16n;
  h = u32(h * 0x85ebca6bn);
  h ^= h >> 13n;
  h = u32(h * 0xc2b2ae35n);
  h ^= h >> 16n;
  const signed = s32(h);
  return Number(signed >= 0n ? signed : signed === -(2n ** 31n) ? 0n : -signed);
}
const independentSubtask = (key: string, maxP: number, p: number) => {
  const keyGroup = independentMurmur(independentHashCode(key)) % maxP;
  return { keyGroup, subtask: Math.floor((keyGroup * p) / maxP) };
};

/** hot-tenant's tenant-cost: 32 subtasks, acme's saturated at 250 records/s, the others ~12 records/s at 1 ms each. */
function hotTenantLoad(hot: number) {
  const records = Array.from({ length: 32 }, (_, s) => (s === hot ? 250 : 12));
  const busy = Array.from({ length: 32 }, (_, s) => (s === hot ? 1000 : 12));
  return { records, busy };
}

describe('the independent placement', () => {
  it('agrees with the values Flink itself gave (keygroups tests, DIGEST)', () => {
    expect(independentMurmur(0n)).toBe(593689054);
    expect(independentMurmur(-1n)).toBe(1982413648);
    expect(independentMurmur(independentHashCode('hello'))).toBe(1715862179);
    // resources/scenarios/hot-tenant.yaml: acme is key group 50 of 128, subtask 12 at parallelism 32.
    expect(independentSubtask('acme', 128, 32)).toEqual({ keyGroup: 50, subtask: 12 });
  });
});

describe('the bucket rule', () => {
  it('takes the fewest buckets whose rate is under the headroom of one subtask', () => {
    expect(SALTING_HEADROOM).toBe(0.7);
    expect(saltBuckets(400, 250)).toBe(3); // 400 / 175 = 2.3
    expect(saltBuckets(350, 250)).toBe(2); // exactly 175 each
    expect(saltBuckets(351, 250)).toBe(3);
    expect(saltBuckets(100, 250)).toBe(2); // asked for anyway: at least two
    for (const n of [3, 8, 20]) expect(400 / saltBuckets(400 * n, 250)).toBeLessThanOrEqual(0.7 * 250);
  });

  it('says no salting is needed when the key fits one subtask, and says so when the capacity or the rate is unknown', () => {
    const { records, busy } = hotTenantLoad(12);
    const fits = adviseSalting({ key: 'acme', keyRecordsPerSecond: 100, keyRateIsLowerBound: false, maxParallelism: 128, recordsInPerSecond: records, busyTimeMsPerSecond: busy });
    expect(fits.verdict).toBe('not-needed');
    expect(fits.sentence).toBe('acme (100 records/s) is under 70% of what one subtask sustains (~250 records/s): no salting needed.');
    expect(fits.buckets).toBeNull();

    const idle = adviseSalting({ key: 'acme', keyRecordsPerSecond: 400, keyRateIsLowerBound: false, maxParallelism: 128, recordsInPerSecond: records.map(() => 5), busyTimeMsPerSecond: records.map(() => 5) });
    expect(idle.verdict).toBe('capacity-unknown');
    expect(idle.sentence).toMatch(/^The capacity of one subtask is not known/);

    const unknown = adviseSalting({ key: 'acme', keyRecordsPerSecond: null, keyRateIsLowerBound: false, maxParallelism: 128, recordsInPerSecond: records, busyTimeMsPerSecond: busy });
    expect(unknown.verdict).toBe('rate-unknown');
  });

  it('salts a saturated key whose rate is only a lower bound, and says its demand is higher', () => {
    const { records, busy } = hotTenantLoad(12);
    const rate = estimateKeyRate(12, records)!;
    expect(rate).toBe(238);
    const advice = adviseSalting({ key: 'acme', keyRecordsPerSecond: rate, keyRateIsLowerBound: true, maxParallelism: 128, recordsInPerSecond: records, busyTimeMsPerSecond: busy });
    expect(advice.verdict).toBe('salt');
    expect(advice.buckets).toBe(2);
    expect(advice.notes[0]).toMatch(/^acme's rate is what its saturated subtask got through \(238 records\/s\): its demand is higher/);
  });
});

describe('the salted keys', () => {
  it('land where Flink places them, counted distinct, with the expected value for random placement', () => {
    const { records, busy } = hotTenantLoad(12);
    const advice = adviseSalting({ key: 'acme', keyRecordsPerSecond: 400, keyRateIsLowerBound: false, maxParallelism: 128, recordsInPerSecond: records, busyTimeMsPerSecond: busy, buckets: 8 });
    expect(advice.saltedKeys.map((k) => k.key)).toEqual(Array.from({ length: 8 }, (_, i) => `acme#${i}`));
    for (const k of advice.saltedKeys) expect({ keyGroup: k.keyGroup, subtask: k.subtask }).toEqual(independentSubtask(k.key, 128, 32));
    expect(advice.distinctSubtasks).toBe(new Set(advice.saltedKeys.map((k) => independentSubtask(k.key, 128, 32).subtask)).size);
    expect(advice.expectedDistinctSubtasks).toBeCloseTo(32 * (1 - (31 / 32) ** 8), 10);
    expect(expectedDistinctSubtasks(8, 32)).toBeCloseTo(7.18, 2);
    expect(advice.sentence).toContain(`8 keys over 32 subtasks reach ${advice.distinctSubtasks} (about 7.2 expected at random)`);
  });

  it('predicts the busy time per subtask: what each carries, less the hot key, plus the buckets landing on it', () => {
    const { records, busy } = hotTenantLoad(12);
    const advice = adviseSalting({ key: 'acme', keyRecordsPerSecond: 238, keyRateIsLowerBound: false, maxParallelism: 128, recordsInPerSecond: records, busyTimeMsPerSecond: busy, buckets: 8 });
    // Each bucket: 238 / 8 records/s at 4 ms per record (250 records/s at 1,000 ms/s) = 119 ms/s.
    const perBucketMs = (238 / 8) * 4;
    const expected = Array.from({ length: 32 }, (_, s) => {
      const buckets = advice.saltedKeys.filter((k) => independentSubtask(k.key, 128, 32).subtask === s).length;
      // Subtask 12 keeps its other 12 records/s, at the 1 ms per record of the other subtasks.
      return 12 + buckets * perBucketMs;
    });
    advice.predicted.forEach((p, s) => expect(p.busyTimeMsPerSecond).toBeCloseTo(expected[s], 6));
    const mean = expected.reduce((a, b) => a + b, 0) / 32;
    expect(advice.after!.maxOverMean).toBeCloseTo(Math.max(...expected) / mean, 6);
    expect(advice.before.maxOverMean).toBeCloseTo(1000 / ((1000 + 31 * 12) / 32), 6);
    expect(advice.after!.maxOverMean!).toBeLessThan(advice.before.maxOverMean! / 2);
    expect(advice.costs.join(' ')).toMatch(/one pane per salted key and open window, so N times/);
    expect(advice.costs.join(' ')).toMatch(/new uid: it starts with empty state/);
    expect(advice.costs.join(' ')).toMatch(/without allowed lateness/);
  });
});

describe('the salted key format', () => {
  it('replaces {key} and {i}, and refuses a format without {i}', () => {
    expect(DEFAULT_SALT_FORMAT).toBe('{key}#{i}');
    expect(saltedKeyName('{key}#{i}', 'acme', 3)).toBe('acme#3');
    expect(saltedKeyName('{i}-{key}-{key}', 'acme', 0)).toBe('0-acme-acme');
    expect(() => saltedKeyName('{key}#', 'acme', 1)).toThrow(/has no \{i\}/);
    const { records, busy } = hotTenantLoad(12);
    const advice = adviseSalting({ key: 'acme', keyRecordsPerSecond: 400, keyRateIsLowerBound: false, maxParallelism: 128, recordsInPerSecond: records, busyTimeMsPerSecond: busy, format: 'salt-{i}:{key}' });
    expect(advice.saltedKeys.map((k) => k.key)).toEqual(['salt-0:acme', 'salt-1:acme', 'salt-2:acme']);
    for (const k of advice.saltedKeys) expect(k.subtask).toBe(independentSubtask(k.key, 128, 32).subtask);
  });
});

describe('a saturated key whose demand is given', () => {
  it('lifts the other keys by the factor the back-pressure held them down', () => {
    const { records, busy } = hotTenantLoad(12);
    const advice = adviseSalting({ key: 'acme', keyRecordsPerSecond: 476, keyRateIsLowerBound: false, maxParallelism: 128, recordsInPerSecond: records, busyTimeMsPerSecond: busy });
    // 238 records/s got through of 476: twice as much for everyone once acme is split.
    expect(advice.demandScale).toBeCloseTo(2, 10);
    expect(advice.buckets).toBe(3); // 476 / 175 = 2.7
    const untouched = advice.predicted.find((p) => p.subtask !== 12 && p.saltedKeys.length === 0)!;
    expect(untouched.recordsPerSecond).toBeCloseTo(24, 10);
    expect(untouched.busyTimeMsPerSecond).toBeCloseTo(24, 10);
    expect(advice.notes.join(' ')).toMatch(/acme got 238 records\/s through its saturated subtask of the 476 records\/s it brings/);
  });
});

describe('the rescale beside it', () => {
  it('says why a rescale does not split the key, in the terms the figures allow', () => {
    const capacity = { recordsPerSecond: 250, subtask: 12, busyTimeMsPerSecond: 1000, saturated: true };
    expect(rescaleDoesNotSplit('acme', 400, capacity, true)).toBe(
      'A rescale does not split acme: one key is one key group, and one key group is on one subtask at any parallelism. acme alone (400 records/s) stays above the ~250 records/s one subtask sustains wherever it lands.',
    );
    expect(rescaleDoesNotSplit('acme', 238, capacity, true)).toMatch(/acme alone keeps its subtask saturated wherever it lands/);
    expect(rescaleDoesNotSplit('acme', 50, capacity, false)).toMatch(/It only moves the key group to another subtask/);
  });
});
