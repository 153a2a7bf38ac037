import type { JobMetricsHistory, SubtaskReadings, VertexMetricPoint, VertexMetricSeries } from '../../contracts/history.ts';
import { gapThresholdMs, seriesOf, vertexPointOf, vertexPointOfRollup, type VertexPoint } from '../../analysis/metric-series.ts';
import type { HistoryStore } from '../history-store.ts';
import { headCoverage, type SampleHead } from '../sample-log.ts';
import { markersOf } from './markers.ts';

/** Points per vertex and chart: a small chart shows no more. */
const MAX_POINTS = 240;

/**
 * Busy time and backpressure per vertex over `[from, to]`, from the stored samples' heads (each vertex's rollup over
 * its subtasks: no column is decoded), gaps kept as gaps, merged down to a chart's resolution. Plain JSON out.
 */
export function jobMetricsHistory(history: HistoryStore, clusterId: string, jobId: string, from: number, to: number): JobMetricsHistory {
  const heads = history.samples.heads(clusterId, jobId, from, to);
  const job = history.samples.job(clusterId, jobId);
  const events = history.events.list(clusterId, jobId);
  const markers = markersOf(events, from, to);
  const breaks = events.filter((e) => e.kind === 'gap-started').map((e) => e.t);
  const gapAfterMs = gapThresholdMs(heads.map((h) => h.t));
  // Every vertex the window saw, in the order of its newest sample (a rescale or restart may change the set).
  const vertexInfo = new Map<string, { name: string; parallelism: number }>();
  for (let i = heads.length - 1; i >= 0; i--) {
    for (const v of heads[i].vertices) if (!vertexInfo.has(v.id)) vertexInfo.set(v.id, { name: v.name, parallelism: v.parallelism });
  }
  const vertices: VertexMetricSeries[] = [...vertexInfo].map(([vertexId, info]) => {
    // From the heads' rollups; samples stored before rollups were kept are read from their columns.
    const rolledUp = heads.every((h) => h.vertices.every((v) => v.id !== vertexId || v.rollup));
    const points: VertexPoint[] = rolledUp
      ? heads.flatMap((h) => h.vertices.filter((v) => v.id === vertexId && v.rollup).map((v) => vertexPointOfRollup(h.t, v.rollup!)))
      : history.samples.vertexWindow(clusterId, jobId, vertexId, from, to).map(({ t, vertex }) => vertexPointOf(t, vertex));
    const series = seriesOf(points, { maxPoints: MAX_POINTS, gapAfterMs, breaks }).map(
      (p): VertexMetricPoint => ({ t: p.t, busyMax: p.busyMax, busyAvg: p.busyAvg, backPressuredMax: p.backPressuredMax, backPressuredAvg: p.backPressuredAvg, recordsInPerSecond: p.recordsInPerSecond }),
    );
    return {
      vertexId,
      name: info.name,
      parallelism: info.parallelism,
      points: series,
      peakBusyMax: peak(series, 'busyMax'),
      peakBackPressuredMax: peak(series, 'backPressuredMax'),
    };
  });
  const fromStore = heads.filter((h) => h.source === 'prometheus').length;
  return {
    clusterId,
    jobId,
    from,
    to,
    samples: heads.length,
    samplesFrom: { jobManager: heads.length - fromStore, prometheus: fromStore },
    readings: readingsIn(heads, to),
    vertices,
    markers,
    firstSampleAt: job?.firstSampleAt ?? null,
    lastSampleAt: job?.lastSampleAt ?? null,
  };
}

/** Pure: which vertices the samples read per subtask, and how recently the least recent of them (see `SubtaskReadings`). */
export function readingsIn(heads: ReadonlyArray<Pick<SampleHead, 't' | 'vertices'>>, to: number): SubtaskReadings {
  const newest = heads.at(-1);
  if (!newest) return { vertices: 0, read: 0, mostPerSample: 0, oldestReadingAgeMs: null };
  const lastRead = new Map<string, number>();
  let mostPerSample = 0;
  for (const head of heads) {
    const read = head.vertices.filter((v) => headCoverage(v) === 'subtasks');
    mostPerSample = Math.max(mostPerSample, read.length);
    for (const v of read) lastRead.set(v.id, head.t);
  }
  const ages = newest.vertices.filter((v) => lastRead.has(v.id)).map((v) => to - lastRead.get(v.id)!);
  return { vertices: newest.vertices.length, read: ages.length, mostPerSample, oldestReadingAgeMs: ages.length > 0 ? Math.max(...ages) : null };
}

function peak(points: VertexMetricPoint[], figure: 'busyMax' | 'backPressuredMax'): number | null {
  let max: number | null = null;
  for (const p of points) if (p[figure] !== null && (max === null || p[figure] > max)) max = p[figure];
  return max;
}
