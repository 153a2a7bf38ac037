import { describe, expect, it } from 'vitest';
import { computeKeyGroupRangeForOperatorIndex } from '../../analysis/key-groups/key-group-range-assignment.ts';
import { assembleOperatorState, planRestore, repartitionOperatorState, RestoreError, type RestoringOperator } from './restore-assignment.ts';
import type { OperatorSnapshotMetadata, OperatorStateSnapshot } from './snapshot-model.ts';

const POINTER = 'file:/sp/savepoint-ee3324-a4be710cc718';
const A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const C = 'cccccccccccccccccccccccccccccccc';

function keyedOp(operatorId: string, uid: string, parallelism: number, maxParallelism: number, keyGroups: number[]): OperatorSnapshotMetadata {
  return {
    operatorId,
    uid,
    parallelism,
    maxParallelism,
    keyGroupRanges: Array.from({ length: parallelism }, (_, i) => computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism, i)),
    keyedState: keyGroups.map((keyGroup) => ({ keyGroup, file: `${operatorId}/kg-${keyGroup}.json`, bytes: 10, entries: 1, timers: 0 })),
    operatorState: [],
  };
}

function target(operatorId: string, uid: string, parallelism: number, maxParallelism = 128, configured = true): RestoringOperator {
  return { operatorId, uid, parallelism, maxParallelism, maxParallelismConfigured: configured };
}

describe('planRestore: key groups', () => {
  it('each new subtask reads the key groups of its range; together they read every key group once', () => {
    const all = Array.from({ length: 128 }, (_, kg) => kg);
    for (const p of [1, 3, 8, 32, 128]) {
      const plan = planRestore({ pointer: POINTER, snapshot: [keyedOp(A, 'assemble', 4, 128, all)], operators: [target(A, 'assemble', p)], allowNonRestoredState: false });
      const op = plan.operators[0];
      expect(op.keyed).toHaveLength(p);
      op.keyed.forEach((s, i) => expect(s.keyGroupRange).toEqual(computeKeyGroupRangeForOperatorIndex(128, p, i)));
      expect(op.keyed.flatMap((s) => s.keyGroupsWithState)).toEqual(all);
    }
  });

  it('an operator whose max parallelism was derived takes the snapshot\'s', () => {
    const plan = planRestore({ pointer: POINTER, snapshot: [keyedOp(A, 'assemble', 2, 256, [200])], operators: [target(A, 'assemble', 2, 128, false)], allowNonRestoredState: false });
    expect(plan.operators[0].maxParallelism).toBe(256);
    expect(plan.operators[0].keyed[1]).toEqual({ subtaskIndex: 1, keyGroupRange: { startKeyGroup: 128, endKeyGroup: 255 }, keyGroupsWithState: [200] });
  });

  it('refuses a different configured max parallelism, with Flink\'s message', () => {
    const run = () =>
      planRestore({ pointer: POINTER, snapshot: [keyedOp(A, 'assemble', 2, 256, [1])], operators: [target(A, 'assemble', 4, 128)], allowNonRestoredState: false });
    expect(run).toThrow(RestoreError);
    expect(run).toThrow(
      `Failed to rollback to checkpoint/savepoint ${POINTER}. Max parallelism mismatch between checkpoint/savepoint state and new program. ` +
        `Cannot map operator ${A} (uid "assemble") with max parallelism 256 to new program with max parallelism 128. ` +
        'This indicates that the program has been changed in a non-compatible way after the checkpoint/savepoint.',
    );
  });

  it('refuses a parallelism above the snapshot\'s max parallelism', () => {
    expect(() =>
      planRestore({ pointer: POINTER, snapshot: [keyedOp(A, 'assemble', 2, 128, [1])], operators: [target(A, 'assemble', 130, 128, false)], allowNonRestoredState: false }),
    ).toThrow(/The maximum parallelism \(128\) of the restored state is lower than the configured parallelism \(130\)/);
  });
});

