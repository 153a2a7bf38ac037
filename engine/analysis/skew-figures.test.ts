import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataSkewPercent, hotSubtasks, parseMetricValue, skewStatistics } from './skew-figures.ts';

const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/flink/recorded');

describe("dataSkewPercent: Flink's DoubleDataSkew", () => {
  it('is the mean absolute deviation over the mean, × 100', () => {
    // mean 250, |deviations| 150, 50, 50, 150 → 100 / 250 = 40%.
    expect(dataSkewPercent([100, 200, 300, 400])).toBeCloseTo(40, 12);
  });

  it('is capped at 100, is 0 for an even load, for a mean of 0 and for no values', () => {
    expect(dataSkewPercent([300, 100, 100, 100])).toBe(50);
    expect(dataSkewPercent([1000, 0, 0, 0])).toBe(100);
    expect(dataSkewPercent([1000, ...new Array(31).fill(0)])).toBe(100);
    expect(dataSkewPercent([7, 7, 7])).toBe(0);
    expect(dataSkewPercent([0, 0])).toBe(0);
    expect(dataSkewPercent([])).toBe(0);
    expect(dataSkewPercent([5])).toBe(0);
  });

  // The recorded real-Flink responses were taken at parallelism 2, where min and max are the two subtasks' values:
  // the figure computed from them must be exactly what that Flink answered to agg=skew.
  for (const version of readdirSync(RECORDED)) {
    it(`equals the skew the real Flink ${version} returned for every recorded vertex and metric`, () => {
      const dir = path.join(RECORDED, version, 'vertices');
      let compared = 0;
      for (const vertex of readdirSync(dir)) {
        const aggregates = JSON.parse(readFileSync(path.join(dir, vertex, 'subtasks-metrics-skew.json'), 'utf8')) as Array<{ id: string; min: number; max: number; skew?: number }>;
        for (const a of aggregates) {
          if (a.skew === undefined) continue;
          expect(dataSkewPercent([a.min, a.max]), `${vertex} ${a.id}`).toBeCloseTo(a.skew, 9);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(10);
    });
  }
});

describe('skewStatistics', () => {
  it('reads the hot-tenant picture: one subtask at 1,000 ms/s, the rest lightly busy or idle', () => {
    const busy = [...new Array(32).fill(0)];
    [0, 5, 8, 9, 11, 13, 16, 18, 19, 21, 23, 24, 26, 29, 30].forEach((k, i) => (busy[k] = 12 + i * 3));
    busy[12] = 1000;
    const s = skewStatistics(busy);
    expect(s.maxSubtask).toBe(12);
    expect(s.hot).toEqual([12]);
    expect(s.maxOverMean).toBeGreaterThan(20);
    expect(s.maxOverMedian).toBeGreaterThan(100); // half the subtasks idle: the median is tiny, max/median does not saturate
    expect(s.idle).toBe(16);
    expect(s.dataSkewPercent).toBe(100);
  });

  it('calls fewer keys than subtasks what it is: idle subtasks and an even load over the others are not hot', () => {
    // 8 tenants of similar weight over 32 subtasks: 24 idle; max/mean reads 4.6× yet nothing is hot.
    const busy = [120, 100, 115, 90, 110, 105, 95, 100, ...new Array(24).fill(0)];
    const s = skewStatistics(busy);
    expect(s.maxOverMean).toBeCloseTo(4.6, 1);
    expect(s.hot).toEqual([]);
    expect(s.idle).toBe(24);
  });

  it('handles parallelism 1, all idle and all busy', () => {
    expect(skewStatistics([640])).toMatchObject({ counted: 1, dataSkewPercent: 0, maxOverMean: 1, maxOverMedian: 1, hot: [], idle: 0 });
    expect(skewStatistics([0, 0, 0])).toMatchObject({ dataSkewPercent: 0, maxOverMean: null, maxOverMedian: null, hot: [], idle: 0 });
    expect(skewStatistics([1000, 1000, 998, 1000])).toMatchObject({ hot: [], idle: 0 });
    expect(skewStatistics([1000, 1000, 998, 1000]).dataSkewPercent).toBeLessThan(0.1);
  });

  it('leaves missing (NaN) and broken values (negative, infinite) out of every figure, and counts them', () => {
    const s = skewStatistics([Number.NaN, 100, -5, Number.POSITIVE_INFINITY, 300]);
    expect(s).toMatchObject({ counted: 2, missing: 1, invalid: 2, min: 100, max: 300, maxSubtask: 4, mean: 200, median: 200 });
    expect(s.dataSkewPercent).toBe(50);
    expect(skewStatistics([Number.NaN, Number.NaN])).toMatchObject({ counted: 0, missing: 2, dataSkewPercent: null, max: null, hot: [] });
  });

  it('takes the median and the extremes exactly, whatever the values (checked against sorting)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constant(Number.NaN), fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 300 }), (values) => {
        const s = skewStatistics(values);
        const valid = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
        if (valid.length === 0) return s.median === null;
        const mid = valid.length >> 1;
        const median = valid.length % 2 ? valid[mid] : (valid[mid - 1] + valid[mid]) / 2;
        return s.median === median && s.min === valid[0] && s.max === valid[valid.length - 1] && s.counted === valid.length;
      }),
    );
  });

  it('reads a broken metric value from the REST API (a string) as NaN, never as a number it is not', () => {
    expect(parseMetricValue('12.5')).toBe(12.5);
    expect(parseMetricValue('NaN')).toBeNaN();
    expect(parseMetricValue('n/a')).toBeNaN();
    expect(parseMetricValue('')).toBeNaN();
    expect(parseMetricValue(null)).toBeNaN();
    expect(parseMetricValue('-1')).toBe(-1);
  });
});

