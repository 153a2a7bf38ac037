import { describe, expect, it } from 'vitest';
import { javaStringHashCode } from '../analysis/key-groups/java-hash.ts';
import { murmurHash } from '../analysis/key-groups/murmur.ts';
import { demandFromLag, watermarkLagGrowth } from './demand.ts';
import type { RehearsalRun } from '../contracts/rehearsal.ts';
import { checkTwinSize, REHEARSAL_LIMITS } from './rehearsal-limits.ts';
import { scaleShape, twinScale, unscaleRun } from './twin-scale.ts';
import { placeSaltedKeys } from './salt-placement.ts';
import { matchTwin } from './twin-match.ts';

const subtaskOf = (key: string, maxParallelism: number, parallelism: number) => Math.floor(((murmurHash(javaStringHashCode(key)) % maxParallelism) * parallelism) / maxParallelism);
const figures = (max: number, mean: number) => ({ max, mean, maxOverMean: mean > 0 ? max / mean : null });

describe('the demand from the watermark lag', () => {
  it('a lag growing 0.375 s a second means 62.5% got through: 625 records/s of 1,000', () => {
    const points = [0, 10_000, 60_000].map((t) => ({ t, watermark: t * 0.625 - 2000 }));
    expect(watermarkLagGrowth(points)).toBeCloseTo(0.375, 9);
    expect(demandFromLag(625, 0.375)).toEqual({ demand: 1000, basis: 'watermark-lag' });
  });

  it('a steady lag, no watermarks or a runaway one: what got through', () => {
    expect(demandFromLag(625, watermarkLagGrowth([{ t: 0, watermark: -2000 }, { t: 60_000, watermark: 58_000 }]))).toEqual({ demand: 625, basis: 'throughput' });
    expect(watermarkLagGrowth([{ t: 0, watermark: Number.NaN }, { t: 1, watermark: Number.NaN }])).toBeNull();
    expect(demandFromLag(625, 0.99).basis).toBe('throughput');
  });
});

describe('matchTwin', () => {
  it('matches on the same hot subtask and max/mean within 20%', () => {
    expect(matchTwin({ hotSubtask: 12, busy: figures(1000, 43) }, { hotSubtask: 12, busy: figures(1000, 48) })).toMatchObject({ matches: true, reasons: [] });
  });

  it('says why not: another hot subtask, or max/mean too far apart', () => {
    const other = matchTwin({ hotSubtask: 12, busy: figures(1000, 43) }, { hotSubtask: 3, busy: figures(1000, 43) });
    expect(other.matches).toBe(false);
    expect(other.reasons[0]).toMatch(/^The twin's busiest subtask is 3, production's is 12/);
    const flatter = matchTwin({ hotSubtask: 12, busy: figures(1000, 43) }, { hotSubtask: 12, busy: figures(1000, 80) });
    expect(flatter.matches).toBe(false);
    expect(flatter.maxOverMean.differencePercent).toBeCloseTo(46.25, 1);
    expect(flatter.reasons[0]).toMatch(/more than 20%\): production concentrates the load more than the twin/);
    const steeper = matchTwin({ hotSubtask: 12, busy: figures(1000, 43) }, { hotSubtask: 12, busy: figures(1000, 25) });
    expect(steeper.reasons[0]).toMatch(/^The twin's busy max\/mean is 40\.0, production's 23\.3 \(72% apart, more than 20%\): the twin concentrates the load more/);
  });
});

describe('placeSaltedKeys', () => {
  it("places K#0..K#N-1 as Flink does and names the subtasks that take two", () => {
    const p = placeSaltedKeys('acme', 8, 128, 16);
    const expected = Array.from({ length: 8 }, (_, i) => subtaskOf(`acme#${i}`, 128, 16));
    expect(p.saltedKeys.map((k) => k.subtask)).toEqual(expected);
    expect(p.distinctSubtasks).toBe(new Set(expected).size);
    expect(p.collisions).toEqual([{ subtask: 10, keys: ['acme#0', 'acme#7'] }]);
    expect(p.sentence).toBe(
      "8 salted keys of acme over 16 subtasks reach 7 (about 6.5 expected at random): salted keys collide — acme#0 and acme#7 on subtask 10 — so the spread is not even: that subtask carries 2 buckets' load.",
    );
  });

  it('says collisions are the rule even when none happen', () => {
    const p = placeSaltedKeys('acme', 8, 128, 32);
    expect(p.collisions).toEqual([]);
    expect(p.sentence).toMatch(/reach 8 \(about 7\.2 expected at random\): none collide at parallelism 32 this time, but salted keys collide more often than not/);
  });
});

describe('the twin scale', () => {
  const shape = { job: 'gatewaymeter' as const, parallelism: 2, maxParallelism: 128, recordsPerSecond: { a: 40_000, b: 10_000 }, capacityRecordsPerSecond: 30_000, costPerRecordMs: 0.02 };
  it('a job busier than the twin generates runs at a share of its rate, each subtask as busy, rates scaled back', () => {
    const f = twinScale(50_000, 5_000);
    expect(f).toBe(0.1);
    expect(twinScale(4_000, 5_000)).toBe(1);
    const scaled = scaleShape(shape, f);
    expect(scaled.recordsPerSecond.a).toBeCloseTo(4_000, 9);
    expect(scaled.capacityRecordsPerSecond).toBeCloseTo(3_000, 9);
    // busy = records × cost: the same at both scales.
    expect(scaled.recordsPerSecond.b * scaled.costPerRecordMs).toBeCloseTo(shape.recordsPerSecond.b * shape.costPerRecordMs, 9);
    const run = { throughputRecordsPerSecond: 3_000, subtasks: [{ subtask: 0, recordsInPerSecond: 3_000, busyTimeMsPerSecond: 1000, backPressuredTimeMsPerSecond: 0 }] } as RehearsalRun;
    expect(unscaleRun(run, f)).toMatchObject({ throughputRecordsPerSecond: 30_000, subtasks: [{ recordsInPerSecond: 30_000, busyTimeMsPerSecond: 1000 }] });
  });
});

describe('the limits', () => {
  const ok = { parallelism: 32, maxParallelism: 128, measuredSeconds: 60 };
  it('refuse a twin too long, too wide or with too many key groups', () => {
    expect(() => checkTwinSize(ok, REHEARSAL_LIMITS)).not.toThrow();
    expect(() => checkTwinSize({ ...ok, measuredSeconds: 301 }, REHEARSAL_LIMITS)).toThrow('A rehearsal measures from 5 to 300 simulated seconds per run, not 301.');
    expect(() => checkTwinSize({ ...ok, parallelism: 257 }, REHEARSAL_LIMITS)).toThrow(/at most 256 subtasks/);
    expect(() => checkTwinSize({ ...ok, maxParallelism: 32768 }, REHEARSAL_LIMITS)).toThrow(/at most 4096 key groups/);
  });
});
