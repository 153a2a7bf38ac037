import { randomBytes } from 'node:crypto';
import type { StreamGraph } from '../api/datastream.ts';
import type { OperatorContext, Output, StreamOperator } from '../api/operator.ts';
import { CheckpointCoordinator, type CheckpointedJob, type TriggerRequest } from '../checkpoint/checkpoint-coordinator.ts';
import type { CheckpointingConfig } from '../checkpoint/checkpoint-stats-rest.ts';
import { CheckpointStatsTracker, type CheckpointTaskPlan } from '../checkpoint/checkpoint-stats-tracker.ts';
import { FileSystemCheckpointStorage, type SnapshotOperatorInfo } from '../checkpoint/checkpoint-storage.ts';
import { prepareRestore, restoredKeyGroups, restoredOperatorState, restoredOperatorStates, withRestoredMaxParallelism, type PreparedRestore } from '../checkpoint/prepare-restore.ts';
import type { AllowedFolders } from '../checkpoint/target-directory.ts';
import { computeKeyGroupRangeForOperatorIndex } from '../../analysis/key-groups/key-group-range-assignment.ts';
import type { View } from '../metrics/views.ts';
import { exceptionHistoryEntry, taskManagerLostEntry, type RootExceptionInfoWire } from '../restart/exception-history.ts';
import { EXPONENTIAL_DELAY_DEFAULTS, RestartBackoff, type RestartStrategyConfig } from '../restart/restart-strategy.ts';
import { HeapKeyedStateBackend } from '../state/keyed-state-backend.ts';
import type { Clock } from '../time/clock.ts';
import type { ScheduledTask, VirtualScheduler } from '../time/scheduler.ts';
import { buildJobGraph, requiredSlots, type JobGraph, type JobVertex } from './job-graph.ts';
import { RescaleHistory, type RescaleDemand, type RescaleTerminatedReason } from './rescale-history.ts';
import { RecordWriter, type NetworkConfig } from './network.ts';
import { restoreTaskKeyedState, restoreTaskOperatorState, SOURCE_READER_STATE } from './task-snapshot.ts';
import {
  ChainOutput,
  CostModel,
  OperatorHandle,
  SourceTask,
  StreamInputTask,
  type CapacitySpec,
  type ExecutionState,
  type Task,
} from './task.ts';

/** Flink's `JobStatus`. */
export type JobStatus =
  | 'INITIALIZING'
  | 'CREATED'
  | 'RUNNING'
  | 'FAILING'
  | 'FAILED'
  | 'CANCELLING'
  | 'CANCELED'
  | 'FINISHED'
  | 'RESTARTING'
  | 'SUSPENDED'
  | 'RECONCILING';

export const TERMINAL_JOB_STATES: readonly JobStatus[] = ['FAILED', 'CANCELED', 'FINISHED', 'SUSPENDED'];

/** A slot a job's subtasks run in. */
export interface SlotRef {
  taskManagerId: string;
  endpoint: string;
  slotIndex: number;
}

/** Where checkpoints and savepoints of a job are written. */
export interface CheckpointStorageOptions {
  /** `execution.checkpointing.dir`. */
  checkpointDirectory?: string;
  /** `execution.checkpointing.savepoint-dir`. */
  savepointDirectory?: string;
  /** `execution.checkpointing.num-retained`. @default 1 */
  numRetained?: number;
  /** Where a savepoint request may name its target directory; undefined: anywhere the folder checks let through. */
  allowedFolders?: AllowedFolders;
}

export interface JobOptions {
  /** 32 lower-case hex; random when omitted. */
  jobId?: string;
  /** Per operator uid: the capacity model of each of its subtasks. */
  capacity?: Record<string, CapacitySpec>;
  /** `pipeline.auto-watermark-interval` in ms. @default 200 */
  autoWatermarkIntervalMs?: number;
  /** Charge measured CPU time as busy time (real-time mode). @default false */
  measureCpu?: boolean;
  /** Extra entries for `GET /jobs/:id/config` user-config (job parameters). */
  jobParameters?: Record<string, string>;
  /** Periodic checkpointing as configured (`parseCheckpointingConfig`); undefined = disabled. */
  checkpointing?: CheckpointingConfig;
  /** Checkpoint and savepoint folders; without a checkpoint folder checkpoints fail (savepoints need a target). */
  checkpointStorage?: CheckpointStorageOptions;
  /** The restart strategy. @default exponential-delay with checkpointing, none without (Flink 2.x) */
  restartStrategy?: RestartStrategyConfig;
  /** Uniform [0, 1) randomness (the exponential strategy's jitter). @default Math.random */
  random?: () => number;
  /** Start from this savepoint or checkpoint (prepared against this job's graph). */
  restore?: PreparedRestore;
  /** The job's Flink configuration (what `GET /jobs/:id/jobmanager/config` would add). */
  flinkConfiguration?: Record<string, string>;
  /** Rescales kept (`web.adaptive-scheduler.rescale-history.size`, Flink 2.3+); 0 or undefined: no history. */
  rescaleHistorySize?: number;
}

