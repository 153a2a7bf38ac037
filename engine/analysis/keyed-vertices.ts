/**
 * A `keyBy` edge: Flink prints the `KeyGroupStreamPartitioner` of a keyed exchange as `HASH` in the plan's
 * `ship_strategy`. A vertex reading such an input is keyed: each of its subtasks owns a range of key groups.
 */
export const KEYED_SHIP_STRATEGY = 'HASH';

/** Pure: the ids of the vertices that read at least one hash-partitioned (keyed) input. */
export function keyedVertexIds(edges: ReadonlyArray<{ source: string; target: string; shipStrategy: string }>): Set<string> {
  return new Set(edges.filter((e) => e.shipStrategy.toUpperCase() === KEYED_SHIP_STRATEGY).map((e) => e.target));
}
