import type { ScheduledTask, VirtualScheduler } from '../time/scheduler.ts';
import type { Clock } from '../time/clock.ts';
import { SourceTask, type BarrierMetrics, type Task, type TaskCheckpointHost } from '../runtime/task.ts';
import { snapshotTask } from '../runtime/task-snapshot.ts';
import type { CheckpointingConfig } from './checkpoint-stats-rest.ts';
import type { CheckpointKind, CheckpointStatsTracker, CheckpointTaskPlan, SubtaskCheckpointReport } from './checkpoint-stats-tracker.ts';
import { resolveTargetPath, type AllowedFolders } from './target-directory.ts';
import { FileSystemCheckpointStorage, type CompletedSnapshot, type SnapshotOperatorInfo, type SnapshotWriter } from './checkpoint-storage.ts';

/**
 * The checkpoint coordinator of one job (Flink's `CheckpointCoordinator` with `PendingCheckpoint`), on the cluster's
 * virtual-time scheduler:
 * - periodic checkpoints every `intervalMs` (skipped while `maxConcurrent` are pending or within `minPauseMs` of the
 *   last completion), manual checkpoints, savepoints and stop-with-savepoint (`SYNC_SAVEPOINT`), all numbered by one
 *   counter (a job restored from checkpoint n continues with n + 1);
 * - a trigger injects the barrier into every running source (between two polls) and takes the state of finished
 *   tasks at once; other tasks snapshot when their barriers are aligned; each acknowledgement arrives after the
 *   snapshot's asynchronous phase;
 * - complete when every subtask acknowledged: `_metadata` is written (retention runs), stats are reported;
 * - failures with Flink's messages: expired (`timeoutMs`), declined/subsumed, "Checkpoint Coordinator is suspending."
 *   on failover, "CheckpointCoordinator shutdown." when the job ends. Expired and declined checkpoints count towards
 *   `tolerableFailedCheckpoints`; beyond it the job fails.
 */

/** What the coordinator needs from its job. */
export interface CheckpointedJob {
  readonly jobId: string;
  /** Whether all tasks are deployed and the job is RUNNING. */
  isRunning(): boolean;
  /** The tasks of the current attempt. */
  currentTasks(): readonly Task[];
  /** Vertices and their parallelism (the stats plan). */
  checkpointPlan(): CheckpointTaskPlan[];
  /** Every operator of the job graph. */
  snapshotOperators(): SnapshotOperatorInfo[];
  /** Too many checkpoint failures: fail the job through its restart strategy. */
  failOnCheckpointFailures(cause: Error): void;
}

export interface TriggerRequest {
  kind: Exclude<CheckpointKind, 'UNALIGNED_CHECKPOINT'>;
  /** Savepoints: where to write (default: the savepoint directory). */
  targetDirectory?: string;
  /** Stop-with-savepoint: emit MAX_WATERMARK first. */
  drain?: boolean;
  /** Savepoints: the requested format (the files are canonical either way). @default 'CANONICAL' */
  formatType?: 'CANONICAL' | 'NATIVE';
  onComplete?(completed: CompletedSnapshot): void;
  onFailure?(cause: Error): void;
}

/** A checkpoint failure with Flink's `CheckpointException` wording. */
export class CheckpointFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'org.apache.flink.runtime.checkpoint.CheckpointException';
  }
}

/** Flink's `CheckpointFailureReason` messages. */
export const CHECKPOINT_EXPIRED = 'Checkpoint expired before completing.';
export const CHECKPOINT_SUSPENDING = 'Checkpoint Coordinator is suspending.';
export const CHECKPOINT_SHUTDOWN = 'CheckpointCoordinator shutdown.';
export const CHECKPOINT_SUBSUMED = 'Checkpoint was canceled because a barrier from newer checkpoint was received.';
export const NOT_ALL_TASKS_RUNNING = 'Not all required tasks are currently running.';
export const TOO_MANY_CHECKPOINT_REQUESTS = 'The maximum number of queued checkpoint requests exceeded';