/** What a job needs from the cluster that runs it. */
export interface JobHost {
  readonly network: NetworkConfig;
  readonly clock: Clock;
  readonly scheduler: VirtualScheduler;
  /** `count` slots for the job (slot sharing: subtask i of every vertex in slot i), or undefined when not free. */
  allocateSlots(jobId: string, count: number): SlotRef[] | undefined;
  releaseSlots(jobId: string): void;
  onTerminal(job: JobExecution): void;
  /** A subtask of the job changed state (what its TaskManager and the JobManager log). */
  onTaskState?(job: JobExecution, task: Task, from: ExecutionState, to: ExecutionState, now: number): void;
  /** The job changed status (what the JobManager logs). */
  onJobStatus?(job: JobExecution, from: JobStatus, to: JobStatus, now: number): void;
}

/** One job vertex at runtime: its subtasks. */
export interface ExecutionJobVertex {
  jobVertex: JobVertex;
  tasks: Task[];
}

/** A vertex's parallelism bounds (`JobVertexResourceRequirements`). */
export interface ParallelismBounds {
  lowerBound: number;
  upperBound: number;
}

/** Why the job failed for good (`GET /jobs/:id/execution-result`). */
export interface JobFailure {
  className: string;
  message: string;
  cause: Error;
}

export function newJobId(): string {
  return randomBytes(16).toString('hex');
}

/** A no-op operator standing for the source inside its chain (the reader feeds its output directly). */
class SourcePlaceholder implements StreamOperator {
  setup(): void {}
  open(): void {}
  processElement(): void {}
  processWatermark(): void {}
  processWatermarkStatus(): void {}
  finish(): void {}
  close(): void {}
}

/** How often a restarting job that lacks slots looks again (adaptive scheduler: WaitingForResources). */
const RESOURCE_RETRY_MS = 100;

/**
 * A running job: its job graph, its tasks placed in slots and wired through the network stack, its status with
 * Flink's timestamps, its periodic work (buffer flushing, watermark emission, metric views), and its fault tolerance:
 * the checkpoint coordinator, the restart strategy (a failed task or a lost TaskManager restarts every task from the
 * latest completed checkpoint, with a new attempt number), stop-with-savepoint and rescaling (adaptive scheduler: the
 * job restarts at the new parallelism from a checkpoint, key groups redistributed).
 */
export class JobExecution implements CheckpointedJob {
  readonly jobId: string;
  readonly name: string;
  /** The program as submitted; rescaling derives job graphs from it. */
  private streamGraph: StreamGraph;
  jobGraph: JobGraph;
  status: JobStatus = 'INITIALIZING';
  readonly statusTimestamps: Partial<Record<JobStatus, number>> = {};
  readonly startTime: number;
  endTime = -1;
  /** The execution attempt of the current tasks (0, then +1 per restart or rescale). */
  attempt = 0;
  vertices: ExecutionJobVertex[] = [];
  tasks: Task[] = [];
  slots: SlotRef[] = [];
  /** Root exceptions, oldest first (`GET /jobs/:id/exceptions` shows them newest first). */
  readonly exceptionHistory: RootExceptionInfoWire[] = [];
  failure: JobFailure | undefined;
  readonly restartStrategy: RestartStrategyConfig;
  readonly restartBackoff: RestartBackoff;
  readonly checkpointTracker: CheckpointStatsTracker | undefined;
  readonly checkpoints: CheckpointCoordinator;
  numRescales = 0;
  /** Set by `PUT /jobs/:id/resource-requirements`; undefined = lower bound 1, upper bound = current parallelism. */
  resourceRequirements: Map<string, ParallelismBounds> | undefined;
  /** Flink 2.3's record of the job's rescales (FLIP-495); undefined when the history is off. */
  readonly rescales: RescaleHistory | undefined;
  /** When the metric views were last updated (−1: never; Flink's metric store is empty until the first fetch). */
  metricsUpdatedAt = -1;
  readonly options: JobOptions;
  private readonly clock: Clock;
  private readonly scheduler: VirtualScheduler;
  private readonly network: NetworkConfig;
  private readonly periodic: ScheduledTask[] = [];
  private views: View[] = [];
  private sourceTasks: SourceTask[] = [];
  private readonly initialRestore: PreparedRestore | undefined;
  private redeploy: ScheduledTask | undefined;
  private rescaleWait: { cancelListener: () => void; deadline: ScheduledTask } | undefined;

