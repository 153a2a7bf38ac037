import { describe, expect, it } from 'vitest';
import { emptySubtaskColumns, type VertexSample } from '../history/job-sample.ts';
import { gapThresholdMs, seriesOf, vertexPointOf, type VertexPoint } from './metric-series.ts';

function vertex(busy: number[], backPressured: number[] = busy.map(() => 0)): VertexSample {
  const subtasks = emptySubtaskColumns(busy.length);
  subtasks.rates.busyTimeMsPerSecond.set(busy);
  subtasks.rates.backPressuredTimeMsPerSecond.set(backPressured);
  subtasks.rates.recordsInPerSecond.set(busy.map(() => 10));
  return { id: 'v', name: 'tenant-cost', parallelism: busy.length, maxParallelism: 128, status: 'RUNNING', subtasks };
}

const point = (t: number, busyMax: number): VertexPoint => ({ ...vertexPointOf(t, vertex([busyMax])) });

describe('metric series over a window', () => {
  it('aggregates a vertex\'s subtasks at one sample, skipping missing figures instead of counting zeros', () => {
    const p = vertexPointOf(5, vertex([1000, 20, Number.NaN, 40], [0, 900, Number.NaN, 0]));
    expect(p).toMatchObject({ t: 5, busyMax: 1000, backPressuredMax: 900, recordsInPerSecond: 40 });
    expect(p.busyAvg).toBeCloseTo(353.33, 2);
    const unavailable = vertexPointOf(5, { subtasks: null });
    expect(unavailable).toMatchObject({ busyMax: null, busyAvg: null, recordsInPerSecond: null });
  });

  it('draws a gap where samples are missing or a gap was recorded, never a line across it', () => {
    const points = [0, 10_000, 20_000, 60_000, 70_000, 80_000, 90_000].map((t) => point(t, 500));
    const threshold = gapThresholdMs(points.map((p) => p.t));
    expect(threshold).toBe(25_000);
    const series = seriesOf(points, { maxPoints: 100, gapAfterMs: threshold, breaks: [75_000] });
    expect(series.map((p) => [p.t, p.busyMax])).toEqual([
      [0, 500], [10_000, 500], [20_000, 500], [40_000, null], [60_000, 500], [70_000, 500], [75_000, null], [80_000, 500], [90_000, 500],
    ]);
  });

  it('merges neighbours down to the point budget, keeping the peaks and the gaps', () => {
    const points = Array.from({ length: 360 }, (_, i) => point(i * 10_000, i === 123 ? 1000 : 100));
    points.splice(200, 20); // 200 s without samples
    const series = seriesOf(points, { maxPoints: 60, gapAfterMs: 25_000 });
    expect(series.length).toBeLessThanOrEqual(60);
    expect(Math.max(...series.map((p) => p.busyMax ?? 0))).toBe(1000);
    expect(series.filter((p) => p.busyMax === null)).toHaveLength(1);
  });
});
