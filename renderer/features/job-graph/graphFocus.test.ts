import { describe, expect, it } from 'vitest';
import type { EdgeView, MetricAggregate, VertexView } from '../../../engine/contracts/jobs';
import { HOT_BUSY_MS_PER_SECOND, hottestVertex, markedHottest, pathStyle, upstreamOf } from './graphFocus';

const aggregate = (max: number, avg = max): MetricAggregate => ({ min: 0, max, avg, sum: avg * 4 });
const vertex = (id: string, busyMax: number | null, extra: Partial<VertexView> = {}): VertexView => ({
  id,
  name: id,
  parallelism: 4,
  maxParallelism: 128,
  status: 'RUNNING',
  tasks: {},
  recordsInPerSecond: null,
  recordsOutPerSecond: null,
  busyTimeMsPerSecond: busyMax == null ? null : aggregate(busyMax, busyMax / 2),
  backPressuredTimeMsPerSecond: null,
  idleTimeMsPerSecond: null,
  busySkew: busyMax == null ? null : 2,
  dataSkewPercent: null,
  backpressureLevel: null,
  ...extra,
});

describe('hottestVertex', () => {
  it('is the vertex whose busiest subtask is the busiest', () => {
    expect(hottestVertex([vertex('a', 300), vertex('b', 1000), vertex('c', 700)])?.id).toBe('b');
  });

  it('breaks a tie of saturated vertices by skew (a hot key), then by back-pressure', () => {
    const even = vertex('even', 1000, { busySkew: 1.1 });
    const hotKey = vertex('hot-key', 1000, { busySkew: 23.5 });
    expect(hottestVertex([even, hotKey])?.id).toBe('hot-key');
    const calm = vertex('calm', 1000, { backPressuredTimeMsPerSecond: aggregate(0) });
    const pressed = vertex('pressed', 1000, { backPressuredTimeMsPerSecond: aggregate(800) });
    expect(hottestVertex([calm, pressed])?.id).toBe('pressed');
  });

  it('is none when no vertex has a busy figure yet', () => {
    expect(hottestVertex([vertex('a', null), vertex('b', null)])).toBeNull();
    expect(hottestVertex([])).toBeNull();
  });

  it('is marked on the graph only when busy at least half the time: an idle job has no hottest vertex', () => {
    expect(markedHottest([vertex('a', 40), vertex('b', HOT_BUSY_MS_PER_SECOND - 1)])).toBeNull();
    expect(markedHottest([vertex('a', 40), vertex('b', HOT_BUSY_MS_PER_SECOND)])?.id).toBe('b');
  });
});

describe('upstreamOf', () => {
  //  s1 ─▶ a ─▶ c ─▶ sink
  //  s2 ─▶ b ─┘      ▲
  //  s3 ─────────────┘
  const edges: EdgeView[] = [
    { source: 's1', target: 'a', shipStrategy: 'FORWARD' },
    { source: 's2', target: 'b', shipStrategy: 'FORWARD' },
    { source: 'a', target: 'c', shipStrategy: 'HASH' },
    { source: 'b', target: 'c', shipStrategy: 'HASH' },
    { source: 'c', target: 'sink', shipStrategy: 'REBALANCE' },
    { source: 's3', target: 'sink', shipStrategy: 'HASH' },
  ];

  it('is every vertex on a path from a source to the vertex, the vertex included', () => {
    expect(upstreamOf(edges, 'c').sort()).toEqual(['a', 'b', 'c', 's1', 's2']);
    expect(upstreamOf(edges, 'sink').sort()).toEqual(['a', 'b', 'c', 's1', 's2', 's3', 'sink']);
  });

  it('is the source alone for a source, and ends on a cycle', () => {
    expect(upstreamOf(edges, 's1')).toEqual(['s1']);
    expect(upstreamOf([{ source: 'x', target: 'y', shipStrategy: 'HASH' }, { source: 'y', target: 'x', shipStrategy: 'HASH' }], 'x').sort()).toEqual(['x', 'y']);
  });
});

describe('pathStyle', () => {
  const edge = (source: string, target: string): EdgeView => ({ source, target, shipStrategy: 'HASH' });
  const edges = [
    { id: 'e0:a->b', edge: edge('a', 'b') },
    { id: 'e1:b->c', edge: edge('b', 'c') },
    { id: 'e2:x->c', edge: edge('x', 'c') },
  ];

  it('is empty without a path', () => {
    expect(pathStyle('g1', null, edges)).toEqual({ vertices: '', edges: '' });
    expect(pathStyle('g1', [], edges)).toEqual({ vertices: '', edges: '' });
  });

  it("dims the canvas's vertices and edges, and draws the path's own whole", () => {
    const css = pathStyle('g1', ['a', 'b'], edges);
    expect(css.vertices).toBe(
      '.graph-canvas[data-graph="g1"] .react-flow__node { opacity: 0.28; }\n' +
        '.graph-canvas[data-graph="g1"] .react-flow__node[data-id="a"],\n.graph-canvas[data-graph="g1"] .react-flow__node[data-id="b"] { opacity: 1; }',
    );
    // Only the edge with both ends on the path is strong.
    expect(css.edges).toBe(
      '.graph-canvas[data-graph="g1"] .react-flow__edge { opacity: 0.2; }\n' +
        '.graph-canvas[data-graph="g1"] .react-flow__edge[data-id="e0:a->b"] { opacity: 1; --path-stroke: #ff7ad9; --path-stroke-width: 3; }',
    );
  });

  it('escapes what would end a quoted selector', () => {
    expect(pathStyle('«r1»', ['we"ird\\'], []).vertices).toContain('.react-flow__node[data-id="we\\"ird\\\\"]');
  });
});
