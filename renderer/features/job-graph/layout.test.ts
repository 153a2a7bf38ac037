import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import type { EdgeView } from '../../../engine/contracts/jobs';
import {
  VERTEX_HEIGHT,
  VERTEX_WIDTH,
  buildElkGraph,
  edgeId,
  LARGE_GRAPH_VERTICES,
  fallbackLayout,
  graphStructureKey,
  readElkLayout,
  usableEdges,
} from './layout';

const vertices = [{ id: 'src' }, { id: 'map' }, { id: 'agg' }, { id: 'sink' }];
const edges: EdgeView[] = [
  { source: 'src', target: 'map', shipStrategy: 'FORWARD' },
  { source: 'map', target: 'agg', shipStrategy: 'HASH' },
  { source: 'agg', target: 'sink', shipStrategy: 'REBALANCE' },
];

describe('buildElkGraph', () => {
  it('asks for a layered left-to-right layout with fixed vertex boxes', () => {
    const graph = buildElkGraph(vertices, edges);
    expect(graph.layoutOptions?.['elk.algorithm']).toBe('layered');
    expect(graph.layoutOptions?.['elk.direction']).toBe('RIGHT');
    expect(graph.children).toEqual(vertices.map((v) => ({ id: v.id, width: VERTEX_WIDTH, height: VERTEX_HEIGHT })));
  });

  it('labels each edge with its ship strategy', () => {
    const graph = buildElkGraph(vertices, edges);
    expect(graph.edges?.map((e) => e.labels?.[0]?.text)).toEqual(['FORWARD', 'HASH', 'REBALANCE']);
    expect(graph.edges?.[1]).toMatchObject({ id: edgeId(edges[1], 1), sources: ['map'], targets: ['agg'] });
  });

  it('lays a large graph out quicker: no room for edge labels (hidden when zoomed out), fewer sweeps', () => {
    const many = Array.from({ length: LARGE_GRAPH_VERTICES }, (_, i) => ({ id: `v${i}` }));
    const chain = many.slice(1).map((v, i): EdgeView => ({ source: many[i].id, target: v.id, shipStrategy: 'HASH' }));
    const graph = buildElkGraph(many, chain);
    expect(graph.edges?.every((e) => e.labels === undefined)).toBe(true);
    expect(graph.layoutOptions?.['elk.layered.thoroughness']).toBe('2');
    expect(buildElkGraph(many.slice(1), chain.slice(1)).edges?.every((e) => e.labels?.length === 1)).toBe(true);
  });

  it('drops edges that name an unknown vertex instead of letting the layout fail', () => {
    const withDangling = [...edges, { source: 'ghost', target: 'sink', shipStrategy: 'HASH' }];
    expect(usableEdges(vertices, withDangling)).toHaveLength(3);
    expect(buildElkGraph(vertices, withDangling).edges).toHaveLength(3);
  });

  it('keeps parallel edges between the same pair apart', () => {
    const twice = [edges[0], { ...edges[0], shipStrategy: 'BROADCAST' }];
    const ids = usableEdges(vertices, twice).map((e) => e.id);
    expect(new Set(ids).size).toBe(2);
  });
});

describe('graphStructureKey', () => {
  it('ignores metrics but notices vertices, edges and strategies', () => {
    // Two refreshes of the same graph with different figures: one key, so the layout is not redone.
    const refresh = (n: number) => vertices.map((v, i) => ({ ...v, recordsInPerSecond: n * 1000 + i, busyTimeMsPerSecond: n * 100 + i }));
    expect(graphStructureKey(refresh(1), edges)).toBe(graphStructureKey(vertices, edges));
    expect(graphStructureKey(refresh(2), edges)).toBe(graphStructureKey(refresh(1), edges));
    expect(graphStructureKey(vertices.slice(1), edges)).not.toBe(graphStructureKey(vertices, edges));
    const rehashed = edges.map((e, i) => (i === 0 ? { ...e, shipStrategy: 'HASH' } : e));
    expect(graphStructureKey(vertices, rehashed)).not.toBe(graphStructureKey(vertices, edges));
  });
});

describe('ELK layout read back', () => {
  it('places each vertex right of its predecessor and routes every edge', async () => {
    const elk = new ELK();
    const layout = readElkLayout(await elk.layout(buildElkGraph(vertices, edges)));
    expect(layout.engine).toBe('elk');
    for (const edge of edges) {
      expect(layout.positions[edge.target].x).toBeGreaterThan(layout.positions[edge.source].x + VERTEX_WIDTH);
    }
    for (const [index, edge] of edges.entries()) {
      const route = layout.edges[edgeId(edge, index)];
      expect(route.points.length).toBeGreaterThanOrEqual(2);
      expect(route.label).not.toBeNull();
    }
  });

  it('lays out 200 vertices', async () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ id: `v${i}` }));
    const chain: EdgeView[] = many.slice(1).map((v, i) => ({
      source: `v${Math.floor(i / 4) * 4}`,
      target: v.id,
      shipStrategy: i % 3 === 0 ? 'HASH' : 'FORWARD',
    }));
    const layout = readElkLayout(await new ELK().layout(buildElkGraph(many, chain)));
    expect(Object.keys(layout.positions)).toHaveLength(200);
  });
});

describe('fallbackLayout', () => {
  it('puts each vertex one column right of its deepest predecessor', () => {
    const layout = fallbackLayout(vertices, edges);
    expect(layout.engine).toBe('fallback');
    const xs = vertices.map((v) => layout.positions[v.id].x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(new Set(xs).size).toBe(4);
  });

  it('survives a cycle', () => {
    const cyclic: EdgeView[] = [
      { source: 'src', target: 'map', shipStrategy: 'FORWARD' },
      { source: 'map', target: 'src', shipStrategy: 'FORWARD' },
    ];
    expect(Object.keys(fallbackLayout(vertices, cyclic).positions)).toHaveLength(4);
  });
});