/**
 * Savepoints, stop-with-savepoint and manual checkpoints of one job in flight at once. Flink's
 * `CheckpointRequestDecider` queues up to 1000 such requests and fails the rest with TOO_MANY_CHECKPOINT_REQUESTS;
 * the local engine writes every snapshot to the desktop's disk, so it allows far fewer and fails the rest the same way.
 */
export const MAX_USER_REQUESTS_IN_FLIGHT = 4;

interface PendingCheckpoint {
  id: number;
  request: TriggerRequest;
  /** Triggered by the timer, not by a user (does not count towards MAX_USER_REQUESTS_IN_FLIGHT). */
  periodic: boolean;
  triggerTimestamp: number;
  writer: SnapshotWriter;
  /** Tasks whose acknowledgement is still missing. */
  waiting: Set<Task>;
  /** Tasks that snapshotted (their acknowledgement is on its way). */
  snapshotted: Set<Task>;
  timeout: ScheduledTask;
}

export interface CheckpointCoordinatorOptions {
  clock: Clock;
  scheduler: VirtualScheduler;
  /** Periodic checkpointing; undefined = only savepoints and manual checkpoints. */
  config?: CheckpointingConfig;
  /** Checkpoint (and default savepoint) storage; undefined = checkpoints fail, savepoints need a target directory. */
  storage?: FileSystemCheckpointStorage;
  /** Where a savepoint's target directory may be (the engine's allowed folders); undefined: not restricted. */
  allowedFolders?: AllowedFolders;
  tracker?: CheckpointStatsTracker;
  /** Measure snapshot CPU time (real-time mode) instead of the deterministic model. */
  measureCpu?: boolean;
}

export class CheckpointCoordinator implements TaskCheckpointHost {
  private nextId = 1;
  private readonly pending = new Map<number, PendingCheckpoint>();
  private lastCompletionAt = Number.NEGATIVE_INFINITY;
  private consecutiveFailures = 0;
  private periodic: ScheduledTask | undefined;
  private shutDown = false;
  private readonly completedListeners: Array<(completed: CompletedSnapshot) => void> = [];

  constructor(
    private readonly job: CheckpointedJob,
    private readonly options: CheckpointCoordinatorOptions,
  ) {}

  get storage(): FileSystemCheckpointStorage | undefined {
    return this.options.storage;
  }

  get config(): CheckpointingConfig | undefined {
    return this.options.config;
  }

  /** Starts periodic checkpoints (when configured). */
  startPeriodic(): void {
    const config = this.options.config;
    if (!config || this.periodic || this.shutDown) return;
    const now = this.options.clock.now();
    this.periodic = this.options.scheduler.scheduleAtFixedRate(now + config.intervalMs, config.intervalMs, () => this.periodicTrigger());
  }

  /** Calls `listener` after every completed checkpoint (not savepoint), e.g. a rescale waiting for one. */
  onCheckpointCompleted(listener: (completed: CompletedSnapshot) => void): () => void {
    this.completedListeners.push(listener);
    return () => {
      const i = this.completedListeners.indexOf(listener);
      if (i >= 0) this.completedListeners.splice(i, 1);
    };
  }

  /** The job was restored from checkpoint `checkpointId`: IDs continue after it. */
  restoredFrom(checkpointId: number): void {
    if (checkpointId + 1 > this.nextId) this.nextId = checkpointId + 1;
  }

  /** Pending checkpoint and savepoint IDs, oldest first. */
  pendingIds(): number[] {
    return [...this.pending.keys()];
  }

  /** Whether a stop-with-savepoint is in flight. */
  get isStopping(): boolean {
    for (const p of this.pending.values()) if (p.request.kind === 'SYNC_SAVEPOINT') return true;
    return false;
  }

