import { describe, expect, it } from 'vitest';
import { compareWindows, windowFigures, type CheckpointFigures } from './before-after.ts';
import type { JobWindowStats, VertexWindowStats } from './window-stats.ts';

/** A window with the figures the comparison reads: per subtask busy ms/s and records out/s of each vertex. */
function window(vertices: Array<{ id: string; busy: number[]; out?: number[] }>, edges: Array<[string, string]>, from = 0, to = 60_000): JobWindowStats {
  return {
    jobId: 'j',
    from,
    to,
    samples: 7,
    edges: edges.map(([source, target]) => ({ source, target, shipStrategy: 'HASH' })),
    vertices: vertices.map(
      (v) =>
        ({
          id: v.id,
          name: `${v.id}-name`,
          parallelism: v.busy.length,
          mean: { busyTimeMsPerSecond: Float64Array.from(v.busy), recordsOutPerSecond: Float64Array.from(v.out ?? v.busy.map(() => Number.NaN)) },
        }) as unknown as VertexWindowStats,
    ),
  } as unknown as JobWindowStats;
}

const checkpoint = (t: number, duration: number | null, state: number | null, status = 'COMPLETED', isSavepoint = false): CheckpointFigures => ({ status, isSavepoint, triggerTimestamp: t, endToEndDurationMs: duration, stateBytes: state });

describe('windowFigures', () => {
  it('takes the most skewed vertex by busy time, the busiest subtask and the sources\u2019 records out', () => {
    // hot-tenant's shape: a source, an even vertex, and tenant-cost with one saturated subtask of four.
    const w = window(
      [
        { id: 'src', busy: [100, 100], out: [300, 325] },
        { id: 'even', busy: [200, 220, 180, 200] },
        { id: 'hot', busy: [1000, 10, 10, 20] },
      ],
      [
        ['src', 'even'],
        ['even', 'hot'],
      ],
    );
    const f = windowFigures(w, []);
    expect(f.skew).toEqual({ vertexId: 'hot', vertexName: 'hot-name', maxOverMean: 1000 / 260, maxBusyMsPerSecond: 1000, meanBusyMsPerSecond: 260 });
    expect(f.busiest).toEqual({ vertexId: 'hot', vertexName: 'hot-name', subtask: 0, busyTimeMsPerSecond: 1000 });
    expect(f.throughputRecordsPerSecond).toBe(625);
    expect(f.checkpoints).toBeNull();
    expect(f.stateBytes).toBeNull();
  });

  it('skips subtasks without figures and single-subtask vertices for the skew', () => {
    const f = windowFigures(window([{ id: 'one', busy: [900] }, { id: 'two', busy: [Number.NaN, 300, 100] }], []), []);
    expect(f.skew).toMatchObject({ vertexId: 'two', maxOverMean: 1.5 });
    expect(f.busiest).toMatchObject({ vertexId: 'one', subtask: 0, busyTimeMsPerSecond: 900 });
    expect(f.throughputRecordsPerSecond).toBeNull();
  });

  it('reads the completed checkpoints triggered in the window, not savepoints, failures or those outside it', () => {
    const f = windowFigures(window([{ id: 'v', busy: [1] }], [], 10_000, 50_000), [
      checkpoint(5_000, 999, 1),
      checkpoint(20_000, 100, 2_000),
      checkpoint(30_000, 300, null),
      checkpoint(35_000, 5_000, 9, 'FAILED'),
      checkpoint(40_000, 7_000, 9, 'COMPLETED', true),
      checkpoint(60_000, 999, 1),
    ]);
    expect(f.checkpoints).toEqual({ count: 2, meanDurationMs: 200, maxDurationMs: 300 });
    // The last completed one that reported a state size.
    expect(f.stateBytes).toBe(2_000);
  });
});

describe('compareWindows', () => {
  it('puts each figure before beside after with the ratio, unknown where either side is', () => {
    const before = windowFigures(window([{ id: 'src', busy: [1], out: [600] }, { id: 'hot', busy: [1000, 20, 20, 20] }], [['src', 'hot']]), [checkpoint(1_000, 400, 1_000)]);
    const after = windowFigures(window([{ id: 'src', busy: [1], out: [1000] }, { id: 'hot', busy: [400, 300, 300, 200] }], [['src', 'hot']]), []);
    const rows = compareWindows(before, after);
    expect(rows.map((r) => r.figure)).toEqual(['skew', 'busiest', 'throughput', 'checkpointDuration', 'stateSize']);
    expect(rows[0]).toMatchObject({ before: 1000 / 265, after: 400 / 300 });
    expect(rows[0].change).toBeCloseTo(400 / 300 / (1000 / 265), 12);
    expect(rows[1]).toMatchObject({ before: 1000, after: 400, change: 0.4 });
    expect(rows[2]).toMatchObject({ before: 600, after: 1000 });
    expect(rows[3]).toMatchObject({ before: 400, after: null, change: null });
    expect(compareWindows(before, null).every((r) => r.after === null && r.change === null)).toBe(true);
  });

  it('gives no ratio from a zero before', () => {
    const zero = windowFigures(window([{ id: 'src', busy: [1], out: [0] }], []), []);
    const some = windowFigures(window([{ id: 'src', busy: [1], out: [5] }], []), []);
    expect(compareWindows(zero, some)[2]).toMatchObject({ before: 0, after: 5, change: null });
  });
});