  constructor(
    graph: StreamGraph,
    slots: SlotRef[],
    private readonly host: JobHost,
    options: JobOptions,
  ) {
    this.options = options;
    this.clock = host.clock;
    this.scheduler = host.scheduler;
    this.network = host.network;
    this.streamGraph = graph;
    this.jobGraph = buildJobGraph(graph);
    if (options.restore) {
      this.streamGraph = withRestoredMaxParallelism(graph, this.jobGraph, options.restore.plan);
      if (this.streamGraph !== graph) this.jobGraph = buildJobGraph(this.streamGraph);
    }
    this.jobId = options.jobId ?? newJobId();
    if (!/^[0-9a-f]{32}$/.test(this.jobId)) throw new Error(`A job ID is 32 lower-case hex characters, got "${this.jobId}".`);
    this.name = graph.jobName;
    this.restartStrategy =
      options.restartStrategy ?? (options.checkpointing ? { type: 'exponential-delay', ...EXPONENTIAL_DELAY_DEFAULTS } : { type: 'none' });
    this.restartBackoff = new RestartBackoff(this.restartStrategy, options.random ?? Math.random);
    this.checkpointTracker = options.checkpointing ? new CheckpointStatsTracker() : undefined;
    const storageOptions = options.checkpointStorage;
    const storage = storageOptions?.checkpointDirectory
      ? new FileSystemCheckpointStorage({
          checkpointDirectory: storageOptions.checkpointDirectory,
          savepointDirectory: storageOptions.savepointDirectory,
          numRetained: storageOptions.numRetained ?? options.checkpointing?.numRetained,
          onDiscard: (_jobId, id) => this.checkpointTracker?.markDiscarded(id),
        })
      : undefined;
    this.checkpoints = new CheckpointCoordinator(this, {
      clock: this.clock,
      scheduler: this.scheduler,
      config: options.checkpointing,
      storage,
      allowedFolders: storageOptions?.allowedFolders,
      tracker: this.checkpointTracker,
      measureCpu: options.measureCpu,
    });
    this.initialRestore = options.restore;
    const now = this.clock.now();
    this.startTime = now;
    this.setStatus('INITIALIZING', now);
    this.setStatus('CREATED', now);
    this.rescales = options.rescaleHistorySize ? new RescaleHistory(options.rescaleHistorySize, now) : undefined;
    this.rescales?.start('INITIAL_SCHEDULE', this.jobGraph, new Map(), now, false);
    this.rescales?.transition('WaitingForResources', now);
    this.deploy(slots, options.restore);
    this.rescaleDeployed(now);

    const wmInterval = options.autoWatermarkIntervalMs ?? 200;
    this.periodic.push(
      this.scheduler.scheduleAtFixedRate(now + this.network.bufferTimeoutMs, this.network.bufferTimeoutMs, () => {
        for (const t of this.tasks) if (t.isRunning) t.flushOutputs();
      }),
      this.scheduler.scheduleAtFixedRate(now + wmInterval, wmInterval, (at) => {
        for (const t of this.sourceTasks) t.emitPeriodicWatermark(at);
      }),
      this.scheduler.scheduleAtFixedRate(now + 5000, 5000, (at) => {
        for (const v of this.views) v.update();
        this.metricsUpdatedAt = at;
      }),
    );
    this.checkpoints.startPeriodic();
  }

  static slotsNeeded(graph: StreamGraph): number {
    return requiredSlots(buildJobGraph(graph));
  }

  get numRestarts(): number {
    return this.restartBackoff.numRestarts;
  }

  /** The exception history, oldest first (alias of `exceptionHistory`). */
  get exceptions(): readonly RootExceptionInfoWire[] {
    return this.exceptionHistory;
  }

