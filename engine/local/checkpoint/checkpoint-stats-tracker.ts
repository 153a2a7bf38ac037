import { COMPLETED_CHECKPOINT_HISTOGRAM_WINDOW, StatsSummary } from './stats-summary.ts';

/**
 * Checkpoint statistics as Flink's JobManager keeps them (`DefaultCheckpointStatsTracker`, `CheckpointStatsCounts`,
 * `CheckpointStatsHistory`, `PendingCheckpointStats` / `CompletedCheckpointStats` / `FailedCheckpointStats`,
 * `TaskStateStats`, `SubtaskStateStats`, `CompletedCheckpointStatsSummary`): the runtime reports what happens, the REST
 * views (`checkpoint-stats-rest.ts`) read it.
 *
 * Semantics kept from Flink:
 * - counts: `total` counts every triggered checkpoint and savepoint (and failures without a pending checkpoint),
 *   `in_progress` goes down when one completes or fails;
 * - the history holds the latest `web.checkpoints.history` (default 10) triggered checkpoints, newest first, each
 *   replaced in place when it completes or fails; `latest.completed` / `latest.savepoint` / `latest.failed` are kept
 *   apart by highest ID, and stay findable by ID after they fall out of the history;
 * - the summary covers every completed checkpoint and savepoint: min/max/avg over all, percentiles over the latest
 *   10,000;
 * - a subtask reports once per checkpoint (a second report is ignored); `latest_ack_timestamp` is the last reported
 *   subtask's; durations are `max(0, ack - trigger)`, -1 while nothing is acknowledged;
 * - a failed checkpoint's duration is `failure - trigger`.
 */

/** `RestAPICheckpointType`. */
export type CheckpointKind = 'CHECKPOINT' | 'UNALIGNED_CHECKPOINT' | 'SAVEPOINT' | 'SYNC_SAVEPOINT';
/** `SavepointFormatType`. */
export type SavepointFormat = 'CANONICAL' | 'NATIVE';
/** `CheckpointStatsStatus`. */
export type CheckpointStatus = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

/** `web.checkpoints.history`'s default. */
export const DEFAULT_CHECKPOINT_HISTORY_SIZE = 10;

/** What one subtask reports when it acknowledges a checkpoint (Flink's `CheckpointMetrics` → `SubtaskStateStats`). */
export interface SubtaskCheckpointReport {
  subtaskIndex: number;
  /** When the JobManager received the acknowledgement (ms). */
  ackTimestamp: number;
  /** Bytes this checkpoint wrote for the subtask (`checkpointed_size`; equals the full size for full snapshots). */
  checkpointedSize: number;
  /** Full size of the subtask's state (`state_size`). */
  stateSize: number;
  /** Synchronous part of the snapshot (ms). */
  syncDurationMs: number;
  /** Asynchronous part: writing the snapshot (ms). */
  asyncDurationMs: number;
  /** Bytes processed while aligning barriers (`processed_data`). */
  processedData: number;
  /** In-flight bytes persisted with an unaligned checkpoint (`persisted_data`); 0 for aligned checkpoints. */
  persistedData: number;
  /** From the first barrier to the last at this subtask (ms); 0 for a single input or a source. */
  alignmentDurationMs: number;
  /** From the trigger to the first barrier reaching this subtask (ms) (`start_delay`). */
  startDelayMs: number;
  /** @default false */
  unalignedCheckpoint?: boolean;
  /** false when the subtask reported as part of an aborted checkpoint (`aborted: true` on the wire). @default true */
  completed?: boolean;
}

/** One vertex of the checkpoint plan: its ID and parallelism. */
export interface CheckpointTaskPlan {
  vertexId: string;
  parallelism: number;
}

/** `TaskStateStats`: one vertex's subtasks for one checkpoint. */
export class TaskCheckpointStats {
  readonly subtasks: Array<SubtaskCheckpointReport | undefined>;
  numAcknowledged = 0;
  latestAcknowledged: SubtaskCheckpointReport | undefined;
  /** `TaskStateStatsSummary`: no histograms, so its percentiles are NaN. */
  readonly summary = {
    checkpointedSize: new StatsSummary(),
    stateSize: new StatsSummary(),
    ackTimestamp: new StatsSummary(),
    syncDuration: new StatsSummary(),
    asyncDuration: new StatsSummary(),
    processedData: new StatsSummary(),
    persistedData: new StatsSummary(),
    alignmentDuration: new StatsSummary(),
    startDelay: new StatsSummary(),
  };

