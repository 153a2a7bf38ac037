import type { EdgeView, VertexView } from '../../../engine/contracts/jobs';

/**
 * Which vertices the graph leads the eye to. Pure, so the choice is tested rather than eyeballed.
 */

/**
 * The hottest vertex: the highest busiest-subtask busy time; ties go to the more skewed (a hot key), then the more
 * back-pressured. null when no vertex has a busy figure (a job not running, metrics not in yet).
 */
export function hottestVertex(vertices: readonly VertexView[]): VertexView | null {
  let best: VertexView | null = null;
  for (const vertex of vertices) {
    if (vertex.busyTimeMsPerSecond == null) continue;
    if (!best || compareHeat(vertex, best) > 0) best = vertex;
  }
  return best;
}

function compareHeat(a: VertexView, b: VertexView): number {
  return (
    a.busyTimeMsPerSecond!.max - b.busyTimeMsPerSecond!.max ||
    (a.busySkew ?? 0) - (b.busySkew ?? 0) ||
    (a.backPressuredTimeMsPerSecond?.max ?? 0) - (b.backPressuredTimeMsPerSecond?.max ?? 0)
  );
}

/** Busy at least half the time: the hottest vertex is marked on the graph only then (an idle job has no "hottest"). */
export const HOT_BUSY_MS_PER_SECOND = 500;

/** The vertex to mark as the hottest on the graph, or null when none is busy enough to lead the eye to. */
export function markedHottest(vertices: readonly VertexView[]): VertexView | null {
  const hottest = hottestVertex(vertices);
  return hottest && hottest.busyTimeMsPerSecond!.max >= HOT_BUSY_MS_PER_SECOND ? hottest : null;
}

/**
 * The vertices on a path from a source to `vertexId`, the vertex itself included: what to highlight for the
 * bottleneck the diagnosis names (`highlightPath={upstreamOf(graph.edges, finding.vertexId)}`). Every edge between two
 * of them lies on such a path. Cycles (not expected in a job graph) end the walk.
 */
export function upstreamOf(edges: readonly EdgeView[], vertexId: string): string[] {
  const inputs = new Map<string, string[]>();
  for (const edge of edges) inputs.set(edge.target, [...(inputs.get(edge.target) ?? []), edge.source]);
  const seen = new Set<string>([vertexId]);
  const queue = [vertexId];
  while (queue.length > 0) {
    for (const source of inputs.get(queue.shift()!) ?? []) {
      if (seen.has(source)) continue;
      seen.add(source);
      queue.push(source);
    }
  }
  return [...seen];
}

/**
 * The highlighted path as style sheets for one canvas (`data-graph` = `scope`): every vertex and edge faint but those
 * on the path, whose edges are drawn strong; empty without a path. Style sheets rather than a class on each node and
 * edge: when the diagnosis names another vertex, the page restyles, where a class would re-render every node and edge
 * of a 200-vertex graph (React Flow re-renders them in one task). Each rule's last part names one node or edge, so
 * restyling matches each element against the rules for its own id, not the whole path (a selector list under the
 * node took 25-40 ms to restyle a 200-vertex graph, these 5-13). The vertices' sheet and the edges' apart, so a canvas
 * can restyle them in two frames.
 */
export function pathStyle(scope: string, path: readonly string[] | null, edges: ReadonlyArray<{ id: string; edge: EdgeView }>): { vertices: string; edges: string } {
  if (!path || path.length === 0) return { vertices: '', edges: '' };
  const on = new Set(path);
  const root = `.graph-canvas[data-graph="${cssString(scope)}"]`;
  const onPath = path.map((id) => `${root} .react-flow__node[data-id="${cssString(id)}"]`);
  const pathEdges = edges.filter(({ edge }) => on.has(edge.source) && on.has(edge.target)).map(({ id }) => `${root} .react-flow__edge[data-id="${cssString(id)}"]`);
  return {
    vertices: [`${root} .react-flow__node { opacity: ${OFF_PATH_VERTEX_OPACITY}; }`, `${onPath.join(',\n')} { opacity: 1; }`].join('\n'),
    edges: [
      `${root} .react-flow__edge { opacity: ${OFF_PATH_EDGE_OPACITY}; }`,
      // The stroke through the edge's own custom properties (styles.css: .react-flow__edge-path.ship-edge).
      ...(pathEdges.length > 0 ? [`${pathEdges.join(',\n')} { opacity: 1; --path-stroke: ${PATH_EDGE_COLOUR}; --path-stroke-width: 3; }`] : []),
    ].join('\n'),
  };
}

const OFF_PATH_VERTEX_OPACITY = 0.28;
const OFF_PATH_EDGE_OPACITY = 0.2;
/** The diagnosis's colour (the focus ring and callout in styles.css). */
const PATH_EDGE_COLOUR = '#ff7ad9';

/** A value inside a double-quoted CSS string: its quotes and backslashes escaped, line breaks as escapes. */
function cssString(value: string): string {
  return value.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ');
}