  private setStatus(status: JobStatus, now: number): void {
    const from = this.status;
    this.status = status;
    if (from !== status) this.host.onJobStatus?.(this, from, status, now);
    this.statusTimestamps[status] = now;
  }

  get isTerminal(): boolean {
    return TERMINAL_JOB_STATES.includes(this.status);
  }

  // --- CheckpointedJob -------------------------------------------------------------------------------------------

  isRunning(): boolean {
    return this.status === 'RUNNING' && this.tasks.every((t) => t.state === 'RUNNING' || t.state === 'FINISHED');
  }

  currentTasks(): readonly Task[] {
    return this.tasks;
  }

  checkpointPlan(): CheckpointTaskPlan[] {
    return this.vertices.map((v) => ({ vertexId: v.jobVertex.id, parallelism: v.tasks.length }));
  }

  snapshotOperators(): SnapshotOperatorInfo[] {
    return this.jobGraph.vertices.flatMap((v) => {
      const keyed = v.inputs.some((e) => e.shipStrategy === 'HASH');
      return v.operators.map((r) => ({
        operatorId: r.operatorId,
        ...(r.node.uid !== undefined ? { uid: r.node.uid } : {}),
        name: r.node.name,
        parallelism: r.parallelism,
        maxParallelism: r.maxParallelism,
        keyed: keyed && r === v.head,
      }));
    });
  }

  failOnCheckpointFailures(cause: Error): void {
    this.failover(exceptionHistoryEntry({ cause, timestamp: this.clock.now() }), cause);
  }

  // --- deployment ------------------------------------------------------------------------------------------------

  /** Builds, wires, opens and (when restoring) restores the tasks of a new attempt, then the job runs. */
  private deploy(slots: SlotRef[], restore: PreparedRestore | undefined): void {
    const now = this.clock.now();
    this.slots = slots;
    this.vertices = [];
    this.tasks = [];
    this.sourceTasks = [];
    const byVertex = new Map<JobVertex, Task[]>();
    for (const vertex of this.jobGraph.vertices) {
      const tasks: Task[] = [];
      for (let i = 0; i < vertex.parallelism; i++) {
        const slot = slots[i];
        const identity = { vertex, subtaskIndex: i, attempt: this.attempt, taskManagerId: slot.taskManagerId, endpoint: slot.endpoint };
        let task: Task;
        if (vertex.isSource) {
          const node = vertex.head.node;
          const restoredState = restore ? restoredOperatorState(restore, vertex.head.operatorId, i, SOURCE_READER_STATE) : undefined;
          const reader = node.source!.createReader({
            subtaskIndex: i,
            parallelism: vertex.parallelism,
            startTime: now,
            clock: this.clock,
            ...(restoredState !== undefined ? { restoredState } : {}),
          });
          task = new SourceTask(identity, reader, node.watermarkStrategy!);
          this.sourceTasks.push(task as SourceTask);
        } else {
          task = new StreamInputTask(identity, this.network);
        }
        task.measureCpu = this.options.measureCpu ?? false;
        task.stateListener = (t, from, to, at) => this.host.onTaskState?.(this, t, from, to, at);
        this.buildChain(task, vertex, i);
        tasks.push(task);
        this.tasks.push(task);
      }
      byVertex.set(vertex, tasks);
      this.vertices.push({ jobVertex: vertex, tasks });
    }
    // Wire the network: one writer per (job edge, sender subtask), one channel per (sender, receiver) pair.
    for (const edge of this.jobGraph.edges) {
      const senders = byVertex.get(edge.source)!;
      const receivers = byVertex.get(edge.target)!;
      const producer = edge.streamEdge.source;
      for (const sender of senders) {
        const writer = new RecordWriter(
          this.network,
          edge.shipStrategy,
          sender,
          {
            numRecordsOut: sender.io.numRecordsOut,
            numBytesOut: sender.io.numBytesOut,
            numBuffersOut: sender.io.numBuffersOut,
          },
          edge.streamEdge.recordSize,
          edge.streamEdge.keySelector,
          edge.target.maxParallelism,
          sender.identity.subtaskIndex,
        );
        const handle = sender.handles.find((h) => h.nodeId === producer)!;
        handle.output.targets(edge.streamEdge.sideOutputTag).writers.push(writer);
        sender.writers.push(writer);
        const targets = edge.shipStrategy === 'FORWARD' ? [receivers[sender.identity.subtaskIndex]] : receivers;
        for (const receiver of targets) {
          const gate = (receiver as StreamInputTask).gate;
          writer.channels.push(gate.addChannel(writer, receiver.identity.taskManagerId === sender.identity.taskManagerId));
        }
        writer.seal();
      }
    }
    for (const [vertex, tasks] of byVertex) {
      if (vertex.isSource) continue;
      const keyed = vertex.inputs.find((e) => e.shipStrategy === 'HASH');
      for (const task of tasks) (task as StreamInputTask).initInput(keyed?.streamEdge.keySelector);
    }
    for (const task of this.tasks) {
      task.setState('SCHEDULED', now);
      task.setState('DEPLOYING', now);
      task.setState('INITIALIZING', now);
    }
    for (const task of this.tasks) task.open(now);
    if (restore) {
      for (const task of this.tasks) {
        const head = task.head;
        if (head.operator.keyedBackend !== undefined) restoreTaskKeyedState(task, restore.loaded, head.operatorId, restoredKeyGroups(restore, head.operatorId, task.identity.subtaskIndex));
        restoreTaskOperatorState(task, (operatorId) => restoredOperatorStates(restore, operatorId, task.identity.subtaskIndex));
      }
      const meta = restore.loaded.metadata;
      this.checkpointTracker?.reportRestored({ checkpointId: meta.checkpointId, restoreTimestamp: now, isSavepoint: meta.isSavepoint, externalPath: restore.loaded.externalPath });
      this.checkpoints.restoredFrom(meta.checkpointId);
    }
    for (const task of this.tasks) task.checkpointHost = this.checkpoints;
    this.views = this.tasks.flatMap((t) => t.views());
    this.setStatus('RUNNING', now);
  }