  constructor(readonly vertexId: string, readonly parallelism: number) {
    if (!(Number.isInteger(parallelism) && parallelism > 0)) throw new RangeError(`Vertex ${vertexId}: the number of subtasks must be > 0, got ${parallelism}.`);
    this.subtasks = new Array(parallelism).fill(undefined);
  }

  /** Records a subtask's report once; returns false for an unknown index or a repeated report. */
  report(r: SubtaskCheckpointReport): boolean {
    if (!(Number.isInteger(r.subtaskIndex) && r.subtaskIndex >= 0 && r.subtaskIndex < this.subtasks.length)) return false;
    if (this.subtasks[r.subtaskIndex] !== undefined) return false;
    this.subtasks[r.subtaskIndex] = r;
    this.latestAcknowledged = r;
    this.numAcknowledged++;
    const s = this.summary;
    s.checkpointedSize.add(r.checkpointedSize);
    s.stateSize.add(r.stateSize);
    s.ackTimestamp.add(r.ackTimestamp);
    s.syncDuration.add(r.syncDurationMs);
    s.asyncDuration.add(r.asyncDurationMs);
    s.processedData.add(r.processedData);
    s.persistedData.add(r.persistedData);
    s.alignmentDuration.add(r.alignmentDurationMs);
    s.startDelay.add(r.startDelayMs);
    return true;
  }

  get latestAckTimestamp(): number {
    return this.latestAcknowledged?.ackTimestamp ?? -1;
  }

  /** Time since the trigger until the latest acknowledgement, or -1. */
  endToEndDuration(triggerTimestamp: number): number {
    return this.latestAcknowledged ? Math.max(0, this.latestAcknowledged.ackTimestamp - triggerTimestamp) : -1;
  }

  get checkpointedSize(): number {
    return this.summary.checkpointedSize.sum;
  }

  get stateSize(): number {
    return this.summary.stateSize.sum;
  }

  get processedData(): number {
    return this.summary.processedData.sum;
  }

  get persistedData(): number {
    return this.summary.persistedData.sum;
  }
}

/** One checkpoint or savepoint: pending, then completed or failed (`AbstractCheckpointStats` and subclasses). */
export class CheckpointStats {
  status: CheckpointStatus = 'IN_PROGRESS';
  readonly tasks = new Map<string, TaskCheckpointStats>();
  readonly numSubtasks: number;
  numAcknowledged = 0;
  latestAcknowledged: SubtaskCheckpointReport | undefined;
  private sums = { checkpointedSize: 0, stateSize: 0, processedData: 0, persistedData: 0 };
  externalPath: string | undefined;
  /** Subsumed by a newer checkpoint and deleted (retention). */
  discarded = false;
  failureTimestamp: number | undefined;
  failureMessage: string | undefined;

  constructor(
    readonly checkpointId: number,
    readonly triggerTimestamp: number,
    readonly kind: CheckpointKind,
    readonly savepointFormat: SavepointFormat | undefined,
    plan: readonly CheckpointTaskPlan[],
  ) {
    let n = 0;
    for (const t of plan) {
      if (this.tasks.has(t.vertexId)) throw new Error(`Vertex ${t.vertexId} appears twice in the plan of checkpoint ${checkpointId}.`);
      this.tasks.set(t.vertexId, new TaskCheckpointStats(t.vertexId, t.parallelism));
      n += t.parallelism;
    }
    this.numSubtasks = n;
  }

  get isSavepoint(): boolean {
    return this.kind === 'SAVEPOINT' || this.kind === 'SYNC_SAVEPOINT';
  }

  report(vertexId: string, r: SubtaskCheckpointReport): boolean {
    const task = this.tasks.get(vertexId);
    if (!task || !task.report(r)) return false;
    this.numAcknowledged++;
    this.latestAcknowledged = r;
    this.sums.checkpointedSize += Math.max(0, r.checkpointedSize);
    this.sums.stateSize += Math.max(0, r.stateSize);
    this.sums.processedData += Math.max(0, r.processedData);
    this.sums.persistedData += Math.max(0, r.persistedData);
    return true;
  }

