import type { Database, RootDatabase } from 'lmdb';
import type { CheckpointVertexView, CheckpointView, JobCheckpoints } from '../contracts/history.ts';
import { decodeCheckpointSubtasks, encodeCheckpointSubtasks, type CheckpointSubtaskColumns } from './checkpoint-subtasks.ts';
import type { HistoryRetention } from './history-store.ts';

/**
 * One vertex's part in a checkpoint (`tasks` of `/checkpoints/details/:id`), as stored: the view's figures without the
 * name (read from the samples when shown) and the subtasks (stored beside it, in their own table).
 */
export interface CheckpointVertexRecord extends Omit<CheckpointVertexView, 'name' | 'subtasks' | 'subtasksUnavailable'> {
  /** Why the per-subtask details of this vertex are missing (the request failed), when they are. */
  subtasksUnavailable?: string;
}

/**
 * A checkpoint or savepoint of a job, as the history keeps it: Flink's summary and, once settled, its details. It
 * differs from the view by what only storing needs (the vertices, when it was seen); the view's explanation of the
 * failure and state of the details are worked out when it is shown.
 */
export interface CheckpointRecord extends Omit<CheckpointView, 'failureExplanation' | 'details' | 'detailsUnavailable'> {
  discarded: boolean | null;
  /** Per-vertex details, fetched once per checkpoint when it settled. */
  vertices?: CheckpointVertexRecord[];
  /** Why the details will never come (the JobManager no longer has them), when they will not. */
  detailsUnavailable?: string;
  /** When the console first and last saw it (engine clock). */
  firstSeenAt: number;
  updatedAt: number;
}

/**
 * What the JobManager last said about a job's checkpoints as a whole (`counts`, `summary`, `latest.restored` of
 * `/checkpoints`): the Checkpoints tab's `flink` and `restored`, stored together. Flink keeps these only since the
 * JobManager started the job: they start over after a failover.
 */
export interface CheckpointOverview extends NonNullable<JobCheckpoints['flink']> {
  restored: JobCheckpoints['restored'];
}

type CheckpointKey = [clusterId: string, jobId: string, triggerTimestamp: number, id: number];
type SubtasksKey = [clusterId: string, jobId: string, triggerTimestamp: number, id: number, vertexId: string];
type OverviewKey = [clusterId: string, jobId: string];

/**
 * Checkpoints by job and trigger time. Keyed by time as well as id: a JobManager that loses its state starts
 * counting ids from 1 again, and the history must keep both runs' checkpoint 1. Per-subtask details live in their
 * own table, so listing checkpoints never reads them.
 */
export class CheckpointHistory {
  private readonly table: Database<CheckpointRecord, CheckpointKey>;
  private readonly subtaskTable: Database<Buffer, SubtasksKey>;
  private readonly overviewTable: Database<CheckpointOverview, OverviewKey>;

  constructor(
    private readonly root: RootDatabase,
    private readonly retention: HistoryRetention,
  ) {
    this.table = root.openDB<CheckpointRecord, CheckpointKey>('checkpoints', {});
    this.subtaskTable = root.openDB<Buffer, SubtasksKey>('checkpoint-subtasks', { encoding: 'binary' });
    this.overviewTable = root.openDB<CheckpointOverview, OverviewKey>('checkpoint-overviews', {});
  }

  /** Inserts or updates (same id and trigger time), then keeps the newest `checkpointsPerJob`. */
  async put(clusterId: string, jobId: string, record: CheckpointRecord): Promise<void> {
    await this.putMany(clusterId, jobId, [record]);
  }

  /** Inserts or updates several records in one transaction, then applies the retention once. */
  async putMany(clusterId: string, jobId: string, records: CheckpointRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.root.transaction(() => {
      for (const record of records) this.table.put([clusterId, jobId, record.triggerTimestamp, record.id], record);
      this.pruneJob(clusterId, jobId);
    });
  }

  /**
   * Stores a settled checkpoint's details: the record with its vertices, and per vertex its subtasks as columns.
   * Keeps per-subtask details for the newest `checkpointDetailsPerJob` checkpoints of the job.
   */
  async putDetails(clusterId: string, jobId: string, record: CheckpointRecord, subtasks: Map<string, CheckpointSubtaskColumns>): Promise<void> {
    await this.root.transaction(() => {
      this.table.put([clusterId, jobId, record.triggerTimestamp, record.id], record);
      for (const [vertexId, columns] of subtasks) {
        this.subtaskTable.put([clusterId, jobId, record.triggerTimestamp, record.id, vertexId], encodeCheckpointSubtasks(columns));
      }
      this.pruneJob(clusterId, jobId);
      this.pruneDetails(clusterId, jobId);
    });
  }

