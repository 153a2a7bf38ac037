import type { HotSubtask, LoadPattern, MetricSkew, SkewMetric, SubtaskRef, VertexDiagnosis } from '../contracts/diagnosis.ts';
import { SKEW_METRICS } from '../contracts/diagnosis.ts';
import { backpressureLevelOf } from './backpressure-level.ts';
import { keyedVertexIds } from './keyed-vertices.ts';
import { skewStatistics, type SkewStatistics } from './skew-figures.ts';
import type { JobWindowStats, VertexWindowStats } from './window-stats.ts';

/**
 * Below these a subtask is not hot, whatever its siblings do: 5% busy is no load (and at that level busy time is
 * mostly measurement noise), back-pressure starts to matter at Flink's "low" (10%); a lot of idle time is no skew.
 */
export const HOT_FLOOR: Record<SkewMetric, number> = {
  recordsInPerSecond: 0,
  recordsOutPerSecond: 0,
  bytesInPerSecond: 0,
  bytesOutPerSecond: 0,
  busyTimeMsPerSecond: 50,
  backPressuredTimeMsPerSecond: 100,
  idleTimeMsPerSecond: Infinity,
  checkpointedStateBytes: 0,
};

/** One value per subtask of a metric over the window: the window mean (or the highest per-sample rate). */
export function metricValues(vertex: VertexWindowStats, metric: SkewMetric, aggregate: 'mean' | 'max' = 'mean'): Float64Array {
  if (metric === 'checkpointedStateBytes') return vertex.checkpointedBytes;
  if (aggregate === 'mean') return vertex.mean[metric];
  const max = vertex.max[metric];
  if (!max) throw new Error(`The maxima of ${metric} were not computed for this window (vertexWindowStats options.maxima).`);
  return max;
}

/** Where subtask `k` ran at the end of the window. */
export function subtaskRef(window: Pick<JobWindowStats, 'taskManagers'>, vertex: VertexWindowStats, k: number): SubtaskRef {
  const tm = window.taskManagers[vertex.taskManager[k]];
  return { subtask: k, taskManagerId: tm?.id ?? null, endpoint: tm?.endpoint ?? null };
}

/**
 * The metric a vertex's load is read from: busy time where the cluster measures it and something is really busy
 * (at least `HOT_FLOOR`); else the records it reads (a source reads none: the records it emits).
 */
export function loadMetricOf(vertex: VertexWindowStats): SkewMetric | null {
  const candidates: Array<[SkewMetric, number]> = [
    ['busyTimeMsPerSecond', HOT_FLOOR.busyTimeMsPerSecond],
    ['recordsInPerSecond', 0],
    ['recordsOutPerSecond', 0],
  ];
  for (const [metric, floor] of candidates) {
    const values = metricValues(vertex, metric);
    for (let k = 0; k < values.length; k++) if (values[k] > floor) return metric;
  }
  return vertex.samples > 0 && vertex.mean.busyTimeMsPerSecond.some((v) => Number.isFinite(v)) ? 'busyTimeMsPerSecond' : null;
}

/** hot: a few subtasks far above the other busy ones; few-keys: idle subtasks and an even load over the rest. */
export function loadPatternOf(stats: SkewStatistics | null): LoadPattern {
  if (!stats || stats.counted === 0) return 'unknown';
  if (!(stats.max! > 0)) return 'idle';
  if (stats.hot.length > 0) return 'hot';
  if (stats.idle > 0) return 'few-keys';
  return 'even';
}

/** Pure: skew figures of every metric, the load pattern and the back-pressure level of each vertex over the window. */
export function diagnoseVertices(window: JobWindowStats): VertexDiagnosis[] {
  const keyed = keyedVertexIds(window.edges);
  return window.vertices.map((vertex) => {
    const busy = vertex.mean.busyTimeMsPerSecond;
    const statistics = new Map<SkewMetric, SkewStatistics>(SKEW_METRICS.map((m) => [m, skewStatistics(metricValues(vertex, m), busy, HOT_FLOOR[m])]));
    const loadMetric = vertex.unavailable ? null : loadMetricOf(vertex);
    const backPressured = statistics.get('backPressuredTimeMsPerSecond')!;
    return {
      vertexId: vertex.id,
      name: vertex.name,
      parallelism: vertex.parallelism,
      maxParallelism: vertex.maxParallelism,
      keyed: keyed.has(vertex.id),
      loadMetric,
      pattern: loadPatternOf(loadMetric ? statistics.get(loadMetric)! : null),
      backpressureLevel: backPressured.max === null ? null : backpressureLevelOf(backPressured.max),
      restartedSubtasks: [...vertex.restarted.keys()].filter((k) => vertex.restarted[k] === 1),
      unavailable: vertex.unavailable ?? null,
      metrics: SKEW_METRICS.map((metric) => toMetricSkew(window, vertex, metric, statistics.get(metric)!)),
    };
  });
}

function toMetricSkew(window: JobWindowStats, vertex: VertexWindowStats, metric: SkewMetric, s: SkewStatistics): MetricSkew {
  const values = metricValues(vertex, metric);
  const hot: HotSubtask[] = s.hot.map((k) => ({
    ...subtaskRef(window, vertex, k),
    value: values[k],
    timesMean: s.mean ? values[k] / s.mean : null,
  }));
  const { hot: _hot, sum: _sum, ...figures } = s;
  return { metric, ...figures, hot };
}
