import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { EdgeView, VertexView } from '../../../engine/contracts/jobs';

/**
 * Layout input building and reading: pure, so the expensive ELK run happens only when the
 * graph's structure changes (see `graphStructureKey`), never on a metric refresh.
 */

/** Every vertex has the same box, so names never change the layout (long names wrap and truncate). */
export const VERTEX_WIDTH = 264;
export const VERTEX_HEIGHT = 150;

export interface Point {
  x: number;
  y: number;
}

export interface EdgeRoute {
  /** Start, bend points, end, in graph coordinates; empty when the layout had no route for it. */
  points: Point[];
  /** Centre of the ship-strategy label. */
  label: Point | null;
}

export interface GraphLayout {
  positions: Record<string, Point>;
  edges: Record<string, EdgeRoute>;
  width: number;
  height: number;
  /** `elk`, or `fallback` when ELK could not run (the graph still shows, in simple columns). */
  engine: 'elk' | 'fallback';
  /** Where ELK ran: its web worker, or the page when the worker could not start. */
  thread?: 'worker' | 'page';
}

export type LayoutVertex = Pick<VertexView, 'id'>;

/** A stable id per edge, also used by React Flow. Parallel edges between the same pair stay apart. */
export function edgeId(edge: EdgeView, index: number): string {
  return `e${index}:${edge.source}->${edge.target}`;
}

/** Edges whose ends are both vertices of the graph: ELK refuses dangling references. */
export function usableEdges(vertices: readonly LayoutVertex[], edges: readonly EdgeView[]): Array<{ id: string; edge: EdgeView }> {
  const known = new Set(vertices.map((v) => v.id));
  const result: Array<{ id: string; edge: EdgeView }> = [];
  edges.forEach((edge, index) => {
    if (known.has(edge.source) && known.has(edge.target)) result.push({ id: edgeId(edge, index), edge });
  });
  return result;
}

/** What the layout depends on: vertex ids, edges and their labels. Metrics and names are not part of it. */
export function graphStructureKey(vertices: readonly LayoutVertex[], edges: readonly EdgeView[]): string {
  const v = vertices.map((x) => x.id).join(',');
  const e = edges.map((x) => `${x.source}>${x.target}:${x.shipStrategy}`).join(',');
  return `${v}|${e}`;
}

/** Approximate box of an edge label (11px bold monospace caps) so ELK leaves room for it. */
export function labelSize(text: string): { width: number; height: number } {
  return { width: Math.max(28, Math.ceil(text.length * 7.8) + 16), height: 20 };
}

export const ELK_LAYOUT_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.layered.spacing.nodeNodeBetweenLayers': '72',
  'elk.layered.spacing.edgeNodeBetweenLayers': '24',
  'elk.spacing.nodeNode': '36',
  'elk.spacing.edgeNode': '20',
  'elk.spacing.edgeEdge': '12',
  'elk.spacing.edgeLabel': '4',
  'elk.spacing.componentComponent': '56',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.layered.crossingMinimization.strategy': 'LAYER_SWEEP',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.edgeLabels.placement': 'CENTER',
  'elk.padding': '[top=24,left=24,bottom=24,right=24]',
};

/**
 * From this many vertices a graph is "large": it is read zoomed out first (edge labels hidden), so ELK lays it out
 * without room for the labels and with fewer crossing-minimisation sweeps: 200 vertices take ~0.2 s instead of ~1.5 s.
 * A label then sits at the middle of its edge's route.
 */
export const LARGE_GRAPH_VERTICES = 60;

export const LARGE_GRAPH_LAYOUT_OPTIONS: Record<string, string> = {
  ...ELK_LAYOUT_OPTIONS,
  'elk.layered.thoroughness': '2',
};

export function buildElkGraph(vertices: readonly LayoutVertex[], edges: readonly EdgeView[]): ElkNode {
  const large = vertices.length >= LARGE_GRAPH_VERTICES;
  const elkEdges: ElkExtendedEdge[] = usableEdges(vertices, edges).map(({ id, edge }) => ({
    id,
    sources: [edge.source],
    targets: [edge.target],
    ...(large ? {} : { labels: [{ id: `${id}:label`, text: edge.shipStrategy, ...labelSize(edge.shipStrategy) }] }),
  }));
  return {
    id: 'job',
    layoutOptions: large ? LARGE_GRAPH_LAYOUT_OPTIONS : ELK_LAYOUT_OPTIONS,
    children: vertices.map((v) => ({ id: v.id, width: VERTEX_WIDTH, height: VERTEX_HEIGHT })),
    edges: elkEdges,
  };
}

/** Reads ELK's answer into plain positions and routes. */
export function readElkLayout(result: ElkNode): GraphLayout {
  const positions: Record<string, Point> = {};
  for (const child of result.children ?? []) positions[child.id] = { x: child.x ?? 0, y: child.y ?? 0 };
  const routes: Record<string, EdgeRoute> = {};
  for (const edge of (result.edges ?? []) as ElkExtendedEdge[]) {
    const points: Point[] = [];
    for (const section of edge.sections ?? []) {
      points.push(section.startPoint, ...(section.bendPoints ?? []), section.endPoint);
    }
    const label = edge.labels?.[0];
    routes[edge.id] = {
      points: points.map((p) => ({ x: p.x, y: p.y })),
      label:
        label && label.x != null && label.y != null
          ? { x: label.x + (label.width ?? 0) / 2, y: label.y + (label.height ?? 0) / 2 }
          : null,
    };
  }
  return { positions, edges: routes, width: result.width ?? 0, height: result.height ?? 0, engine: 'elk' };
}

/**
 * Columns by longest path from the sources: what the graph falls back to when ELK cannot run,
 * so the page is never blank. Cycles (not expected in a job graph) are broken by visiting order.
 */
export function fallbackLayout(vertices: readonly LayoutVertex[], edges: readonly EdgeView[]): GraphLayout {
  const usable = usableEdges(vertices, edges);
  const incoming = new Map<string, string[]>();
  for (const v of vertices) incoming.set(v.id, []);
  for (const { edge } of usable) incoming.get(edge.target)?.push(edge.source);
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const depthOf = (id: string): number => {
    const known = depth.get(id);
    if (known != null) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    const preds = incoming.get(id) ?? [];
    const d = preds.length === 0 ? 0 : Math.max(...preds.map(depthOf)) + 1;
    visiting.delete(id);
    depth.set(id, d);
    return d;
  };
  const rows = new Map<number, number>();
  const positions: Record<string, Point> = {};
  const colGap = 96;
  const rowGap = 36;
  for (const v of vertices) {
    const column = depthOf(v.id);
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    positions[v.id] = { x: 24 + column * (VERTEX_WIDTH + colGap), y: 24 + row * (VERTEX_HEIGHT + rowGap) };
  }
  const columns = Math.max(0, ...depth.values()) + 1;
  const maxRows = Math.max(0, ...rows.values());
  return {
    positions,
    edges: {},
    width: 48 + columns * (VERTEX_WIDTH + colGap),
    height: 48 + maxRows * (VERTEX_HEIGHT + rowGap),
    engine: 'fallback',
  };
}