  private buildChain(task: Task, vertex: JobVertex, subtaskIndex: number): void {
    const now = this.clock.now();
    const keyedInput = vertex.inputs.filter((e) => e.shipStrategy === 'HASH');
    if (keyedInput.length > 0 && keyedInput.length !== vertex.inputs.length) {
      throw new Error(`"${vertex.name}" mixes keyed and non-keyed inputs; key every input the same way.`);
    }
    for (const resolved of vertex.operators) {
      const node = resolved.node;
      const isHead = resolved === vertex.head;
      const operator: StreamOperator = node.kind === 'source' ? new SourcePlaceholder() : node.createOperator!();
      const handle = new OperatorHandle(task, operator, node.name, node.uid, node.id, resolved.operatorId);
      handle.output = new ChainOutput(handle);
      const context: OperatorContext = {
        operatorName: node.name,
        uid: node.uid ?? '',
        subtaskIndex,
        parallelism: resolved.parallelism,
        maxParallelism: resolved.maxParallelism,
        clock: this.clock,
        metrics: handle.metrics,
      };
      if (isHead && keyedInput.length > 0) {
        const range = computeKeyGroupRangeForOperatorIndex(resolved.maxParallelism, resolved.parallelism, subtaskIndex);
        context.keyed = {
          backend: new HeapKeyedStateBackend(resolved.maxParallelism, range, this.clock),
          keySelector: keyedInput[0].streamEdge.keySelector!,
        };
      }
      operator.setup(context, handle.output as Output<unknown>);
      const capacity = node.uid ? this.options.capacity?.[node.uid] : undefined;
      if (capacity) {
        if (node.kind === 'source') (task as SourceTask).setSourceCost(new CostModel(capacity, now));
        else handle.cost = new CostModel(capacity, now);
      }
      task.handles.push(handle);
    }
    for (const e of vertex.chainedEdges) {
      const from = task.handles.find((h) => h.nodeId === e.source)!;
      const to = task.handles.find((h) => h.nodeId === e.target)!;
      from.output.targets(e.sideOutputTag).chained.push(to);
    }
  }

  // --- the virtual-time loop -------------------------------------------------------------------------------------

  beginStep(stepStart: number, dt: number): void {
    for (const t of this.tasks) t.beginStep(stepStart, dt);
  }

  runPass(): boolean {
    if (this.status !== 'RUNNING') return false;
    let progress = false;
    for (const t of this.tasks) {
      try {
        if (t.run()) progress = true;
      } catch (error) {
        this.fail(error, t);
        return false;
      }
    }
    return progress;
  }

