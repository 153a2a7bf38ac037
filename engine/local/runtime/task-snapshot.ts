import type { LoadedSnapshot, SnapshotWriter } from '../checkpoint/checkpoint-storage.ts';
import { restoreKeyGroup, snapshotKeyGroup, type TimerServices } from '../checkpoint/keyed-state-snapshot.ts';
import type { StreamOperator } from '../api/operator.ts';
import type { OperatorStateSnapshot } from '../checkpoint/snapshot-model.ts';
import { SourceTask, type Task } from './task.ts';

/**
 * Snapshotting and restoring one task's chain (Flink's `SubtaskCheckpointCoordinator.checkpointState` and
 * `StreamTaskStateInitializer`): the keyed head operator one key group at a time (state entries and timers), the
 * source reader's splits as operator list state. The snapshot is written in the same call (the synchronous variant:
 * no copy of the live state is needed because nothing runs in between).
 */

/** Flink's name of a FLIP-27 source reader's operator state. */
export const SOURCE_READER_STATE = 'SourceReaderState';

/** Throughputs of the deterministic time model used when CPU time is not measured (tests, manual time). */
const COPY_BYTES_PER_MS = 1_000_000; // 1 GB/s
const WRITE_BYTES_PER_MS = 200_000; // 200 MB/s

export interface TaskSnapshotResult {
  /** Bytes written for this subtask (full snapshots: checkpointed size = state size). */
  bytes: number;
  syncDurationMs: number;
  asyncDurationMs: number;
  /** Operators' pre-barrier work still running (sink flushes): the acknowledgement waits for it. */
  pending?: Promise<void>;
}

function timerServicesOf(operator: StreamOperator): TimerServices {
  return operator.timerServicesForSnapshot?.() ?? new Map();
}

/**
 * Writes the chain's state for one checkpoint. With `measureCpu` the durations are the measured time of the copy
 * (sync) and of the writes (async); otherwise they follow a model (1 GB/s copy, 200 MB/s write) so they are
 * deterministic and not all zero.
 */
export function snapshotTask(task: Task, writer: SnapshotWriter, measureCpu: boolean): TaskSnapshotResult {
  let bytes = 0;
  let syncMs = 0;
  let asyncMs = 0;
  const head = task.head;
  const backend = head.operator.keyedBackend;
  if (backend !== undefined) {
    const timers = timerServicesOf(head.operator);
    const { startKeyGroup, endKeyGroup } = backend.keyGroupRange;
    for (let kg = startKeyGroup; kg <= endKeyGroup; kg++) {
      const t0 = measureCpu ? performance.now() : 0;
      const records = snapshotKeyGroup(backend, timers, kg, { copy: false });
      const t1 = measureCpu ? performance.now() : 0;
      bytes += writer.writeKeyGroup(head.operatorId, kg, records);
      if (measureCpu) {
        syncMs += t1 - t0;
        asyncMs += performance.now() - t1;
      }
    }
  }
  const flushes: Array<Promise<void>> = [];
  for (const handle of task.handles) {
    const flush = handle.operator.prepareSnapshotPreBarrier?.();
    if (flush) flushes.push(flush);
  }
  if (task instanceof SourceTask) {
    const partitions = task.reader.snapshotState?.(writer.checkpointId);
    if (partitions !== undefined) {
      const t0 = measureCpu ? performance.now() : 0;
      bytes += writer.writeOperatorState(head.operatorId, task.identity.subtaskIndex, { [SOURCE_READER_STATE]: { mode: 'SPLIT_DISTRIBUTE', partitions } });
      if (measureCpu) asyncMs += performance.now() - t0;
    }
  }
  // Operator (non-keyed) state of the chain's operators: a broadcast operator writes its whole table on every subtask.
  for (const handle of task.handles) {
    const operator = handle.operator as StreamOperator & { snapshotOperatorState?(): OperatorStateSnapshot };
    if (operator.snapshotOperatorState === undefined) continue;
    const t0 = measureCpu ? performance.now() : 0;
    bytes += writer.writeOperatorState(handle.operatorId, task.identity.subtaskIndex, operator.snapshotOperatorState());
    if (measureCpu) asyncMs += performance.now() - t0;
  }
  if (!measureCpu) {
    syncMs = bytes / COPY_BYTES_PER_MS;
    asyncMs = bytes / WRITE_BYTES_PER_MS;
  }
  return {
    bytes,
    syncDurationMs: Math.round(syncMs),
    asyncDurationMs: Math.round(asyncMs),
    ...(flushes.length > 0 ? { pending: Promise.all(flushes).then(() => undefined) } : {}),
  };
}

/**
 * Restores the keyed head operator of a task (after `open`, so its timer services exist): every key group of
 * `keyGroups` read from the snapshot of `operatorId`.
 */
export function restoreTaskKeyedState(task: Task, loaded: LoadedSnapshot, operatorId: string, keyGroups: readonly number[]): void {
  const head = task.head;
  const backend = head.operator.keyedBackend;
  if (backend === undefined) {
    if (keyGroups.length > 0) throw new Error(`Operator ${operatorId} has keyed state in ${loaded.externalPath} but "${head.name}" is not keyed in this job.`);
    return;
  }
  const timers = timerServicesOf(head.operator);
  for (const kg of keyGroups) restoreKeyGroup(backend, timers, kg, loaded.readKeyGroup(operatorId, kg));
}

/** Restores the operator state of the chain's non-source operators (a broadcast operator's tables). */
export function restoreTaskOperatorState(task: Task, statesOf: (operatorId: string) => OperatorStateSnapshot): void {
  for (const handle of task.handles) {
    const operator = handle.operator as StreamOperator & { restoreOperatorState?(name: string, partitions: readonly unknown[]): void };
    if (operator.restoreOperatorState === undefined) continue;
    for (const [name, state] of Object.entries(statesOf(handle.operatorId))) operator.restoreOperatorState(name, state.partitions);
  }
}
