import type { Database, RootDatabase } from 'lmdb';
import type { HistoryRetention } from './history-store.ts';

/** One subtask's part in a checkpoint (`/checkpoints/details/:id/subtasks/:vertexid`). */
export interface CheckpointSubtaskRecord {
  index: number;
  /** `completed` or `pending_or_failed`, as Flink's `className`. */
  status: string;
  ackTimestamp: number | null;
  endToEndDurationMs: number | null;
  checkpointedBytes: number | null;
  stateBytes: number | null;
  syncDurationMs: number | null;
  asyncDurationMs: number | null;
  alignmentBufferedBytes: number | null;
  alignmentProcessedBytes: number | null;
  alignmentPersistedBytes: number | null;
  alignmentDurationMs: number | null;
  startDelayMs: number | null;
  unaligned: boolean | null;
  aborted: boolean | null;
}

/** One vertex's part in a checkpoint (`tasks` of `/checkpoints/details/:id`, plus its subtasks). */
export interface CheckpointVertexRecord {
  vertexId: string;
  status: string;
  latestAckTimestamp: number | null;
  endToEndDurationMs: number | null;
  checkpointedBytes: number | null;
  stateBytes: number | null;
  alignmentBufferedBytes: number | null;
  processedBytes: number | null;
  persistedBytes: number | null;
  numSubtasks: number;
  numAcknowledgedSubtasks: number;
  /** Fetched once the checkpoint is complete or failed; absent while in progress. */
  subtasks?: CheckpointSubtaskRecord[];
}

/** A checkpoint or savepoint of a job, as the history keeps it: Flink's summary and, once settled, its details. */
export interface CheckpointRecord {
  id: number;
  /** COMPLETED, FAILED or IN_PROGRESS. */
  status: string;
  isSavepoint: boolean;
  /** CANONICAL or NATIVE for savepoints. */
  savepointFormat: string | null;
  /** CHECKPOINT, SAVEPOINT, SYNC_SAVEPOINT, ... */
  checkpointType: string;
  triggerTimestamp: number;
  latestAckTimestamp: number | null;
  endToEndDurationMs: number | null;
  /** Incremental size (what this checkpoint wrote). */
  checkpointedBytes: number | null;
  /** Full state size. */
  stateBytes: number | null;
  alignmentBufferedBytes: number | null;
  processedBytes: number | null;
  persistedBytes: number | null;
  numSubtasks: number;
  numAcknowledgedSubtasks: number;
  externalPath: string | null;
  discarded: boolean | null;
  failureTimestamp: number | null;
  failureMessage: string | null;
  /** Per-vertex details, fetched once per checkpoint when it settled. */
  vertices?: CheckpointVertexRecord[];
  /** When the console first and last saw it (engine clock). */
  firstSeenAt: number;
  updatedAt: number;
}

type CheckpointKey = [clusterId: string, jobId: string, triggerTimestamp: number, id: number];

/**
 * Checkpoints by job and trigger time. Keyed by time as well as id: a JobManager that loses its state starts
 * counting ids from 1 again, and the history must keep both runs' checkpoint 1.
 */
export class CheckpointHistory {
  private readonly table: Database<CheckpointRecord, CheckpointKey>;

  constructor(
    private readonly root: RootDatabase,
    private readonly retention: HistoryRetention,
  ) {
    this.table = root.openDB<CheckpointRecord, CheckpointKey>('checkpoints', {});
  }

  /** Inserts or updates (same id and trigger time), then keeps the newest `checkpointsPerJob`. */
  async put(clusterId: string, jobId: string, record: CheckpointRecord): Promise<void> {
    await this.root.transaction(() => {
      this.table.put([clusterId, jobId, record.triggerTimestamp, record.id], record);
      const keys = [...this.table.getKeys({ start: [clusterId, jobId, -Infinity, -Infinity], end: [clusterId, jobId, Infinity, Infinity] })];
      for (const key of keys.slice(0, Math.max(0, keys.length - this.retention.checkpointsPerJob))) this.table.remove(key);
    });
  }

  /** A job's checkpoints triggered in `[from, to]`, oldest first. */
  list(clusterId: string, jobId: string, from = -Infinity, to = Infinity): CheckpointRecord[] {
    return [...this.table.getRange({ start: [clusterId, jobId, from, -Infinity], end: [clusterId, jobId, to, Infinity] })].map((e) => e.value);
  }

  /** The newest `limit` checkpoints, newest first. */
  recent(clusterId: string, jobId: string, limit: number): CheckpointRecord[] {
    return [...this.table.getRange({ start: [clusterId, jobId, Infinity, Infinity], end: [clusterId, jobId, -Infinity, -Infinity], reverse: true, limit })].map(
      (e) => e.value,
    );
  }

  /** The newest checkpoint with this id (ids restart after a JobManager loses its state). */
  get(clusterId: string, jobId: string, id: number): CheckpointRecord | undefined {
    for (const { value } of this.table.getRange({ start: [clusterId, jobId, Infinity, Infinity], end: [clusterId, jobId, -Infinity, -Infinity], reverse: true })) {
      if (value.id === id) return value;
    }
    return undefined;
  }
}
