import { describe, expect, it } from 'vitest';
import type { MetricAggregate, VertexView } from '../../../engine/contracts/jobs';
import { DEFAULT_VERTEX_SORT, filterVertices, nextVertexRows, nextVertexSort, sortVertices, toVertexRows } from './vertexList';

const aggregate = (max: number): MetricAggregate => ({ min: 0, max, avg: max / 2, sum: max * 2 });
const vertex = (id: string, name: string, busy: number | null, backPressured: number | null, skew: number | null): VertexView => ({
  id,
  name,
  parallelism: 4,
  maxParallelism: 128,
  status: 'RUNNING',
  tasks: {},
  recordsInPerSecond: busy,
  recordsOutPerSecond: null,
  busyTimeMsPerSecond: busy == null ? null : aggregate(busy),
  backPressuredTimeMsPerSecond: backPressured == null ? null : aggregate(backPressured),
  idleTimeMsPerSecond: null,
  busySkew: skew,
  dataSkewPercent: null,
  backpressureLevel: backPressured == null ? null : backPressured > 500 ? 'high' : 'ok',
});

const rows = toVertexRows([
  vertex('aa01', 'Source: events -> parse', 200, 700, 1.1),
  vertex('aa02', 'KeyedProcess 12', null, null, null),
  vertex('aa03', 'tenant-cost -> Sink: Writer 110', 1000, 0, 23.4),
  vertex('aa04', 'Map 13', 450, 20, 1.3),
]);
const ids = (list: readonly { id: string }[]) => list.map((r) => r.id);

describe('the vertex list', () => {
  it('starts with the hottest vertex first, the ones without figures last', () => {
    expect(ids(sortVertices(rows, DEFAULT_VERTEX_SORT))).toEqual(['aa03', 'aa04', 'aa01', 'aa02']);
  });

  it('sorts by back-pressure, skew and name, both ways, missing figures last either way', () => {
    expect(ids(sortVertices(rows, { column: 'backPressuredMax', direction: 'desc' }))).toEqual(['aa01', 'aa04', 'aa03', 'aa02']);
    expect(ids(sortVertices(rows, { column: 'skew', direction: 'asc' }))).toEqual(['aa01', 'aa04', 'aa03', 'aa02']);
    expect(ids(sortVertices(rows, { column: 'name', direction: 'asc' }))).toEqual(['aa02', 'aa04', 'aa01', 'aa03']);
    expect(ids(sortVertices(rows, { column: 'order', direction: 'asc' }))).toEqual(['aa01', 'aa02', 'aa03', 'aa04']);
  });

  it('keeps the job order between equal figures', () => {
    const same = toVertexRows([vertex('b1', 'x', 500, 0, 1), vertex('b2', 'y', 500, 0, 1), vertex('b3', 'z', 500, 0, 1)]);
    expect(ids(sortVertices(same, { column: 'busyMax', direction: 'desc' }))).toEqual(['b1', 'b2', 'b3']);
  });

  it('finds a vertex by any words of its name, in any case and order, or by the start of its id', () => {
    expect(ids(filterVertices(rows, 'tenant cost'))).toEqual(['aa03']);
    expect(ids(filterVertices(rows, 'WRITER tenant'))).toEqual(['aa03']);
    expect(ids(filterVertices(rows, 'tenant-cost'))).toEqual(['aa03']);
    expect(ids(filterVertices(rows, 'aa04'))).toEqual(['aa04']);
    expect(ids(filterVertices(rows, 'sink map'))).toEqual([]);
    expect(filterVertices(rows, '  ')).toBe(rows);
  });

  it('flips a sorted column, and starts a new one with its worst first', () => {
    expect(nextVertexSort(DEFAULT_VERTEX_SORT, 'busyMax')).toEqual({ column: 'busyMax', direction: 'asc' });
    expect(nextVertexSort(DEFAULT_VERTEX_SORT, 'skew')).toEqual({ column: 'skew', direction: 'desc' });
    expect(nextVertexSort(DEFAULT_VERTEX_SORT, 'name')).toEqual({ column: 'name', direction: 'asc' });
  });
});

describe('the vertex list after a refresh', () => {
  const first = nextVertexRows([], [vertex('aa01', 'Source', 200, 0, 1.1), vertex('aa02', 'Map', 450, 20, 1.3)]);

  it('is the same list when no figure changed, so nothing is sorted or drawn again', () => {
    expect(nextVertexRows(first, [vertex('aa01', 'Source', 200, 0, 1.1), vertex('aa02', 'Map', 450, 20, 1.3)])).toBe(first);
  });

  it('keeps the row of an unchanged vertex and makes a new one for a vertex that moved', () => {
    const next = nextVertexRows(first, [vertex('aa01', 'Source', 200, 0, 1.1), vertex('aa02', 'Map', 460, 20, 1.3)]);
    expect(next).not.toBe(first);
    expect(next[0]).toBe(first[0]);
    expect(next[1]).not.toBe(first[1]);
    expect(next[1].busyMax).toBe(460);
  });
});