  endStep(stepEnd: number, dt: number): void {
    if (this.status !== 'RUNNING') return;
    for (const t of this.tasks) {
      t.endStep(dt);
      try {
        t.advanceProcessingTime(stepEnd);
      } catch (error) {
        this.fail(error, t);
        return;
      }
    }
    if (this.tasks.every((t) => t.state === 'FINISHED')) {
      this.setStatus('FINISHED', stepEnd);
      this.terminate(stepEnd);
    }
  }

  // --- failures and restarts -------------------------------------------------------------------------------------

  /** A task threw: it FAILED, and the job fails over through its restart strategy. */
  fail(error: unknown, task: Task): void {
    const now = this.clock.now();
    const err = error instanceof Error ? error : new Error(String(error));
    task.failure = err;
    task.setState('FAILED', now);
    const entry = exceptionHistoryEntry({
      cause: err,
      timestamp: now,
      task: {
        vertexName: task.identity.vertex.name,
        subtaskIndex: task.identity.subtaskIndex,
        parallelism: task.identity.vertex.parallelism,
        attempt: task.identity.attempt,
        endpoint: task.identity.endpoint,
        taskManagerId: task.identity.taskManagerId,
      },
    });
    this.failover(entry, err);
  }

  /**
   * A TaskManager this job runs on is gone: its tasks FAILED, the failure is global (2.2.1's adaptive scheduler
   * records "TaskManager with id … is no longer reachable." without a task), the job fails over.
   */
  onTaskManagerLost(taskManagerId: string): void {
    if (this.isTerminal || this.status !== 'RUNNING') return;
    const lost = this.tasks.filter((t) => t.identity.taskManagerId === taskManagerId);
    if (lost.length === 0) return;
    const now = this.clock.now();
    const entry = taskManagerLostEntry(taskManagerId, now);
    const cause = new Error(`TaskManager with id ${taskManagerId} is no longer reachable.`);
    cause.name = 'org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException';
    for (const t of lost) {
      if (t.state === 'FINISHED' || t.state === 'CANCELED' || t.state === 'FAILED') continue;
      t.failure = cause;
      t.setState('FAILED', now);
    }
    this.failover(entry, cause);
  }

  /**
   * Records the failure, fails pending checkpoints, cancels the tasks, and asks the restart strategy: restart after
   * its delay from the latest completed checkpoint, or FAILED.
   */
  private failover(entry: RootExceptionInfoWire, cause: Error): void {
    if (this.isTerminal || this.status === 'RESTARTING' || this.status === 'FAILING') return;
    const now = this.clock.now();
    this.exceptionHistory.push(entry);
    this.checkpoints.suspend();
    this.cancelRescaleWait();
    for (const t of this.tasks) t.cancel(now);
    const decision = this.restartBackoff.onFailure(now);
    if (!decision.restart) {
      this.failure = { className: 'org.apache.flink.runtime.JobException', message: decision.message, cause };
      this.setStatus('FAILING', now);
      this.setStatus('FAILED', now);
      this.terminate(now);
      return;
    }
    // Flink 2.3 records the restart as a rescale of its own (a rescale waiting for a checkpoint is dropped).
    this.rescales?.start('RECOVERABLE_FAILOVER', this.jobGraph, this.demand(this.currentResourceRequirements()), now);
    this.rescales?.transition('Restarting', now);
    this.setStatus('RESTARTING', now);
    this.host.releaseSlots(this.jobId);
    this.slots = [];
    this.redeploy = this.scheduler.scheduleAt(now + decision.delayMs, () => this.tryRedeploy());
  }

  /** Deploys the next attempt once the slots are there, from the latest completed checkpoint. */
  private tryRedeploy(): void {
    this.redeploy = undefined;
    if (this.status !== 'RESTARTING') return;
    const slots = this.host.allocateSlots(this.jobId, requiredSlots(this.jobGraph));
    if (!slots) {
      this.rescales?.transition('WaitingForResources', this.clock.now());
      this.redeploy = this.scheduler.scheduleAt(this.clock.now() + RESOURCE_RETRY_MS, () => this.tryRedeploy());
      return;
    }
    try {
      const restore = this.latestRestore();
      this.attempt++;
      this.deploy(slots, restore);
      this.rescaleDeployed(this.clock.now());
    } catch (error) {
      // The state cannot be read back: the job cannot recover (Flink fails it the same way).
      const cause = error instanceof Error ? error : new Error(String(error));
      const now = this.clock.now();
      this.rescales?.end('EXCEPTION_OCCURRED', now, { exception: `${cause.name}: ${cause.message}\n${cause.stack?.split('\n').slice(1).join('\n') ?? ''}`.trimEnd() });
      for (const t of this.tasks) t.cancel(now);
      this.exceptionHistory.push(exceptionHistoryEntry({ cause, timestamp: now }));
      this.failure = { className: 'org.apache.flink.runtime.JobException', message: `Could not restore the job: ${cause.message}`, cause };
      this.setStatus('FAILED', now);
      this.terminate(now);
    }
  }

