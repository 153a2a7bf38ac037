import { rollupOf, type VertexRollup, type VertexSample } from '../history/job-sample.ts';

/** One vertex at one sample: its subtasks' figures aggregated (null when no subtask had the figure). */
export interface VertexPoint extends VertexRollup {
  t: number;
}

const FIGURES = ['busyMax', 'busyAvg', 'backPressuredMax', 'backPressuredAvg', 'idleAvg', 'recordsInPerSecond', 'recordsOutPerSecond'] as const satisfies ReadonlyArray<keyof VertexRollup>;

/** Pure: a vertex's per-subtask rates at one sample → max, average or sum over its subtasks (missing = skipped, never 0). */
export function vertexPointOf(t: number, vertex: Pick<VertexSample, 'subtasks'>): VertexPoint {
  return { t, ...rollupOf(vertex) };
}

/** A point from a stored rollup (the sample's head): the same figures, without decoding the columns. */
export function vertexPointOfRollup(t: number, rollup: VertexRollup): VertexPoint {
  return { t, ...rollup };
}

/** A point with no figures: a chart draws a break there. */
export function gapPoint(t: number): VertexPoint {
  return { t, busyMax: null, busyAvg: null, backPressuredMax: null, backPressuredAvg: null, idleAvg: null, recordsInPerSecond: null, recordsOutPerSecond: null };
}

/** The time after which two consecutive samples are a gap: 2.5 × their usual spacing (the median), at least 1 s. */
export function gapThresholdMs(times: number[]): number {
  const steps = times
    .slice(1)
    .map((t, i) => t - times[i])
    .filter((d) => d > 0)
    .sort((a, b) => a - b);
  if (steps.length === 0) return Infinity;
  return Math.max(1000, 2.5 * steps[steps.length >> 1]);
}

/**
 * Pure: a vertex's points over a window, ready to draw. At most `maxPoints` (neighbours merged: the max of the
 * maxima, the mean of the averages and sums), and a gap point wherever samples are missing — further apart than
 * `gapAfterMs`, or a recorded gap (`breaks`: when the sampler lost the cluster) between them. Gaps are drawn as gaps,
 * never bridged and never zeros.
 */
export function seriesOf(points: VertexPoint[], options: SeriesOptions): VertexPoint[] {
  return chartSeries(points, options, merge, gapPoint);
}

export interface SeriesOptions {
  maxPoints: number;
  gapAfterMs: number;
  /** Times the sampler recorded a gap at (it lost the cluster): never bridged, whatever the spacing. */
  breaks?: number[];
}

/**
 * Pure: any time series at a chart's resolution, as `seriesOf` describes: runs of points without a gap merged down
 * by `mergePoints` (never across a gap), and `gapAt(t)` between runs.
 */
export function chartSeries<P extends { t: number }>(points: P[], options: SeriesOptions, mergePoints: (points: P[]) => P, gapAt: (t: number) => P): P[] {
  const breaks = [...(options.breaks ?? [])].sort((a, b) => a - b);
  const isGap = (a: P, b: P) => b.t - a.t > options.gapAfterMs || breaks.some((t) => t > a.t && t <= b.t);
  // Runs of points without a gap inside; merging never crosses a gap.
  const runs: P[][] = [];
  for (const point of points) {
    const run = runs[runs.length - 1];
    if (run && !isGap(run[run.length - 1], point)) run.push(point);
    else runs.push([point]);
  }
  const per = Math.max(1, Math.ceil(points.length / Math.max(1, options.maxPoints - runs.length)));
  const out: P[] = [];
  runs.forEach((run, r) => {
    if (r > 0) out.push(gapAt(Math.round((runs[r - 1][runs[r - 1].length - 1].t + run[0].t) / 2)));
    for (let i = 0; i < run.length; i += per) {
      const group = run.slice(i, i + per);
      out.push(group.length === 1 ? group[0] : mergePoints(group));
    }
  });
  return out;
}

function merge(points: VertexPoint[]): VertexPoint {
  const merged = gapPoint(points[points.length - 1].t);
  for (const figure of FIGURES) {
    const values = points.map((p) => p[figure]).filter((v): v is number => v !== null);
    if (values.length === 0) continue;
    merged[figure] = figure.endsWith('Max') ? Math.max(...values) : values.reduce((a, b) => a + b, 0) / values.length;
  }
  return merged;
}