  private periodicTrigger(): void {
    const config = this.options.config!;
    if (!this.job.isRunning() || this.isStopping) return;
    let checkpoints = 0;
    for (const p of this.pending.values()) if (p.request.kind === 'CHECKPOINT') checkpoints++;
    if (checkpoints >= config.maxConcurrent) return;
    if (this.options.clock.now() - this.lastCompletionAt < config.minPauseMs) return;
    this.trigger({ kind: 'CHECKPOINT' }, true);
  }

  /**
   * Triggers a checkpoint or savepoint; returns its ID, or undefined when it could not start (the failure is
   * reported to `onFailure`).
   */
  trigger(request: TriggerRequest, periodic = false): number | undefined {
    const now = this.options.clock.now();
    const failEarly = (message: string): undefined => {
      this.options.tracker?.reportFailedWithoutPending();
      request.onFailure?.(new CheckpointFailure(message));
      return undefined;
    };
    if (this.shutDown) return failEarly(CHECKPOINT_SHUTDOWN);
    if (!this.job.isRunning()) {
      const first = this.job.currentTasks().find((t) => t.state !== 'RUNNING' && t.state !== 'FINISHED') ?? this.job.currentTasks()[0];
      const name = first ? `${first.identity.vertex.name} (${first.identity.subtaskIndex + 1}/${first.identity.vertex.parallelism})` : 'the job';
      return failEarly(`Checkpoint triggering task ${name} of job ${this.job.jobId} is not being executed at the moment. Aborting checkpoint. Failure reason: ${NOT_ALL_TASKS_RUNNING}`);
    }
    if (!periodic && [...this.pending.values()].filter((p) => !p.periodic).length >= MAX_USER_REQUESTS_IN_FLIGHT) {
      return failEarly(TOO_MANY_CHECKPOINT_REQUESTS);
    }
    const isSavepoint = request.kind !== 'CHECKPOINT';
    let writer: SnapshotWriter;
    const id = this.nextId;
    try {
      const operators = this.job.snapshotOperators();
      if (isSavepoint) {
        if (request.targetDirectory !== undefined) this.options.allowedFolders?.check(resolveTargetPath(request.targetDirectory, 'savepoint directory'), 'savepoint directory');
        let storage = this.options.storage;
        if (!storage && request.targetDirectory !== undefined) storage = new FileSystemCheckpointStorage({ checkpointDirectory: request.targetDirectory });
        if (!storage) throw new Error('No savepoint directory: pass a target directory with the request or set execution.checkpointing.savepoint-dir (state.savepoints.dir).');
        writer = storage.beginSavepoint(this.job.jobId, id, now, operators, { targetDirectory: request.targetDirectory, kind: request.kind as 'SAVEPOINT' | 'SYNC_SAVEPOINT' });
      } else {
        if (!this.options.storage) {
          throw new Error('Checkpoint storage is not configured for this job: start the local engine with --checkpoint-dir (execution.checkpointing.dir).');
        }
        writer = this.options.storage.beginCheckpoint(this.job.jobId, id, now, operators);
      }
    } catch (error) {
      return failEarly((error as Error).message);
    }
    this.nextId++;
    this.options.tracker?.reportPending(id, now, request.kind, this.job.checkpointPlan(), isSavepoint ? (request.formatType ?? 'CANONICAL') : undefined);
    const tasks = this.job.currentTasks();
    const timeoutMs = this.options.config?.timeoutMs ?? 600_000;
    const pending: PendingCheckpoint = {
      id,
      request,
      periodic,
      triggerTimestamp: now,
      writer,
      waiting: new Set(tasks),
      snapshotted: new Set(),
      timeout: this.options.scheduler.scheduleAt(now + timeoutMs, () => {
        const p = this.pending.get(id);
        if (p) this.failPending(p, CHECKPOINT_EXPIRED, true);
      }),
    };
    this.pending.set(id, pending);
    const stop = request.kind === 'SYNC_SAVEPOINT';
    for (const task of tasks) {
      if (!this.pending.has(id)) break;
      if (task.state === 'FINISHED') this.performCheckpoint(task, id, { firstBarrierAt: now, alignmentDurationMs: 0, processedData: 0 });
      else if (task instanceof SourceTask && task.state === 'RUNNING') task.triggerCheckpoint(id, { stop, drain: request.drain });
    }
    return id;
  }

