import type { StreamGraph } from '../api/datastream.ts';
import type { JobGraph } from '../runtime/job-graph.ts';
import { loadCompletedCheckpoint, type LoadedSnapshot } from './checkpoint-storage.ts';
import { assembleOperatorState, operatorStateSizesOf, planRestore, type RestorePlan } from './restore-assignment.ts';
import type { OperatorStateSnapshot } from './snapshot-model.ts';

/**
 * A checkpoint or savepoint opened and planned against a job graph, ready for the tasks to read (Flink's
 * `Checkpoints.loadAndValidateCheckpoint` + `StateAssignmentOperation`). Throws `CheckpointLoadError` (unreadable,
 * missing) or `RestoreError` (uid without a match, max parallelism) with Flink's messages.
 */
export interface PreparedRestore {
  loaded: LoadedSnapshot;
  plan: RestorePlan;
  allowNonRestoredState: boolean;
  /** Operator state of every old subtask, per operator that has any. */
  operatorState: Map<string, OperatorStateSnapshot[]>;
}

export function prepareRestore(pointer: string | LoadedSnapshot, jobGraph: JobGraph, allowNonRestoredState: boolean): PreparedRestore {
  const loaded = typeof pointer === 'string' ? loadCompletedCheckpoint(pointer) : pointer;
  const operatorState = new Map<string, OperatorStateSnapshot[]>();
  for (const op of loaded.metadata.operators) {
    if (op.operatorState.length === 0) continue;
    operatorState.set(op.operatorId, Array.from({ length: op.parallelism }, (_, i) => loaded.readOperatorState(op.operatorId, i)));
  }
  const plan = planRestore({
    pointer: loaded.externalPath,
    snapshot: loaded.metadata.operators,
    operatorStateSizes: new Map([...operatorState].map(([id, states]) => [id, operatorStateSizesOf(states)])),
    operators: jobGraph.vertices.flatMap((v) =>
      v.operators.map((r) => ({
        operatorId: r.operatorId,
        ...(r.node.uid !== undefined ? { uid: r.node.uid } : {}),
        name: r.node.name,
        parallelism: r.parallelism,
        maxParallelism: r.maxParallelism,
        maxParallelismConfigured: r.node.maxParallelism !== undefined || jobGraph.maxParallelism !== -1,
      })),
    ),
    allowNonRestoredState,
  });
  return { loaded, plan, allowNonRestoredState, operatorState };
}

/**
 * Operators whose max parallelism was derived take the snapshot's (their key groups cannot be re-cut): the stream
 * graph with those max parallelisms set, or the same graph when nothing changes.
 */
export function withRestoredMaxParallelism(graph: StreamGraph, jobGraph: JobGraph, plan: RestorePlan): StreamGraph {
  const byOperator = new Map(plan.operators.map((op) => [op.operatorId, op.maxParallelism]));
  const overrides = new Map<number, number>();
  for (const v of jobGraph.vertices) {
    for (const r of v.operators) {
      const restored = byOperator.get(r.operatorId);
      if (restored !== undefined && restored !== r.maxParallelism) overrides.set(r.node.id, restored);
    }
  }
  if (overrides.size === 0) return graph;
  return { ...graph, nodes: graph.nodes.map((n) => (overrides.has(n.id) ? { ...n, maxParallelism: overrides.get(n.id) } : n)) };
}

/** The list state one new subtask of an operator starts with (undefined when the operator restores nothing). */
export function restoredOperatorState(restore: PreparedRestore, operatorId: string, subtaskIndex: number, stateName: string): unknown[] | undefined {
  const op = restore.plan.operators.find((o) => o.operatorId === operatorId);
  if (!op || !restore.operatorState.has(operatorId)) return undefined;
  const assignment = op.operatorState[subtaskIndex];
  if (!assignment) return [];
  return assembleOperatorState(assignment, restore.operatorState.get(operatorId) ?? [])[stateName]?.partitions ?? [];
}

/** The key groups with state one new subtask of a keyed operator reads. */
export function restoredKeyGroups(restore: PreparedRestore, operatorId: string, subtaskIndex: number): number[] {
  const op = restore.plan.operators.find((o) => o.operatorId === operatorId);
  return op?.keyed[subtaskIndex]?.keyGroupsWithState ?? [];
}

/** Every operator state one new subtask of an operator starts with, by name (empty when it restores none). */
export function restoredOperatorStates(restore: PreparedRestore, operatorId: string, subtaskIndex: number): OperatorStateSnapshot {
  const op = restore.plan.operators.find((o) => o.operatorId === operatorId);
  const assignment = op?.operatorState[subtaskIndex];
  if (!assignment || !restore.operatorState.has(operatorId)) return {};
  return assembleOperatorState(assignment, restore.operatorState.get(operatorId) ?? []);
}
