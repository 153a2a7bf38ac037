import { describe, expect, it } from 'vitest';
import type { MetricSkew, VertexDiagnosis } from '../../../engine/contracts/diagnosis';
import { DEFAULT_FILTER } from './heatmapModel';
import { nextSkewSort, skewTableRows } from './skewTable';

function vertex(name: string, pattern: VertexDiagnosis['pattern'], skew: number | null, hot: number[] = [], keyed = true): VertexDiagnosis {
  const figures: MetricSkew = {
    metric: 'busyTimeMsPerSecond', counted: 4, missing: 0, invalid: 0, min: 0, max: skew === null ? null : 10 * skew, maxSubtask: 0, mean: 1, median: 1,
    dataSkewPercent: skew, maxOverMean: skew === null ? null : skew / 10, maxOverMedian: null, idle: 0,
    hot: hot.map((subtask) => ({ subtask, value: 1, timesMean: 1, taskManagerId: null, endpoint: null })),
  };
  return { vertexId: name, name, parallelism: 4, maxParallelism: 128, keyed, loadMetric: 'busyTimeMsPerSecond', pattern, backpressureLevel: 'ok', restartedSubtasks: [], unavailable: null, metrics: [figures] };
}

const vertices = [vertex('source', 'even', 5, [], false), vertex('tenant-cost', 'hot', 100, [12]), vertex('sink', 'unknown', null), vertex('assemble', 'few-keys', 40)];

describe('skewTableRows', () => {
  it('sorts by Flink skew worst first, missing figures last, and by pattern with hot first', () => {
    const bySkew = skewTableRows(vertices, 'busyTimeMsPerSecond', DEFAULT_FILTER, { column: 'dataSkewPercent', direction: 'desc' });
    expect(bySkew.map((r) => r.vertex.name)).toEqual(['tenant-cost', 'assemble', 'source', 'sink']);
    const ascending = skewTableRows(vertices, 'busyTimeMsPerSecond', DEFAULT_FILTER, { column: 'dataSkewPercent', direction: 'asc' });
    expect(ascending.map((r) => r.vertex.name)).toEqual(['source', 'assemble', 'tenant-cost', 'sink']);
    const byPattern = skewTableRows(vertices, 'busyTimeMsPerSecond', DEFAULT_FILTER, { column: 'pattern', direction: 'asc' });
    expect(byPattern.map((r) => r.vertex.pattern)).toEqual(['hot', 'few-keys', 'even', 'unknown']);
  });

  it('filters like the heatmap', () => {
    expect(skewTableRows(vertices, 'busyTimeMsPerSecond', { ...DEFAULT_FILTER, hotOnly: true }, { column: 'name', direction: 'asc' }).map((r) => r.vertex.name)).toEqual(['tenant-cost']);
    expect(skewTableRows(vertices, 'busyTimeMsPerSecond', { ...DEFAULT_FILTER, keyedOnly: true, text: 'S' }, { column: 'name', direction: 'asc' }).map((r) => r.vertex.name)).toEqual(['assemble', 'sink', 'tenant-cost']);
  });

  it('flips a column on a second click and starts a new one worst first', () => {
    expect(nextSkewSort({ column: 'max', direction: 'desc' }, 'max')).toEqual({ column: 'max', direction: 'asc' });
    expect(nextSkewSort({ column: 'max', direction: 'desc' }, 'maxOverMean')).toEqual({ column: 'maxOverMean', direction: 'desc' });
    expect(nextSkewSort({ column: 'max', direction: 'desc' }, 'name')).toEqual({ column: 'name', direction: 'asc' });
  });
});
