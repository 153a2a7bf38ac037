import { randomBytes } from 'node:crypto';
import type { StreamGraph } from '../api/datastream.ts';
import type { OperatorContext, Output, StreamOperator } from '../api/operator.ts';
import { computeKeyGroupRangeForOperatorIndex } from '../keygroups/key-group-range-assignment.ts';
import { HeapKeyedStateBackend } from '../state/keyed-state-backend.ts';
import type { Clock } from '../time/clock.ts';
import type { ScheduledTask, VirtualScheduler } from '../time/scheduler.ts';
import type { View } from '../metrics/views.ts';
import { buildJobGraph, requiredSlots, type JobGraph, type JobVertex } from './job-graph.ts';
import { RecordWriter, type NetworkConfig } from './network.ts';
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
  /** Checkpointing as configured (`GET /jobs/:id/checkpoints/config`); undefined = disabled. */
  checkpointing?: { intervalMs: number; timeoutMs: number; minPauseMs: number; maxConcurrent: number; directory: string };
}

/** One entry of the exception history (`GET /jobs/:id/exceptions`). */
export interface JobException {
  exceptionName: string;
  stacktrace: string;
  timestamp: number;
  taskName: string;
  endpoint: string;
  taskManagerId: string;
}

/** One job vertex at runtime: its subtasks. */
export interface ExecutionJobVertex {
  jobVertex: JobVertex;
  tasks: Task[];
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

/**
 * A running job: its job graph, its tasks placed in slots and wired through the network stack, its status with
 * Flink's timestamps, and its periodic work (buffer flushing, watermark emission, metric views).
 */
export class JobExecution {
  readonly jobId: string;
  readonly name: string;
  readonly jobGraph: JobGraph;
  status: JobStatus = 'INITIALIZING';
  readonly statusTimestamps: Partial<Record<JobStatus, number>> = {};
  readonly startTime: number;
  endTime = -1;
  readonly vertices: ExecutionJobVertex[] = [];
  readonly tasks: Task[] = [];
  readonly exceptions: JobException[] = [];
  numRestarts = 0;
  /** When the metric views were last updated (−1: never; Flink's metric store is empty until the first fetch). */
  metricsUpdatedAt = -1;
  readonly options: JobOptions;
  private readonly periodic: ScheduledTask[] = [];
  private readonly views: View[] = [];
  private readonly sourceTasks: SourceTask[] = [];
  private readonly onTerminal: (job: JobExecution) => void;

  constructor(
    graph: StreamGraph,
    readonly slots: SlotRef[],
    readonly network: NetworkConfig,
    private readonly clock: Clock,
    scheduler: VirtualScheduler,
    options: JobOptions,
    onTerminal: (job: JobExecution) => void,
  ) {
    this.options = options;
    this.onTerminal = onTerminal;
    this.jobGraph = buildJobGraph(graph);
    this.jobId = options.jobId ?? newJobId();
    if (!/^[0-9a-f]{32}$/.test(this.jobId)) throw new Error(`A job ID is 32 lower-case hex characters, got "${this.jobId}".`);
    this.name = graph.jobName;
    const now = clock.now();
    this.startTime = now;
    this.setStatus('INITIALIZING', now);
    this.setStatus('CREATED', now);
    this.build(options);
    for (const task of this.tasks) {
      task.setState('SCHEDULED', now);
      task.setState('DEPLOYING', now);
      task.setState('INITIALIZING', now);
    }
    for (const task of this.tasks) task.open(now);
    this.setStatus('RUNNING', now);

    for (const task of this.tasks) this.views.push(...task.views());
    const wmInterval = options.autoWatermarkIntervalMs ?? 200;
    this.periodic.push(
      scheduler.scheduleAtFixedRate(now + network.bufferTimeoutMs, network.bufferTimeoutMs, () => {
        for (const t of this.tasks) if (t.isRunning) t.flushOutputs();
      }),
      scheduler.scheduleAtFixedRate(now + wmInterval, wmInterval, (at) => {
        for (const t of this.sourceTasks) t.emitPeriodicWatermark(at);
      }),
      scheduler.scheduleAtFixedRate(now + 5000, 5000, (at) => {
        for (const v of this.views) v.update();
        this.metricsUpdatedAt = at;
      }),
    );
  }

  static slotsNeeded(graph: StreamGraph): number {
    return requiredSlots(buildJobGraph(graph));
  }

  private setStatus(status: JobStatus, now: number): void {
    this.status = status;
    this.statusTimestamps[status] = now;
  }

  get isTerminal(): boolean {
    return TERMINAL_JOB_STATES.includes(this.status);
  }

  private build(options: JobOptions): void {
    const now = this.clock.now();
    const byVertex = new Map<JobVertex, Task[]>();
    for (const vertex of this.jobGraph.vertices) {
      const tasks: Task[] = [];
      for (let i = 0; i < vertex.parallelism; i++) {
        const slot = this.slots[i];
        const identity = { vertex, subtaskIndex: i, attempt: 0, taskManagerId: slot.taskManagerId, endpoint: slot.endpoint };
        let task: Task;
        if (vertex.isSource) {
          const node = vertex.head.node;
          const reader = node.source!.createReader({ subtaskIndex: i, parallelism: vertex.parallelism, startTime: now, clock: this.clock });
          task = new SourceTask(identity, reader, node.watermarkStrategy!);
          this.sourceTasks.push(task as SourceTask);
        } else {
          task = new StreamInputTask(identity, this.network);
        }
        task.measureCpu = options.measureCpu ?? false;
        this.buildChain(task, vertex, i, options);
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
  }

  private buildChain(task: Task, vertex: JobVertex, subtaskIndex: number, options: JobOptions): void {
    const now = this.clock.now();
    const keyedInput = vertex.inputs.filter((e) => e.shipStrategy === 'HASH');
    if (keyedInput.length > 0 && keyedInput.length !== vertex.inputs.length) {
      throw new Error(`"${vertex.name}" mixes keyed and non-keyed inputs; key every input the same way.`);
    }
    for (const resolved of vertex.operators) {
      const node = resolved.node;
      const isHead = resolved === vertex.head;
      const operator: StreamOperator = node.kind === 'source' ? new SourcePlaceholder() : node.createOperator!();
      const handle = new OperatorHandle(task, operator, node.name, node.uid, node.id);
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
      const capacity = node.uid ? options.capacity?.[node.uid] : undefined;
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

  /** A task threw: record it and fail the job (no restart strategy in this engine part). */
  fail(error: unknown, task: Task): void {
    const now = this.clock.now();
    const err = error instanceof Error ? error : new Error(String(error));
    task.failure = err;
    task.setState('FAILED', now);
    this.exceptions.push({
      exceptionName: err.name === 'Error' ? 'java.lang.RuntimeException' : err.name,
      stacktrace: err.stack ?? `${err.name}: ${err.message}`,
      timestamp: now,
      taskName: `${task.identity.vertex.name} (${task.identity.subtaskIndex + 1}/${task.identity.vertex.parallelism})#${task.identity.attempt}`,
      endpoint: task.identity.endpoint,
      taskManagerId: task.identity.taskManagerId,
    });
    this.setStatus('FAILING', now);
    for (const t of this.tasks) if (t !== task) t.cancel(now);
    this.setStatus('FAILED', now);
    this.terminate(now);
  }

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
    for (const p of this.periodic) p.cancel();
    this.onTerminal(this);
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