  /** The exact record of (trigger time, id), if kept. */
  find(clusterId: string, jobId: string, triggerTimestamp: number, id: number): CheckpointRecord | undefined {
    return this.table.get([clusterId, jobId, triggerTimestamp, id]);
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

  /** How many checkpoints of the job the history keeps. */
  count(clusterId: string, jobId: string): number {
    return this.table.getKeysCount({ start: [clusterId, jobId, -Infinity, -Infinity], end: [clusterId, jobId, Infinity, Infinity] });
  }

  /** The newest checkpoint with this id (ids restart after a JobManager loses its state). */
  get(clusterId: string, jobId: string, id: number): CheckpointRecord | undefined {
    for (const { value } of this.table.getRange({ start: [clusterId, jobId, Infinity, Infinity], end: [clusterId, jobId, -Infinity, -Infinity], reverse: true })) {
      if (value.id === id) return value;
    }
    return undefined;
  }

  /** One vertex's subtasks in a checkpoint, or undefined when not fetched (or dropped by retention). */
  subtasks(clusterId: string, jobId: string, triggerTimestamp: number, id: number, vertexId: string): CheckpointSubtaskColumns | undefined {
    const bytes = this.subtaskTable.get([clusterId, jobId, triggerTimestamp, id, vertexId]);
    return bytes ? decodeCheckpointSubtasks(bytes) : undefined;
  }

  /** Jobs with checkpoints in the history, on one cluster or all: [clusterId, jobId] pairs. */
  jobs(clusterId?: string): Array<{ clusterId: string; jobId: string }> {
    const out: Array<{ clusterId: string; jobId: string }> = [];
    const range = clusterId === undefined ? {} : { start: [clusterId] as unknown as OverviewKey, end: [`${clusterId}\u0000`] as unknown as OverviewKey };
    for (const key of this.overviewTable.getKeys(range)) out.push({ clusterId: key[0], jobId: key[1] });
    return out;
  }

  overview(clusterId: string, jobId: string): CheckpointOverview | undefined {
    return this.overviewTable.get([clusterId, jobId]);
  }

  async putOverview(clusterId: string, jobId: string, overview: CheckpointOverview): Promise<void> {
    await this.overviewTable.put([clusterId, jobId], overview);
  }

  /** Inside a write transaction: drops the job's oldest records beyond `checkpointsPerJob`, with their subtasks. */
  private pruneJob(clusterId: string, jobId: string): void {
    const keys = [...this.table.getKeys({ start: [clusterId, jobId, -Infinity, -Infinity], end: [clusterId, jobId, Infinity, Infinity] })];
    for (const key of keys.slice(0, Math.max(0, keys.length - this.retention.checkpointsPerJob))) {
      this.table.remove(key);
      this.removeSubtasks(clusterId, jobId, key[2], key[3]);
    }
  }

  /** Inside a write transaction: keeps per-subtask details of the newest `checkpointDetailsPerJob` checkpoints only. */
  private pruneDetails(clusterId: string, jobId: string): void {
    const checkpoints: Array<[number, number]> = [];
    for (const key of this.subtaskTable.getKeys({ start: [clusterId, jobId, -Infinity, -Infinity, ''], end: [clusterId, jobId, Infinity, Infinity, ''] })) {
      const last = checkpoints[checkpoints.length - 1];
      if (!last || last[0] !== key[2] || last[1] !== key[3]) checkpoints.push([key[2], key[3]]);
    }
    for (const [trigger, id] of checkpoints.slice(0, Math.max(0, checkpoints.length - this.retention.checkpointDetailsPerJob))) {
      this.removeSubtasks(clusterId, jobId, trigger, id);
    }
  }

  private removeSubtasks(clusterId: string, jobId: string, triggerTimestamp: number, id: number): void {
    for (const key of [...this.subtaskTable.getKeys({ start: [clusterId, jobId, triggerTimestamp, id, ''], end: [clusterId, jobId, triggerTimestamp, id, '\uffff'] })]) {
      this.subtaskTable.remove(key);
    }
  }
}
