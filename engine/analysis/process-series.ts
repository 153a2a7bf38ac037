import type { ProcessMetricPoint } from '../contracts/history.ts';
import { chartSeries, gapThresholdMs } from './metric-series.ts';

/** A process's figures at one sample, without the rates (they are between samples). */
export type ProcessFiguresAt = Omit<ProcessMetricPoint, 'gcTimeMsPerSecond' | 'gcPerMinute'>;

const RATES = ['gcTimeMsPerSecond', 'gcPerMinute'] as const;
const FIGURES = [
  'heapUsed',
  'heapCommitted',
  'heapMax',
  'nonHeapUsed',
  'directUsed',
  'directMax',
  'managedUsed',
  'managedTotal',
  'networkSegmentsUsed',
  'networkSegmentsTotal',
  'gcCount',
  'gcTimeMs',
  'cpuLoad',
] as const satisfies ReadonlyArray<keyof ProcessFiguresAt>;

/**
 * Pure: a process's samples (oldest first) → points with the garbage collection rates between each sample and the one
 * before: time per second and collections per minute. No rate across a gap (samples further apart than
 * `gapAfterMs`), nor where a count went down (the process restarted: its counters began again).
 */
export function withGcRates(samples: ProcessFiguresAt[], gapAfterMs: number): ProcessMetricPoint[] {
  return samples.map((s, i): ProcessMetricPoint => {
    const before = samples[i - 1];
    const span = before ? s.t - before.t : 0;
    const rate = (now: number | null, then: number | null | undefined, per: number): number | null =>
      before && span > 0 && span <= gapAfterMs && now !== null && then !== null && then !== undefined && now >= then ? ((now - then) / span) * per : null;
    const restarted = before !== undefined && s.gcCount !== null && before.gcCount !== null && s.gcCount < before.gcCount;
    return {
      ...s,
      gcTimeMsPerSecond: restarted ? null : rate(s.gcTimeMs, before?.gcTimeMs, 1000),
      gcPerMinute: restarted ? null : rate(s.gcCount, before?.gcCount, 60_000),
    };
  });
}

/** A point of nulls: a chart draws a break there. */
export function processGapPoint(t: number): ProcessMetricPoint {
  const point = { t } as ProcessMetricPoint;
  for (const f of FIGURES) point[f] = null;
  for (const r of RATES) point[r] = null;
  return point;
}

/**
 * Pure: a process's samples over a window, ready to draw: rates between samples, at most `maxPoints` (neighbours
 * merged: the highest of each figure, the mean of the rates, so a peak of memory is never smoothed away), a gap point
 * wherever samples are missing (further apart than 2.5 × their usual spacing); and the newest sample as sampled.
 */
export function processSeries(samples: ProcessFiguresAt[], maxPoints: number): { points: ProcessMetricPoint[]; latest: ProcessMetricPoint | null } {
  const gapAfterMs = gapThresholdMs(samples.map((s) => s.t));
  const rated = withGcRates(samples, gapAfterMs);
  return { points: chartSeries(rated, { maxPoints, gapAfterMs }, mergeProcessPoints, processGapPoint), latest: rated.at(-1) ?? null };
}

function mergeProcessPoints(points: ProcessMetricPoint[]): ProcessMetricPoint {
  const merged = processGapPoint(points[points.length - 1].t);
  const known = (key: keyof ProcessMetricPoint) => points.map((p) => p[key]).filter((v): v is number => v !== null);
  for (const f of FIGURES) {
    const values = known(f);
    if (values.length > 0) merged[f] = Math.max(...values);
  }
  for (const r of RATES) {
    const values = known(r);
    if (values.length > 0) merged[r] = values.reduce((a, b) => a + b, 0) / values.length;
  }
  return merged;
}
