import {
  computeKeyGroupRangeForOperatorIndex,
  keyGroupRangeContains,
  type KeyGroupRange,
} from '../../analysis/key-groups/key-group-range-assignment.ts';
import { operatorHasState, type NamedOperatorState, type OperatorSnapshotMetadata, type OperatorStateSnapshot } from './snapshot-model.ts';

/**
 * Which state each subtask of a (possibly rescaled) job reads on restore, as Flink's `Checkpoints.loadAndValidateCheckpoint`
 * and `StateAssignmentOperation` decide it. Pure: the snapshot's metadata and the new job's operators in, a plan out.
 *
 * - Operators are matched by operator ID (Flink derives it from the uid; the local engine too).
 * - State of an operator the new job does not have → error, unless `allowNonRestoredState` (then it is skipped);
 *   operators without any state are skipped silently; new operators without state start empty.
 * - Max parallelism: if the new operator's max parallelism was set explicitly and differs → error; if it was derived
 *   by default, the new job takes the snapshot's. A parallelism above the snapshot's max parallelism → error.
 * - Keyed state: new subtask i reads exactly the key groups of `computeKeyGroupRangeForOperatorIndex(maxP, p, i)`.
 * - Operator state (`RoundRobinOperatorStateRepartitioner`): unchanged parallelism keeps each subtask's lists;
 *   otherwise SPLIT_DISTRIBUTE lists are concatenated in subtask order and cut into contiguous, near-even chunks
 *   (the first `total % p` subtasks, counted from a start index that rotates per state, get one more), UNION lists go
 *   whole to every subtask, BROADCAST gives subtask i the list of old subtask `i % oldP`.
 */

/** An operator of the job being started. */
export interface RestoringOperator {
  operatorId: string;
  uid?: string;
  name?: string;
  parallelism: number;
  maxParallelism: number;
  /**
   * Whether the max parallelism was set explicitly (`setMaxParallelism` / `pipeline.max-parallelism`); a derived
   * default yields to the snapshot's. @default true
   */
  maxParallelismConfigured?: boolean;
}

/** The key groups one new subtask reads. */
export interface SubtaskKeyedRestore {
  subtaskIndex: number;
  keyGroupRange: KeyGroupRange;
  /** Key groups of the range that have a file in the snapshot (others are empty), ascending. */
  keyGroupsWithState: number[];
}

export interface OperatorRestore {
  operatorId: string;
  uid?: string;
  parallelism: number;
  /** The max parallelism the restored operator runs with (the snapshot's when it was not configured). */
  maxParallelism: number;
  /** The snapshot's parallelism of this operator. */
  previousParallelism: number;
  /** Per new subtask (empty for an operator without keyed state). */
  keyed: SubtaskKeyedRestore[];
  /** Per new subtask: for each named state, which old subtasks' lists (and which slice of them) it receives. */
  operatorState: OperatorStateAssignment[];
}

/** The operator state one new subtask gets, as references into the old subtasks' lists. */
export interface OperatorStateAssignment {
  subtaskIndex: number;
  states: Record<string, { mode: NamedOperatorState['mode']; parts: Array<{ fromSubtask: number; start: number; end: number }> }>;
}

export interface RestorePlan {
  /** Operators whose state is restored. */
  operators: OperatorRestore[];
  /** Snapshot operators skipped under `allowNonRestoredState` (or without state). */
  skipped: Array<{ operatorId: string; uid?: string; hadState: boolean }>;
  /** New operators with no state in the snapshot. */
  fresh: Array<{ operatorId: string; uid?: string }>;
}

/** Restoring is impossible; the message says why and what to change (Flink's wording first). */
export class RestoreError extends Error {
  constructor(
    message: string,
    readonly reason: 'NON_RESTORED_STATE' | 'MAX_PARALLELISM_MISMATCH' | 'PARALLELISM_ABOVE_MAX_PARALLELISM' | 'OPERATOR_STATE_SHAPE',
  ) {
    super(message);
    this.name = 'IllegalStateException';
  }
}

function describe(op: { operatorId: string; uid?: string }): string {
  return op.uid !== undefined ? `${op.operatorId} (uid "${op.uid}")` : op.operatorId;
}

export interface RestorePlanInput {
  /** The snapshot's location, for messages (e.g. `file:/…/savepoint-ee3324-a4be710cc718`). */
  pointer: string;
  /** The snapshot's operators (`_metadata.operators`). */
  snapshot: readonly OperatorSnapshotMetadata[];
  /** How many list partitions each old subtask holds per named operator state (read from the files). */
  operatorStateSizes?: ReadonlyMap<string, ReadonlyArray<Record<string, { mode: NamedOperatorState['mode']; size: number }>>>;
  operators: readonly RestoringOperator[];
  allowNonRestoredState: boolean;
}