describe('hotSubtasks', () => {
  it('tells the two subtasks of parallelism 2 apart when one is far above the other', () => {
    expect(hotSubtasks([1000, 300])).toEqual([0]);
    expect(hotSubtasks([300, 1000])).toEqual([1]);
    expect(hotSubtasks([500, 510])).toEqual([]);
    // A saturated subtask shows less than its real lead (backpressure caps its input): twice its sibling is hot.
    expect(hotSubtasks([1000, 339], { busy: [1000, 339] })).toEqual([0]);
    expect(hotSubtasks([400, 170], { busy: [1000, 339] })).toEqual([0]);
    expect(hotSubtasks([400, 170])).toEqual([]);
    expect(hotSubtasks([1000, 600], { busy: [1000, 600] })).toEqual([]);
  });

  it('calls nothing hot below the floor: 0.8 ms/s of busy time is noise, not load', () => {
    expect(hotSubtasks([0.8, 0.1, 0.1, 0.1])).toEqual([0]);
    expect(hotSubtasks([0.8, 0.1, 0.1, 0.1], { floor: 50 })).toEqual([]);
  });

  it('does not call the lumps of equal keys hashed unevenly hot (4, 2, 2 and 0 keys on 4 subtasks)', () => {
    expect(hotSubtasks([154, 81, 77, 0])).toEqual([]);
  });

  it('finds several hot subtasks without one hiding the other', () => {
    const values = [20, 22, 18, 900, 21, 19, 950, 20, 23, 17, 20, 22];
    expect(hotSubtasks(values)).toEqual([6, 3]);
  });

  it('calls the only subtask doing anything hot when its siblings idle, and nothing hot with no load at all', () => {
    expect(hotSubtasks([0, 0, 700, 0])).toEqual([2]);
    expect(hotSubtasks([0, 0, 0])).toEqual([]);
    expect(hotSubtasks([5])).toEqual([]);
  });

  it('never calls more than a quarter of the subtasks hot: beyond that the load is simply uneven', () => {
    expect(hotSubtasks([1000, 1000, 20, 20, 20, 20, 20, 20])).toEqual([0, 1]);
    expect(hotSubtasks([1000, 1000, 1000, 20, 20, 20, 20, 20])).toEqual([]);
  });
});