  /** A task reached checkpoint `checkpointId`: snapshot its chain now; the acknowledgement follows the async phase. */
  performCheckpoint(task: Task, checkpointId: number, metrics: BarrierMetrics): void {
    const p = this.pending.get(checkpointId);
    if (!p || p.snapshotted.has(task) || !p.waiting.has(task)) return;
    p.snapshotted.add(task);
    let result;
    try {
      result = snapshotTask(task, p.writer, this.options.measureCpu ?? false);
    } catch (error) {
      this.failPending(p, `The snapshot of ${task.identity.vertex.name} (${task.identity.subtaskIndex + 1}/${task.identity.vertex.parallelism}) failed: ${(error as Error).message}`, true);
      return;
    }
    // Flink's timestamps are whole ms; a task's local time runs in fractions of one (per-record costs).
    const at = Math.ceil(Math.max(task.localTime, this.options.clock.now()));
    const report: SubtaskCheckpointReport = {
      subtaskIndex: task.identity.subtaskIndex,
      ackTimestamp: at + result.syncDurationMs + result.asyncDurationMs,
      checkpointedSize: result.bytes,
      stateSize: result.bytes,
      syncDurationMs: result.syncDurationMs,
      asyncDurationMs: result.asyncDurationMs,
      processedData: metrics.processedData,
      persistedData: 0,
      // Whole milliseconds, as Flink reports them: a task's time runs fractional on the real clock.
      alignmentDurationMs: Math.round(metrics.alignmentDurationMs),
      startDelayMs: Math.max(0, Math.round(metrics.firstBarrierAt - p.triggerTimestamp)),
    };
    if (!result.pending) {
      this.options.scheduler.scheduleAt(report.ackTimestamp, () => this.acknowledge(checkpointId, task, report));
      return;
    }
    // Pre-barrier work (a sink flushing to Kafka) finishes in real time: acknowledge once it is done, at the earliest
    // when the modelled snapshot would have; a failed flush declines the checkpoint.
    result.pending.then(
      () => {
        if (!this.pending.has(checkpointId)) return;
        const ack = { ...report, ackTimestamp: Math.max(report.ackTimestamp, this.options.clock.now()) };
        this.options.scheduler.scheduleAt(ack.ackTimestamp, () => this.acknowledge(checkpointId, task, ack));
      },
      (error: unknown) => {
        const p = this.pending.get(checkpointId);
        if (p) this.failPending(p, `Task ${task.identity.vertex.name} (${task.identity.subtaskIndex + 1}/${task.identity.vertex.parallelism}) could not flush before checkpoint ${checkpointId}: ${(error as Error).message}`, true);
      },
    );
  }

  declineCheckpoint(task: Task, checkpointId: number, subsumed: boolean, reason: string): void {
    const p = this.pending.get(checkpointId);
    if (!p) return;
    const where = `${task.identity.vertex.name} (${task.identity.subtaskIndex + 1}/${task.identity.vertex.parallelism})`;
    this.failPending(p, subsumed ? CHECKPOINT_SUBSUMED : `Task ${where} declined checkpoint ${checkpointId}: ${reason}`, !subsumed);
  }

  /** A finished task acknowledges every pending checkpoint it has not snapshotted for (FLIP-147). */
  taskFinished(task: Task): void {
    for (const p of [...this.pending.values()]) {
      if (p.waiting.has(task) && !p.snapshotted.has(task)) this.performCheckpoint(task, p.id, { firstBarrierAt: task.localTime, alignmentDurationMs: 0, processedData: 0 });
    }
  }

  private acknowledge(checkpointId: number, task: Task, report: SubtaskCheckpointReport): void {
    const p = this.pending.get(checkpointId);
    if (!p || !p.waiting.delete(task)) return;
    this.options.tracker?.reportSubtask(checkpointId, task.identity.vertex.id, report);
    if (p.waiting.size === 0) this.complete(p);
  }

