import { describe, expect, it } from 'vitest';
import { aggregateMetrics, parseSubtaskFilter } from './metric-store.ts';
import { backPressureLevel } from './views.ts';

describe('metric aggregation as Flink serves it', () => {
  const stores = [
    new Map([['busyTimeMsPerSecond', '1000.0'], ['isBackPressured', 'false']]),
    new Map([['busyTimeMsPerSecond', '0.0'], ['isBackPressured', 'true']]),
    new Map([['busyTimeMsPerSecond', '20.0']]),
    new Map([['busyTimeMsPerSecond', '20.0']]),
  ];

  it('min/max/avg/sum/skew per requested metric; names only without `get`', () => {
    expect(aggregateMetrics(stores, ['busyTimeMsPerSecond'], ['min', 'max', 'avg', 'sum', 'skew'])).toEqual([
      { id: 'busyTimeMsPerSecond', min: 0, max: 1000, avg: 260, sum: 1040, skew: 100 },
    ]);
    expect(aggregateMetrics(stores, undefined, ['max'])).toEqual([{ id: 'busyTimeMsPerSecond' }, { id: 'isBackPressured' }]);
  });

  it('leaves out non-numeric metrics, and answers [] when a requested metric is unknown', () => {
    expect(aggregateMetrics(stores, ['isBackPressured', 'busyTimeMsPerSecond'], ['max'])).toEqual([{ id: 'busyTimeMsPerSecond', max: 1000 }]);
    expect(aggregateMetrics(stores, ['busyTimeMsPerSecond', 'noSuchMetric'], ['max'])).toEqual([]);
  });

  it('parses subtask filters like "1,3,5-9", ignoring indices beyond the parallelism', () => {
    expect(parseSubtaskFilter('1,3,5-7', 10)).toEqual([1, 3, 5, 6, 7]);
    expect(parseSubtaskFilter('2-40', 4)).toEqual([2, 3]);
    expect(() => parseSubtaskFilter('a-b', 4)).toThrow(/comma-separated list/);
  });

  it('uses the backpressure thresholds of JobVertexBackPressureHandler', () => {
    expect(backPressureLevel(0.1)).toBe('ok');
    expect(backPressureLevel(0.100001)).toBe('low');
    expect(backPressureLevel(0.5)).toBe('low');
    expect(backPressureLevel(0.500001)).toBe('high');
  });
});
