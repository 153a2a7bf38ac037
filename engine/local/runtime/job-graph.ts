import { murmur3x64_128Hex } from '../../analysis/key-groups/murmur.ts';
import { checkParallelismAgainstMax, computeDefaultMaxParallelism } from '../../analysis/key-groups/key-group-range-assignment.ts';
import type { StreamEdge, StreamGraph, StreamNode } from '../api/datastream.ts';

/**
 * StreamGraph → JobGraph, as Flink's `StreamingJobGraphGenerator` does it: operators joined by chainable edges
 * (forward, equal parallelism, single input, chaining allowed, same slot sharing group) form one job vertex (task);
 * keyBy, rebalance and parallelism changes end a chain. Operator IDs are Flink's: murmur3_128 of the uid, and a
 * vertex's ID is its head operator's ID, so vertex IDs equal a real cluster's for the same uids.
 */

export type ShipStrategy = 'FORWARD' | 'HASH' | 'REBALANCE' | 'BROADCAST';

export interface ResolvedNode {
  node: StreamNode;
  operatorId: string;
  parallelism: number;
  maxParallelism: number;
}

export interface JobEdge {
  source: JobVertex;
  target: JobVertex;
  /** The stream edge crossing the vertex boundary (from an operator in `source` to the head of `target`). */
  streamEdge: StreamEdge;
  shipStrategy: ShipStrategy;
}

export interface JobVertex {
  id: string;
  name: string;
  /** Flink's TREE vertex description (`pipeline.vertex-description-mode`). */
  description: string;
  parallelism: number;
  maxParallelism: number;
  slotSharingGroup: string;
  slotSharingGroupId: string;
  head: ResolvedNode;
  /** Chain members in topological order (head first). */
  operators: ResolvedNode[];
  /** Edges between operators of this chain. */
  chainedEdges: StreamEdge[];
  isSource: boolean;
  inputs: JobEdge[];
  outputs: JobEdge[];
}

export interface JobGraph {
  jobName: string;
  /** Topological order. */
  vertices: JobVertex[];
  edges: JobEdge[];
  /** The job-wide max parallelism setting, or -1 when the default rule applies per operator. */
  maxParallelism: number;
  defaultParallelism: number;
}

/** The ship strategy of a stream edge once parallelism is known (Flink picks forward or rebalance by default). */
export function resolvePartitioning(edge: StreamEdge, up: ResolvedNode, down: ResolvedNode): ShipStrategy {
  switch (edge.partitioning) {
    case 'HASH':
      return 'HASH';
    case 'REBALANCE':
      return 'REBALANCE';
    case 'BROADCAST':
      return 'BROADCAST';
    case 'FORWARD':
      if (up.parallelism !== down.parallelism) {
        throw new Error(
          `Forward partitioning does not allow change of parallelism. Upstream operation: ${up.node.name} parallelism: ` +
            `${up.parallelism}, downstream operation: ${down.node.name} parallelism: ${down.parallelism}. ` +
            'You must use another partitioning strategy, such as broadcast, rebalance, shuffle or global.',
        );
      }
      return 'FORWARD';
    default:
      return up.parallelism === down.parallelism ? 'FORWARD' : 'REBALANCE';
  }
}

