import type { JobGraph, VertexView } from '../../../engine/contracts/jobs';

/** A vertex that reads a keyed (HASH) input: where a key's key group decides the subtask. */
export interface KeyedVertex {
  id: string;
  name: string;
  parallelism: number;
  maxParallelism: number;
}

/** The job's keyed vertices with a known max parallelism, in graph order. */
export function keyedVertices(graph: JobGraph): KeyedVertex[] {
  const keyed = new Set(graph.edges.filter((e) => e.shipStrategy.toUpperCase() === 'HASH').map((e) => e.target));
  return graph.vertices
    .filter((v) => keyed.has(v.id) && (v.maxParallelism ?? graph.maxParallelism) != null)
    .map((v) => ({ id: v.id, name: v.name, parallelism: v.parallelism, maxParallelism: (v.maxParallelism ?? graph.maxParallelism)! }));
}

/** The keyed vertex to show first: the most skewed one (a hot key shows there), else the last. */
export function defaultKeyedVertex(graph: JobGraph, vertices: KeyedVertex[]): KeyedVertex | null {
  if (vertices.length === 0) return null;
  const skew = (v: KeyedVertex) => graph.vertices.find((x: VertexView) => x.id === v.id)?.busySkew ?? 0;
  return [...vertices].reverse().reduce((best, v) => (skew(v) > skew(best) ? v : best));
}
