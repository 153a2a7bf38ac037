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