export function planRestore(input: RestorePlanInput): RestorePlan {
  const newById = new Map(input.operators.map((op) => [op.operatorId, op]));
  const plan: RestorePlan = { operators: [], skipped: [], fresh: [] };
  const restored = new Set<string>();
  for (const old of input.snapshot) {
    const target = newById.get(old.operatorId);
    if (!target) {
      const hadState = operatorHasState(old);
      if (hadState && !input.allowNonRestoredState) {
        throw new RestoreError(
          `Failed to rollback to checkpoint/savepoint ${input.pointer}. Cannot map checkpoint/savepoint state for operator ${describe(old)} to the new program, ` +
            'because the operator is not available in the new program. If you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI. ' +
            '(REST: "allowNonRestoredState": true in the /jars/:jarid/run body.)',
          'NON_RESTORED_STATE',
        );
      }
      plan.skipped.push({ operatorId: old.operatorId, ...(old.uid !== undefined ? { uid: old.uid } : {}), hadState });
      continue;
    }
    restored.add(old.operatorId);
    const configured = target.maxParallelismConfigured ?? true;
    if (old.maxParallelism !== target.maxParallelism && configured) {
      throw new RestoreError(
        `Failed to rollback to checkpoint/savepoint ${input.pointer}. Max parallelism mismatch between checkpoint/savepoint state and new program. ` +
          `Cannot map operator ${describe(old)} with max parallelism ${old.maxParallelism} to new program with max parallelism ${target.maxParallelism}. ` +
          'This indicates that the program has been changed in a non-compatible way after the checkpoint/savepoint. ' +
          `Keep the max parallelism at ${old.maxParallelism} to restore this state (key groups cannot be re-cut).`,
        'MAX_PARALLELISM_MISMATCH',
      );
    }
    const maxParallelism = old.maxParallelism;
    if (target.parallelism > maxParallelism) {
      throw new RestoreError(
        `The state for task ${describe(old)} can not be restored. The maximum parallelism (${maxParallelism}) of the restored state is lower than the configured parallelism (${target.parallelism}). ` +
          'Please reduce the parallelism of the task to be lower or equal to the maximum parallelism.',
        'PARALLELISM_ABOVE_MAX_PARALLELISM',
      );
    }
    const withState = new Set(old.keyedState.filter((f) => f.entries > 0 || f.timers > 0).map((f) => f.keyGroup));
    const keyed: SubtaskKeyedRestore[] =
      old.keyedState.length === 0 && old.keyGroupRanges === undefined
        ? []
        : Array.from({ length: target.parallelism }, (_, i) => {
            const range = computeKeyGroupRangeForOperatorIndex(maxParallelism, target.parallelism, i);
            const kgs = [...withState].filter((kg) => keyGroupRangeContains(range, kg)).sort((a, b) => a - b);
            return { subtaskIndex: i, keyGroupRange: range, keyGroupsWithState: kgs };
          });
    const sizes = input.operatorStateSizes?.get(old.operatorId) ?? defaultSizes(old);
    plan.operators.push({
      operatorId: target.operatorId,
      ...(target.uid !== undefined ? { uid: target.uid } : {}),
      parallelism: target.parallelism,
      maxParallelism,
      previousParallelism: old.parallelism,
      keyed,
      operatorState: repartitionOperatorState(sizes, old.parallelism, target.parallelism),
    });
  }
  for (const op of input.operators) {
    if (!restored.has(op.operatorId)) plan.fresh.push({ operatorId: op.operatorId, ...(op.uid !== undefined ? { uid: op.uid } : {}) });
  }
  return plan;
}

/** Without sizes, each listed state of each old subtask counts as one partition. */
function defaultSizes(old: OperatorSnapshotMetadata): Array<Record<string, { mode: NamedOperatorState['mode']; size: number }>> {
  if (old.operatorState.length > 0) {
    throw new RestoreError(
      `Operator ${describe(old)} has operator state: pass operatorStateSizes (partition counts per state) to plan its redistribution.`,
      'OPERATOR_STATE_SHAPE',
    );
  }
  return Array.from({ length: old.parallelism }, () => ({}));
}

/** The partition counts of loaded operator states (`readOperatorState` per old subtask). */
export function operatorStateSizesOf(states: readonly OperatorStateSnapshot[]): Array<Record<string, { mode: NamedOperatorState['mode']; size: number }>> {
  return states.map((s) => Object.fromEntries(Object.entries(s).map(([name, st]) => [name, { mode: st.mode, size: st.partitions.length }])));
}