  /** What a restart restores: the latest completed checkpoint, else the savepoint the job started from, else nothing. */
  private latestRestore(): PreparedRestore | undefined {
    const latest = this.checkpoints.latestCompleted(this.jobId);
    if (latest) return prepareRestore(latest.path, this.jobGraph, false);
    if (this.initialRestore) return prepareRestore(this.initialRestore.loaded, this.jobGraph, this.initialRestore.allowNonRestoredState);
    return undefined;
  }

  // --- savepoints, stop, rescale ---------------------------------------------------------------------------------

  /** Triggers a checkpoint or savepoint through the coordinator. */
  triggerCheckpoint(request: TriggerRequest): number | undefined {
    return this.checkpoints.trigger(request);
  }

  /**
   * Stop-with-savepoint: sources stop after the barrier (with `drain`, after MAX_WATERMARK); once the savepoint is
   * complete they end their input, the job drains and ends FINISHED. If the savepoint fails, the job keeps running.
   */
  stopWithSavepoint(request: Omit<TriggerRequest, 'kind'>): number | undefined {
    // Flink stops the checkpoint scheduler first (`stopCheckpointScheduler`): whatever is in flight is abandoned
    // with "Checkpoint Coordinator is suspending." just before the stop's SYNC_SAVEPOINT is triggered.
    this.checkpoints.suspend();
    return this.checkpoints.trigger({
      ...request,
      kind: 'SYNC_SAVEPOINT',
      onComplete: (completed) => {
        for (const s of this.sourceTasks) s.finishAfterStop();
        request.onComplete?.(completed);
      },
      onFailure: request.onFailure,
    });
  }

  /** `GET /jobs/:id/resource-requirements`: the bounds set, or 1..current parallelism. */
  currentResourceRequirements(): Map<string, ParallelismBounds> {
    const out = new Map<string, ParallelismBounds>();
    for (const v of this.jobGraph.vertices) out.set(v.id, this.resourceRequirements?.get(v.id) ?? { lowerBound: 1, upperBound: v.parallelism });
    return out;
  }

  /**
   * `PUT /jobs/:id/resource-requirements` under the adaptive scheduler: the job runs each vertex at its upper bound.
   * With periodic checkpoints the rescale waits for the next completed checkpoint (FLIP-461, at most
   * `rescale-trigger.max-delay` = 3 × the interval) and restarts from it; without, it restarts at once from the latest
   * checkpoint if any. Returns the parallelism the job will run at.
   */
  requestRescale(requirements: Map<string, ParallelismBounds>, desired: Map<string, ParallelismBounds> = requirements): Map<string, number> {
    const target = new Map<string, number>();
    for (const v of this.jobGraph.vertices) target.set(v.id, requirements.get(v.id)?.upperBound ?? v.parallelism);
    buildJobGraph(this.graphWithParallelism(target)); // an impossible program (e.g. a forward edge between other parallelisms) throws here
    this.resourceRequirements = new Map(requirements);
    if (this.isTerminal) return target;
    const changed = this.jobGraph.vertices.some((v) => target.get(v.id) !== v.parallelism);
    this.cancelRescaleWait();
    const now = this.clock.now();
    this.rescales?.start('UPDATE_REQUIREMENT', this.jobGraph, this.demand(desired), now);
    if (!changed) {
      // Nothing to change with the slots there are (or nothing asked): Flink ignores the rescale.
      this.rescales?.end('NO_RESOURCES_OR_PARALLELISMS_CHANGE', now);
      return target;
    }
    const config = this.options.checkpointing;
    if (config && this.status === 'RUNNING') {
      const cancelListener = this.checkpoints.onCheckpointCompleted(() => this.rescaleNow(target));
      const deadline = this.scheduler.scheduleAt(this.clock.now() + 3 * config.intervalMs, () => this.rescaleNow(target));
      this.rescaleWait = { cancelListener, deadline };
    } else {
      this.rescaleNow(target);
    }
    return target;
  }