  get latestAckTimestamp(): number {
    return this.latestAcknowledged?.ackTimestamp ?? -1;
  }

  get checkpointedSize(): number {
    return this.sums.checkpointedSize;
  }

  get stateSize(): number {
    return this.sums.stateSize;
  }

  get processedData(): number {
    return this.sums.processedData;
  }

  get persistedData(): number {
    return this.sums.persistedData;
  }

  /** Completed/pending: latest ack − trigger (−1 without acks); failed: failure − trigger. */
  get endToEndDuration(): number {
    if (this.status === 'FAILED') return Math.max(0, this.failureTimestamp! - this.triggerTimestamp);
    return this.latestAcknowledged ? Math.max(0, this.latestAcknowledged.ackTimestamp - this.triggerTimestamp) : -1;
  }
}

/** `RestoredCheckpointStats`: the checkpoint or savepoint the job last restored from. */
export interface RestoredCheckpoint {
  checkpointId: number;
  restoreTimestamp: number;
  isSavepoint: boolean;
  externalPath: string;
}

/** What the REST views read: counts, summary, history and latest ones. */
export interface CheckpointStatsView {
  readonly counts: Readonly<{ restored: number; total: number; inProgress: number; completed: number; failed: number }>;
  readonly summary: Readonly<{
    checkpointedSize: StatsSummary;
    stateSize: StatsSummary;
    endToEndDuration: StatsSummary;
    processedData: StatsSummary;
    persistedData: StatsSummary;
  }>;
  /** Newest first, at most `historySize` entries. */
  history(): readonly CheckpointStats[];
  latestCompleted(): CheckpointStats | undefined;
  latestSavepoint(): CheckpointStats | undefined;
  latestFailed(): CheckpointStats | undefined;
  latestRestored(): RestoredCheckpoint | undefined;
  /** A checkpoint in the history or one of the latest ones. */
  byId(checkpointId: number): CheckpointStats | undefined;
}

export interface CheckpointStatsTrackerOptions {
  /** `web.checkpoints.history`: checkpoints remembered for the history and details. @default 10 */
  historySize?: number;
}

export class CheckpointStatsTracker implements CheckpointStatsView {
  readonly counts = { restored: 0, total: 0, inProgress: 0, completed: 0, failed: 0 };
  readonly summary = {
    checkpointedSize: new StatsSummary(COMPLETED_CHECKPOINT_HISTOGRAM_WINDOW),
    stateSize: new StatsSummary(COMPLETED_CHECKPOINT_HISTOGRAM_WINDOW),
    endToEndDuration: new StatsSummary(COMPLETED_CHECKPOINT_HISTOGRAM_WINDOW),
    processedData: new StatsSummary(COMPLETED_CHECKPOINT_HISTOGRAM_WINDOW),
    persistedData: new StatsSummary(COMPLETED_CHECKPOINT_HISTOGRAM_WINDOW),
  };
  readonly historySize: number;
  /** Oldest first; trimmed to historySize. */
  private readonly recent: CheckpointStats[] = [];
  /** Pending checkpoints, also when they are not (any more) in the history. */
  private readonly pending = new Map<number, CheckpointStats>();
  private completedLatest: CheckpointStats | undefined;
  private savepointLatest: CheckpointStats | undefined;
  private failedLatest: CheckpointStats | undefined;
  private restored: RestoredCheckpoint | undefined;

  constructor(options: CheckpointStatsTrackerOptions = {}) {
    const size = options.historySize ?? DEFAULT_CHECKPOINT_HISTORY_SIZE;
    if (!(Number.isInteger(size) && size >= 0)) throw new RangeError(`web.checkpoints.history must be a whole number >= 0, got ${size}.`);
    this.historySize = size;
  }