/**
 * `RoundRobinOperatorStateRepartitioner.repartitionState` on partition counts. `previous[i]` are old subtask i's
 * states. Named states are processed in name order (Flink iterates a HashMap; any fixed order is equivalent).
 */
export function repartitionOperatorState(
  previous: ReadonlyArray<Record<string, { mode: NamedOperatorState['mode']; size: number }>>,
  oldParallelism: number,
  newParallelism: number,
): OperatorStateAssignment[] {
  if (previous.length !== oldParallelism) {
    throw new RestoreError(`Operator state of ${previous.length} subtasks given for an old parallelism of ${oldParallelism}.`, 'OPERATOR_STATE_SHAPE');
  }
  if (!(Number.isInteger(newParallelism) && newParallelism > 0)) throw new RangeError(`The new parallelism must be > 0, got ${newParallelism}.`);
  const result: OperatorStateAssignment[] = Array.from({ length: newParallelism }, (_, i) => ({ subtaskIndex: i, states: {} }));
  const byName = new Map<string, { mode: NamedOperatorState['mode']; sizes: Array<{ fromSubtask: number; size: number }> }>();
  previous.forEach((states, fromSubtask) => {
    for (const [name, { mode, size }] of Object.entries(states)) {
      const entry = byName.get(name) ?? { mode, sizes: [] };
      if (entry.mode !== mode) throw new RestoreError(`Operator state "${name}" is ${entry.mode} in one subtask and ${mode} in another.`, 'OPERATOR_STATE_SHAPE');
      entry.sizes.push({ fromSubtask, size });
      byName.set(name, entry);
    }
  });
  const names = [...byName.keys()].sort();
  const add = (subtask: number, name: string, mode: NamedOperatorState['mode'], part: { fromSubtask: number; start: number; end: number }) => {
    const states = result[subtask].states;
    (states[name] ??= { mode, parts: [] }).parts.push(part);
  };

  if (newParallelism === oldParallelism) {
    // Split and broadcast state stay where they are; union state is handed to everyone.
    for (const name of names) {
      const { mode, sizes } = byName.get(name)!;
      for (const { fromSubtask, size } of sizes) {
        if (mode === 'UNION') for (let i = 0; i < newParallelism; i++) add(i, name, mode, { fromSubtask, start: 0, end: size });
        else add(fromSubtask, name, mode, { fromSubtask, start: 0, end: size });
      }
    }
    return result;
  }

  let startParallelOp = 0;
  for (const name of names) {
    const { mode, sizes } = byName.get(name)!;
    if (mode === 'UNION') {
      for (let i = 0; i < newParallelism; i++) for (const { fromSubtask, size } of sizes) add(i, name, mode, { fromSubtask, start: 0, end: size });
      continue;
    }
    if (mode === 'BROADCAST') {
      for (let i = 0; i < newParallelism; i++) {
        const { fromSubtask, size } = sizes[i % sizes.length];
        add(i, name, mode, { fromSubtask, start: 0, end: size });
      }
      continue;
    }
    // SPLIT_DISTRIBUTE
    const total = sizes.reduce((s, x) => s + x.size, 0);
    const baseFraction = Math.floor(total / newParallelism);
    let remainder = total % newParallelism;
    let newStartParallelOp = startParallelOp;
    let listIndex = 0;
    let offset = 0;
    for (let i = 0; i < newParallelism; i++) {
      const op = (i + startParallelOp) % newParallelism;
      let toAssign = baseFraction;
      if (remainder > 0) {
        toAssign++;
        remainder--;
      } else if (remainder === 0) {
        newStartParallelOp = op;
        remainder--;
      }
      while (toAssign > 0) {
        const { fromSubtask, size } = sizes[listIndex];
        const left = size - offset;
        if (left > toAssign) {
          add(op, name, mode, { fromSubtask, start: offset, end: offset + toAssign });
          offset += toAssign;
        } else {
          if (left > 0) add(op, name, mode, { fromSubtask, start: offset, end: size });
          offset = 0;
          listIndex++;
        }
        toAssign -= left;
      }
    }
    startParallelOp = newStartParallelOp;
  }
  return result;
}

/** Materializes an assignment: the lists one new subtask starts with, from the old subtasks' loaded states. */
export function assembleOperatorState(assignment: OperatorStateAssignment, previous: readonly OperatorStateSnapshot[]): OperatorStateSnapshot {
  const out: OperatorStateSnapshot = {};
  for (const [name, { mode, parts }] of Object.entries(assignment.states)) {
    const partitions: unknown[] = [];
    for (const p of parts) partitions.push(...(previous[p.fromSubtask]?.[name]?.partitions ?? []).slice(p.start, p.end));
    out[name] = { mode, partitions };
  }
  return out;
}