  private complete(p: PendingCheckpoint): void {
    const now = this.options.clock.now();
    this.pending.delete(p.id);
    p.timeout.cancel();
    let completed: CompletedSnapshot;
    try {
      completed = p.writer.complete(now);
    } catch (error) {
      this.pending.set(p.id, p);
      this.failPending(p, `Failed to finalize checkpoint ${p.id}: ${(error as Error).message}`, true);
      return;
    }
    this.options.tracker?.reportCompleted(p.id, completed.externalPath);
    // Side effects are committed for checkpoints and stop-with-savepoint, not for intermediate savepoints (Flink 1.15+).
    if (p.request.kind !== 'SAVEPOINT') for (const task of this.job.currentTasks()) if (task instanceof SourceTask) task.notifyCheckpointComplete(p.id);
    if (p.request.kind === 'CHECKPOINT') {
      this.lastCompletionAt = now;
      this.consecutiveFailures = 0;
    }
    p.request.onComplete?.(completed);
    if (p.request.kind === 'CHECKPOINT') for (const listener of [...this.completedListeners]) listener(completed);
  }

  private failPending(p: PendingCheckpoint, message: string, countsAsFailure: boolean): void {
    if (!this.pending.delete(p.id)) return;
    const now = this.options.clock.now();
    p.timeout.cancel();
    p.writer.abort();
    this.options.tracker?.reportFailed(p.id, now, message);
    for (const task of this.job.currentTasks()) task.abortCheckpoint(p.id);
    p.request.onFailure?.(new CheckpointFailure(message));
    if (countsAsFailure && p.request.kind === 'CHECKPOINT' && !this.shutDown) {
      this.consecutiveFailures++;
      const tolerable = this.options.config?.tolerableFailedCheckpoints ?? 0;
      if (this.consecutiveFailures > tolerable) {
        this.consecutiveFailures = 0;
        this.job.failOnCheckpointFailures(
          new CheckpointFailure(
            `Exceeded checkpoint tolerable failure threshold. The latest checkpoint failed due to ${message}, view the Checkpoint History tab or the Job Manager log to find out why continuous checkpoints failed.`,
          ),
        );
      }
    }
  }

  /** Failover, or a stop-with-savepoint beginning: every pending checkpoint fails ("Checkpoint Coordinator is suspending."). */
  suspend(): void {
    for (const p of [...this.pending.values()]) this.failPending(p, CHECKPOINT_SUSPENDING, false);
  }

  /**
   * The job ended: pending checkpoints fail, nothing is triggered any more, and the retained checkpoints are deleted
   * unless the retention policy keeps them (Flink's `CheckpointProperties`: a FINISHED job never keeps them;
   * RETAIN_ON_CANCELLATION keeps them when the job is canceled or failed, DELETE_ON_CANCELLATION when it failed).
   */
  shutdown(finalStatus?: 'FINISHED' | 'CANCELED' | 'FAILED'): void {
    for (const p of [...this.pending.values()]) this.failPending(p, CHECKPOINT_SHUTDOWN, false);
    this.shutDown = true;
    this.periodic?.cancel();
    this.periodic = undefined;
    if (finalStatus === undefined || !this.options.storage) return;
    const retention = this.options.config?.retention ?? 'NO_EXTERNALIZED_CHECKPOINTS';
    const keep =
      finalStatus !== 'FINISHED' &&
      (retention === 'RETAIN_ON_CANCELLATION' || (retention === 'DELETE_ON_CANCELLATION' && finalStatus === 'FAILED'));
    if (!keep) this.options.storage.discardAll(this.job.jobId);
  }

  /** The latest completed checkpoint (what a failover restores), if any. */
  latestCompleted(jobId: string): CompletedSnapshot | undefined {
    return this.options.storage?.latest(jobId);
  }
}