  /** A checkpoint or savepoint was triggered (`reportPendingCheckpoint`). */
  reportPending(
    checkpointId: number,
    triggerTimestamp: number,
    kind: CheckpointKind,
    plan: readonly CheckpointTaskPlan[],
    savepointFormat?: SavepointFormat,
  ): CheckpointStats {
    if (this.pending.has(checkpointId) || this.recent.some((c) => c.checkpointId === checkpointId)) {
      throw new Error(`Checkpoint ${checkpointId} was already reported: checkpoint IDs must not repeat.`);
    }
    const isSavepoint = kind === 'SAVEPOINT' || kind === 'SYNC_SAVEPOINT';
    const stats = new CheckpointStats(checkpointId, triggerTimestamp, kind, isSavepoint ? (savepointFormat ?? 'CANONICAL') : undefined, plan);
    this.counts.total++;
    this.counts.inProgress++;
    this.pending.set(checkpointId, stats);
    if (this.historySize > 0) {
      this.recent.push(stats);
      if (this.recent.length > this.historySize) this.recent.shift();
    }
    return stats;
  }

  /** A subtask acknowledged (or, with `completed: false`, reported for an aborted checkpoint); false if ignored. */
  reportSubtask(checkpointId: number, vertexId: string, report: SubtaskCheckpointReport): boolean {
    const stats = this.pending.get(checkpointId);
    return stats ? stats.report(vertexId, report) : false;
  }

  /** All subtasks acknowledged and the metadata is written: the checkpoint is complete at `externalPath`. */
  reportCompleted(checkpointId: number, externalPath: string): CheckpointStats {
    const stats = this.takePending(checkpointId);
    stats.status = 'COMPLETED';
    stats.externalPath = externalPath;
    this.counts.completed++;
    this.summary.checkpointedSize.add(stats.checkpointedSize);
    this.summary.stateSize.add(stats.stateSize);
    this.summary.endToEndDuration.add(stats.endToEndDuration);
    this.summary.processedData.add(stats.processedData);
    this.summary.persistedData.add(stats.persistedData);
    if (stats.isSavepoint) {
      if (!this.savepointLatest || checkpointId > this.savepointLatest.checkpointId) this.savepointLatest = stats;
    } else if (!this.completedLatest || checkpointId > this.completedLatest.checkpointId) {
      this.completedLatest = stats;
    }
    return stats;
  }

  /** The checkpoint was declined, expired or aborted (e.g. "Checkpoint Coordinator is suspending." on failover). */
  reportFailed(checkpointId: number, failureTimestamp: number, failureMessage: string): CheckpointStats {
    const stats = this.takePending(checkpointId);
    stats.status = 'FAILED';
    stats.failureTimestamp = failureTimestamp;
    stats.failureMessage = failureMessage;
    this.counts.failed++;
    if (!this.failedLatest || checkpointId > this.failedLatest.checkpointId) this.failedLatest = stats;
    return stats;
  }

  /** A trigger failed before a pending checkpoint existed (`reportFailedCheckpointsWithoutInProgress`). */
  reportFailedWithoutPending(): void {
    this.counts.total++;
    this.counts.failed++;
  }

  /** The job (re)started from a checkpoint or savepoint. */
  reportRestored(restored: RestoredCheckpoint): void {
    this.counts.restored++;
    this.restored = { ...restored };
  }

  /** Retention deleted a completed checkpoint (`discarded: true` from now on). */
  markDiscarded(checkpointId: number): void {
    const stats = this.byId(checkpointId);
    if (stats && stats.status === 'COMPLETED') stats.discarded = true;
  }

  /** Pending checkpoints, oldest first. */
  pendingCheckpoints(): CheckpointStats[] {
    return [...this.pending.values()];
  }

  history(): readonly CheckpointStats[] {
    return [...this.recent].reverse();
  }

  latestCompleted(): CheckpointStats | undefined {
    return this.completedLatest;
  }

  latestSavepoint(): CheckpointStats | undefined {
    return this.savepointLatest;
  }

  latestFailed(): CheckpointStats | undefined {
    return this.failedLatest;
  }

  latestRestored(): RestoredCheckpoint | undefined {
    return this.restored;
  }

  byId(checkpointId: number): CheckpointStats | undefined {
    return (
      this.recent.find((c) => c.checkpointId === checkpointId) ??
      [this.completedLatest, this.savepointLatest, this.failedLatest].find((c) => c?.checkpointId === checkpointId)
    );
  }

  private takePending(checkpointId: number): CheckpointStats {
    const stats = this.pending.get(checkpointId);
    if (!stats) throw new Error(`Checkpoint ${checkpointId} is not in progress: it was never triggered, or it already completed or failed.`);
    this.pending.delete(checkpointId);
    this.counts.inProgress--;
    return stats;
  }
}
