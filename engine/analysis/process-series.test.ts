import { describe, expect, it } from 'vitest';
import { processSeries, withGcRates, type ProcessFiguresAt } from './process-series.ts';

const T0 = 1_767_225_600_000;
const MB = 1024 * 1024;

function sample(i: number, over: Partial<ProcessFiguresAt> = {}): ProcessFiguresAt {
  return {
    t: T0 + i * 30_000,
    heapUsed: 100 * MB + i * MB,
    heapCommitted: 200 * MB,
    heapMax: 512 * MB,
    nonHeapUsed: 50 * MB,
    directUsed: 8 * MB,
    directMax: null,
    managedUsed: 0,
    managedTotal: 256 * MB,
    networkSegmentsUsed: i,
    networkSegmentsTotal: 4096,
    gcCount: 10 * i,
    gcTimeMs: 300 * i,
    cpuLoad: 0.1,
    ...over,
  };
}

describe('a process\'s garbage collection between samples', () => {
  it('is the time per second and the collections per minute since the sample before', () => {
    const [first, second] = withGcRates([sample(0), sample(1)], 75_000);
    expect(first.gcTimeMsPerSecond).toBeNull();
    expect(first.gcPerMinute).toBeNull();
    expect(second.gcTimeMsPerSecond).toBe(10); // 300 ms over 30 s
    expect(second.gcPerMinute).toBe(20); // 10 collections over half a minute
  });

  it('has no rate across a gap, nor where the counters began again (the process restarted)', () => {
    const points = withGcRates([sample(0), sample(10), sample(11, { gcCount: 3, gcTimeMs: 40 }), sample(12, { gcCount: 5, gcTimeMs: 100 })], 75_000);
    expect(points.map((p) => p.gcTimeMsPerSecond)).toEqual([null, null, null, 2]);
    expect(points.map((p) => p.gcPerMinute)).toEqual([null, null, null, 4]);
  });

  it('leaves a rate unknown where the process reports no collector', () => {
    expect(withGcRates([sample(0, { gcCount: null, gcTimeMs: null }), sample(1, { gcCount: null, gcTimeMs: null })], 75_000)[1].gcTimeMsPerSecond).toBeNull();
  });
});

describe('a process\'s series at a chart\'s resolution', () => {
  it('draws a gap where samples are missing, never zeros', () => {
    const { points: series, latest } = processSeries([sample(0), sample(1), sample(2), sample(20), sample(21)], 240);
    expect(series).toHaveLength(6);
    const gap = series[3];
    expect(gap.t).toBe(Math.round((sample(2).t + sample(20).t) / 2));
    expect(gap.heapUsed).toBeNull();
    expect(gap.gcTimeMsPerSecond).toBeNull();
    expect(series[4].gcTimeMsPerSecond).toBeNull(); // the first sample after the gap has no rate
    expect(series[5].gcTimeMsPerSecond).toBe(10);
    expect(latest).toEqual(series[5]);
  });

  it('merges neighbours down to the chart\'s points, keeping each figure\'s peak and the mean rate', () => {
    const samples = Array.from({ length: 2880 }, (_, i) => sample(i, { heapUsed: i === 1001 ? 500 * MB : 100 * MB, gcTimeMs: 300 * i + (i % 2 === 0 ? 0 : 150) }));
    const { points: series, latest } = processSeries(samples, 240);
    expect(series.length).toBeLessThanOrEqual(240);
    expect(Math.max(...series.map((p) => p.heapUsed!))).toBe(500 * MB);
    expect(series.at(-1)!.t).toBe(samples.at(-1)!.t);
    // The newest sample as sampled, not merged with its neighbours.
    expect(latest).toMatchObject({ t: samples.at(-1)!.t, heapUsed: 100 * MB, gcTimeMsPerSecond: 15 });
    // Rates alternate 15 and 5 ms/s: each merged point (13 samples) says their mean, near 10, never one of them.
    expect(Math.abs(series[5].gcTimeMsPerSecond! - 10)).toBeLessThan(0.5);
  });
});
