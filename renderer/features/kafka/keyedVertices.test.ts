import { describe, expect, it } from 'vitest';
import type { JobGraph, VertexView } from '../../../engine/contracts/jobs';
import { defaultKeyedVertex, keyedVertices } from './keyedVertices';

const vertex = (id: string, parallelism: number, busySkew: number | null, maxParallelism: number | null = 128): VertexView => ({
  id, name: id, parallelism, maxParallelism, status: 'RUNNING', tasks: {}, recordsInPerSecond: null, recordsOutPerSecond: null,
  busyTimeMsPerSecond: null, backPressuredTimeMsPerSecond: null, idleTimeMsPerSecond: null, busySkew, dataSkewPercent: null, backpressureLevel: null,
});

const graph = (vertices: VertexView[], edges: JobGraph['edges']): JobGraph => ({
  clusterId: 'c', jobId: 'j', name: 'gatewaymeter', state: 'RUNNING', startTime: 0, durationMs: 0, endTime: null, maxParallelism: 128, vertices, edges, fetchedAt: 0, requestCount: 0,
});

describe('keyed vertices', () => {
  const g = graph(
    [vertex('source', 4, 1), vertex('assemble', 4, 1.1), vertex('tenant-cost', 32, 23.4, null)],
    [
      { source: 'source', target: 'assemble', shipStrategy: 'HASH' },
      { source: 'assemble', target: 'tenant-cost', shipStrategy: 'HASH' },
    ],
  );

  it('are the targets of HASH edges, with the job\'s max parallelism when the vertex has none', () => {
    expect(keyedVertices(g)).toEqual([
      { id: 'assemble', name: 'assemble', parallelism: 4, maxParallelism: 128 },
      { id: 'tenant-cost', name: 'tenant-cost', parallelism: 32, maxParallelism: 128 },
    ]);
  });

  it('default to the most skewed one, else the last', () => {
    expect(defaultKeyedVertex(g, keyedVertices(g))?.id).toBe('tenant-cost');
    const even = graph([vertex('a', 2, null), vertex('b', 2, null)], [{ source: 'a', target: 'b', shipStrategy: 'HASH' }]);
    expect(defaultKeyedVertex(even, keyedVertices(even))?.id).toBe('b');
    expect(defaultKeyedVertex(even, [])).toBeNull();
  });
});
