import { SKEW_METRIC_UNIT, type DiagnosisWindow, type HeatmapRow, type SkewHeatmap, type SkewMetric } from '../contracts/diagnosis.ts';
import { keyedVertexIds } from './keyed-vertices.ts';
import { skewStatistics } from './skew-figures.ts';
import { HOT_FLOOR, metricValues } from './vertex-diagnosis.ts';
import type { JobWindowStats } from './window-stats.ts';

/**
 * Pure: the heatmap's data, every vertex × subtask for one metric over a window, as plain JSON (no typed arrays
 * across the bridge). Values are rounded to 3 significant digits: the colour scale cannot show more, and
 * 200 × 1,024 cells stay a small payload.
 */
export function skewHeatmap(window: JobWindowStats, metric: SkewMetric, aggregate: 'mean' | 'max', info: DiagnosisWindow): SkewHeatmap {
  const keyed = keyedVertexIds(window.edges);
  let max: number | null = null;
  const rows = window.vertices.map((vertex): HeatmapRow => {
    const values = metricValues(vertex, metric, aggregate);
    const stats = skewStatistics(values, vertex.mean.busyTimeMsPerSecond, HOT_FLOOR[metric]);
    if (stats.max !== null && (max === null || stats.max > max)) max = stats.max;
    const out: Array<number | null> = new Array(values.length);
    for (let k = 0; k < values.length; k++) {
      const v = values[k];
      out[k] = Number.isFinite(v) && v >= 0 ? round3(v) : null;
    }
    return {
      vertexId: vertex.id,
      name: vertex.name,
      parallelism: vertex.parallelism,
      maxParallelism: vertex.maxParallelism,
      keyed: keyed.has(vertex.id),
      values: out,
      taskManagers: Array.from(vertex.taskManager),
      dataSkewPercent: stats.dataSkewPercent === null ? null : round3(stats.dataSkewPercent),
      maxOverMean: stats.maxOverMean === null ? null : round3(stats.maxOverMean),
      hot: stats.hot,
    };
  });
  return {
    clusterId: window.clusterId,
    jobId: window.jobId,
    window: info,
    metric,
    aggregate,
    unit: SKEW_METRIC_UNIT[metric],
    taskManagers: window.taskManagers.map((tm) => ({ id: tm.id, endpoint: tm.endpoint })),
    rows,
    max: max === null ? null : round3(max),
  };
}

/** 3 significant digits (integers stay whole). */
export function round3(value: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  if (magnitude >= 2) return Math.round(value);
  const factor = 10 ** (2 - magnitude);
  return Math.round(value * factor) / factor;
}