  /** Each vertex's parallelism wanted and sufficient under these bounds (the current parallelism without). */
  private demand(bounds: Map<string, ParallelismBounds>): RescaleDemand {
    const out: RescaleDemand = new Map();
    for (const v of this.jobGraph.vertices) {
      const b = bounds.get(v.id);
      out.set(v.id, { desired: b?.upperBound ?? v.parallelism, sufficient: b?.lowerBound ?? 1 });
    }
    return out;
  }

  /** The new attempt runs: the rescale in progress (the first deployment, a rescale, a restart) completed. */
  private rescaleDeployed(now: number): void {
    this.rescales?.transition('CreatingExecutionGraph', now);
    this.rescales?.transition('Executing', now);
    this.rescales?.end('SUCCEEDED', now, { graph: this.jobGraph });
  }

  private cancelRescaleWait(): void {
    if (!this.rescaleWait) return;
    this.rescaleWait.cancelListener();
    this.rescaleWait.deadline.cancel();
    this.rescaleWait = undefined;
  }

  /** The program with every operator of each vertex at the vertex's target parallelism. */
  private graphWithParallelism(target: Map<string, number>): StreamGraph {
    const byNode = new Map<number, number>();
    for (const v of this.jobGraph.vertices) for (const r of v.operators) byNode.set(r.node.id, target.get(v.id) ?? v.parallelism);
    return { ...this.streamGraph, nodes: this.streamGraph.nodes.map((n) => ({ ...n, parallelism: byNode.get(n.id) ?? n.parallelism })) };
  }

  private rescaleNow(target: Map<string, number>): void {
    this.cancelRescaleWait();
    if (this.isTerminal) return;
    const now = this.clock.now();
    const graph = this.graphWithParallelism(target);
    const jobGraph = buildJobGraph(graph);
    if (this.status === 'RUNNING') {
      this.checkpoints.suspend();
      for (const t of this.tasks) t.cancel(now);
      this.rescales?.transition('Restarting', now);
      this.setStatus('RESTARTING', now);
      this.host.releaseSlots(this.jobId);
      this.slots = [];
    }
    this.streamGraph = graph;
    this.jobGraph = jobGraph;
    this.numRescales++;
    if (this.redeploy) this.redeploy.cancel();
    this.tryRedeploy();
  }

  // --- ending ----------------------------------------------------------------------------------------------------

  /** `PATCH /jobs/:id?mode=cancel`. */
  cancel(): void {
    if (this.isTerminal) return;
    const now = this.clock.now();
    this.setStatus('CANCELLING', now);
    for (const t of this.tasks) t.cancel(now);
    this.setStatus('CANCELED', now);
    this.terminate(now);
  }

  private terminate(now: number): void {
    this.endTime = now;
    const reason: RescaleTerminatedReason = this.status === 'FINISHED' ? 'JOB_FINISHED' : this.status === 'CANCELED' ? 'JOB_CANCELED' : 'JOB_FAILED';
    this.rescales?.end(reason, now);
    this.rescales?.transition('Finished', now);
    this.redeploy?.cancel();
    this.cancelRescaleWait();
    this.checkpoints.shutdown(this.status === 'FINISHED' || this.status === 'CANCELED' || this.status === 'FAILED' ? this.status : undefined);
    for (const p of this.periodic) p.cancel();
    for (const node of this.streamGraph.nodes) {
      node.source?.close?.();
      node.sink?.close?.();
    }
    this.host.releaseSlots(this.jobId);
    this.host.onTerminal(this);
  }

  /** Task counts by ExecutionState, lower-case keys as in `/jobs/overview`. */
  taskCounts(tasks: Task[] = this.tasks): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const s of ALL_EXECUTION_STATES) counts[s.toLowerCase()] = 0;
    counts.reconciling = 0;
    for (const t of tasks) counts[t.state.toLowerCase()] = (counts[t.state.toLowerCase()] ?? 0) + 1;
    return counts;
  }

  findVertex(vertexId: string): ExecutionJobVertex | undefined {
    return this.vertices.find((v) => v.jobVertex.id === vertexId);
  }
}

export const ALL_EXECUTION_STATES: readonly ExecutionState[] = [
  'CREATED',
  'SCHEDULED',
  'DEPLOYING',
  'RUNNING',
  'FINISHED',
  'CANCELING',
  'CANCELED',
  'FAILED',
  'INITIALIZING',
];