describe('planRestore: operators matched by ID (uid)', () => {
  const snapshot = [keyedOp(A, 'assemble', 2, 128, [3]), keyedOp(B, 'old-dedup', 2, 128, [4]), keyedOp(C, 'stateless', 2, 128, [])];

  it('state without a matching operator is refused unless allowNonRestoredState', () => {
    const input = { pointer: POINTER, snapshot, operators: [target(A, 'assemble', 2)] };
    expect(() => planRestore({ ...input, allowNonRestoredState: false })).toThrow(
      `Failed to rollback to checkpoint/savepoint ${POINTER}. Cannot map checkpoint/savepoint state for operator ${B} (uid "old-dedup") to the new program, ` +
        'because the operator is not available in the new program. If you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI.',
    );
    const plan = planRestore({ ...input, allowNonRestoredState: true });
    expect(plan.operators.map((o) => o.uid)).toEqual(['assemble']);
    expect(plan.skipped).toEqual([
      { operatorId: B, uid: 'old-dedup', hadState: true },
      { operatorId: C, uid: 'stateless', hadState: false },
    ]);
  });

  it('operators without state in the snapshot are skipped silently; new operators start empty', () => {
    const plan = planRestore({
      pointer: POINTER,
      snapshot: [keyedOp(A, 'assemble', 2, 128, [3]), keyedOp(C, 'stateless', 2, 128, [])],
      operators: [target(A, 'assemble', 3), target(B, 'brand-new', 3)],
      allowNonRestoredState: false,
    });
    expect(plan.fresh).toEqual([{ operatorId: B, uid: 'brand-new' }]);
    expect(plan.skipped).toEqual([{ operatorId: C, uid: 'stateless', hadState: false }]);
  });
});

describe('operator state redistribution (RoundRobinOperatorStateRepartitioner)', () => {
  const split = (...sizes: number[]) => sizes.map((size) => ({ offsets: { mode: 'SPLIT_DISTRIBUTE' as const, size } }));

  it('splits are concatenated in subtask order and cut into contiguous near-even chunks', () => {
    const r = repartitionOperatorState(split(3, 2), 2, 3);
    expect(r.map((a) => a.states.offsets.parts)).toEqual([
      [{ fromSubtask: 0, start: 0, end: 2 }],
      [
        { fromSubtask: 0, start: 2, end: 3 },
        { fromSubtask: 1, start: 0, end: 1 },
      ],
      [{ fromSubtask: 1, start: 1, end: 2 }],
    ]);
  });

  it('the start index rotates across named states so extra partitions spread out', () => {
    const old = [{ a: { mode: 'SPLIT_DISTRIBUTE' as const, size: 4 }, b: { mode: 'SPLIT_DISTRIBUTE' as const, size: 4 } }];
    const r = repartitionOperatorState(old, 1, 3);
    const count = (i: number, n: string) => (r[i].states[n]?.parts ?? []).reduce((s, p) => s + p.end - p.start, 0);
    expect([count(0, 'a'), count(1, 'a'), count(2, 'a')]).toEqual([2, 1, 1]);
    expect([count(0, 'b'), count(1, 'b'), count(2, 'b')]).toEqual([1, 2, 1]);
  });

  it('same parallelism keeps each subtask\'s lists; union goes to everyone; broadcast takes old i % oldP', () => {
    const old = [
      { offsets: { mode: 'SPLIT_DISTRIBUTE' as const, size: 1 }, all: { mode: 'UNION' as const, size: 1 }, rules: { mode: 'BROADCAST' as const, size: 2 } },
      { offsets: { mode: 'SPLIT_DISTRIBUTE' as const, size: 2 }, all: { mode: 'UNION' as const, size: 1 }, rules: { mode: 'BROADCAST' as const, size: 2 } },
    ];
    const same = repartitionOperatorState(old, 2, 2);
    expect(same[1].states.offsets.parts).toEqual([{ fromSubtask: 1, start: 0, end: 2 }]);
    expect(same[0].states.all.parts.map((p) => p.fromSubtask)).toEqual([0, 1]);
    const up = repartitionOperatorState(old, 2, 3);
    expect(up.map((a) => a.states.all.parts.length)).toEqual([2, 2, 2]);
    expect(up.map((a) => a.states.rules.parts[0].fromSubtask)).toEqual([0, 1, 0]);
  });

  it('assembles the lists a new subtask starts with', () => {
    const previous: OperatorStateSnapshot[] = [
      { offsets: { mode: 'SPLIT_DISTRIBUTE', partitions: ['s0', 's1', 's2'] } },
      { offsets: { mode: 'SPLIT_DISTRIBUTE', partitions: ['s3', 's4'] } },
    ];
    const r = repartitionOperatorState(previous.map((p) => ({ offsets: { mode: p.offsets.mode, size: p.offsets.partitions.length } })), 2, 3);
    expect(r.map((a) => assembleOperatorState(a, previous).offsets.partitions)).toEqual([['s0', 's1'], ['s2', 's3'], ['s4']]);
    const down = repartitionOperatorState([{ offsets: { mode: 'SPLIT_DISTRIBUTE', size: 3 } }, { offsets: { mode: 'SPLIT_DISTRIBUTE', size: 2 } }], 2, 1);
    expect(assembleOperatorState(down[0], previous).offsets.partitions).toEqual(['s0', 's1', 's2', 's3', 's4']);
  });
});
