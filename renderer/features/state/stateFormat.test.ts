import { describe, expect, it } from 'vitest';
import type { StateVertexView } from '../../../engine/contracts/state';
import { chartedSubtasks, formatGrowth, subtaskChartRows, verticesInOrder } from './stateFormat';

const vertex = (sizes: number[], hot: number[]): StateVertexView =>
  ({
    hotSubtasks: hot,
    subtasks: sizes.map((stateBytes, index) => ({ index, stateBytes })),
  }) as unknown as StateVertexView;

describe('formatGrowth', () => {
  it('signs the rate and says unknown as a dash', () => {
    expect(formatGrowth(2.1 * 1024 ** 3)).toBe('+2.1 GiB/h');
    expect(formatGrowth(-120 * 1024)).toBe('−120 KiB/h');
    expect(formatGrowth(0)).toBe('+0 B/h');
    expect(formatGrowth(null)).toBe('—');
  });
});

describe('the per-subtask chart', () => {
  it('draws the hot subtasks first, then the largest, at most `top`', () => {
    expect(chartedSubtasks(vertex([10, 50, 30, 40, 20], [2]), 3)).toEqual([2, 1, 3]);
    expect(chartedSubtasks(vertex([10, 50], []), 4)).toEqual([1, 0]);
  });

  it('sums the other subtasks into the rest, unknown when one of them is not reported', () => {
    const rows = subtaskChartRows(
      [
        { checkpointId: 1, t: 1000, totalBytes: 60, subtaskBytes: [10, 20, 30] },
        { checkpointId: 2, t: 2000, totalBytes: null, subtaskBytes: [null, 25, 35] },
        { checkpointId: 3, t: 3000, totalBytes: null, subtaskBytes: null },
      ],
      [2],
    );
    expect(rows[0]).toEqual({ checkpointId: 1, t: 1000, s2: 30, rest: 30 });
    expect(rows[1]).toEqual({ checkpointId: 2, t: 2000, s2: 35, rest: null });
    expect(rows[2]).toEqual({ checkpointId: 3, t: 3000, s2: null, rest: null });
  });
});

describe('verticesInOrder', () => {
  const v = (vertexId: string, totalBytes: number | null) => ({ vertexId, totalBytes }) as unknown as StateVertexView;
  it('puts the vertex the sentence names first, then the most state, sizes not known last', () => {
    const order = verticesInOrder([v('source', 512), v('unknown', null), v('counter', 40_000), v('blocklist', 7_800_000), v('sink', 0)], 'counter');
    expect(order.map((x) => x.vertexId)).toEqual(['counter', 'blocklist', 'source', 'sink', 'unknown']);
    expect(verticesInOrder([v('a', 1), v('b', 2)], null).map((x) => x.vertexId)).toEqual(['b', 'a']);
  });
});