export function buildJobGraph(graph: StreamGraph): JobGraph {
  const resolved = new Map<number, ResolvedNode>();
  for (const node of graph.nodes) {
    const parallelism = node.parallelism ?? graph.defaultParallelism;
    const maxParallelism = node.maxParallelism ?? graph.maxParallelism ?? computeDefaultMaxParallelism(parallelism);
    checkParallelismAgainstMax(node.uid ?? node.name, parallelism, maxParallelism);
    const operatorId = murmur3x64_128Hex(node.uid ?? `${graph.jobName}/${node.id}/${node.name}`);
    resolved.set(node.id, { node, operatorId, parallelism, maxParallelism });
  }
  const seenIds = new Set<string>();
  for (const r of resolved.values()) {
    if (seenIds.has(r.operatorId)) throw new Error(`Two operators share the ID ${r.operatorId}: give each a unique uid.`);
    seenIds.add(r.operatorId);
  }
  const inEdges = new Map<number, StreamEdge[]>();
  const outEdges = new Map<number, StreamEdge[]>();
  for (const e of graph.edges) {
    if (!resolved.has(e.source) || !resolved.has(e.target)) throw new Error(`Edge ${e.source}→${e.target} references an unknown operator.`);
    if (e.target <= e.source) throw new Error('The stream graph must be acyclic, built in topological order.');
    (inEdges.get(e.target) ?? inEdges.set(e.target, []).get(e.target)!).push(e);
    (outEdges.get(e.source) ?? outEdges.set(e.source, []).get(e.source)!).push(e);
  }
  const isChainable = (e: StreamEdge): boolean => {
    const up = resolved.get(e.source)!;
    const down = resolved.get(e.target)!;
    return (
      (inEdges.get(e.target)?.length ?? 0) === 1 &&
      resolvePartitioning(e, up, down) === 'FORWARD' &&
      up.parallelism === down.parallelism &&
      down.node.chaining === 'ALWAYS' &&
      up.node.chaining !== 'NEVER' &&
      down.node.kind !== 'source' &&
      up.node.slotSharingGroup === down.node.slotSharingGroup
    );
  };

  const vertexOf = new Map<number, JobVertex>();
  const vertices: JobVertex[] = [];
  for (const node of [...graph.nodes].sort((a, b) => a.id - b.id)) {
    const r = resolved.get(node.id)!;
    const incoming = inEdges.get(node.id) ?? [];
    if (node.kind !== 'source' && incoming.length === 0) throw new Error(`Operator "${node.name}" has no input.`);
    const chainedFrom = incoming.length === 1 && isChainable(incoming[0]) ? vertexOf.get(incoming[0].source) : undefined;
    if (chainedFrom) {
      chainedFrom.operators.push(r);
      chainedFrom.chainedEdges.push(incoming[0]);
      vertexOf.set(node.id, chainedFrom);
      continue;
    }
    const vertex: JobVertex = {
      id: r.operatorId,
      name: '',
      description: '',
      parallelism: r.parallelism,
      maxParallelism: r.maxParallelism,
      slotSharingGroup: node.slotSharingGroup,
      slotSharingGroupId: murmur3x64_128Hex(`slot-sharing-group/${graph.jobName}/${node.slotSharingGroup}`),
      head: r,
      operators: [r],
      chainedEdges: [],
      isSource: node.kind === 'source',
      inputs: [],
      outputs: [],
    };
    vertexOf.set(node.id, vertex);
    vertices.push(vertex);
  }

  const edges: JobEdge[] = [];
  for (const e of graph.edges) {
    const source = vertexOf.get(e.source)!;
    const target = vertexOf.get(e.target)!;
    if (source === target) continue;
    const jobEdge: JobEdge = {
      source,
      target,
      streamEdge: e,
      shipStrategy: resolvePartitioning(e, resolved.get(e.source)!, resolved.get(e.target)!),
    };
    source.outputs.push(jobEdge);
    target.inputs.push(jobEdge);
    edges.push(jobEdge);
  }

  for (const vertex of vertices) {
    const chainedChildren = (id: number) => vertex.chainedEdges.filter((e) => e.source === id).map((e) => e.target);
    const nameOf = (id: number): string => {
      const name = resolved.get(id)!.node.name;
      const children = chainedChildren(id);
      if (children.length === 0) return name;
      if (children.length === 1) return `${name} -> ${nameOf(children[0])}`;
      return `${name} -> (${children.map(nameOf).join(', ')})`;
    };
    const describe = (id: number, indent: string): string => {
      const lines = [`${indent}${resolved.get(id)!.node.name}`];
      for (const child of chainedChildren(id)) lines.push(describe(child, indent === '' ? '+- ' : `   ${indent}`));
      return lines.join('\n');
    };
    vertex.name = nameOf(vertex.head.node.id);
    vertex.description = `${describe(vertex.head.node.id, '')}\n`;
  }

  return {
    jobName: graph.jobName,
    vertices,
    edges,
    maxParallelism: graph.maxParallelism ?? -1,
    defaultParallelism: graph.defaultParallelism,
  };
}

/** Slots a job needs with slot sharing: the highest parallelism in each slot sharing group, summed. */
export function requiredSlots(jobGraph: JobGraph): number {
  const perGroup = new Map<string, number>();
  for (const v of jobGraph.vertices) perGroup.set(v.slotSharingGroup, Math.max(perGroup.get(v.slotSharingGroup) ?? 0, v.parallelism));
  let total = 0;
  for (const n of perGroup.values()) total += n;
  return total;
}
