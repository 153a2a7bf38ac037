import type { InputStatus, SourceReader, StreamEdge } from '../api/datastream.ts';
import type { Output, StreamOperator } from '../api/operator.ts';
import { MAX_WATERMARK } from '../api/operator.ts';
import { SplitWatermarkMultiplexer, StatusWatermarkValve, type WatermarkStrategy } from '../api/watermarks.ts';
import type { HeapKeyedStateBackend } from '../state/keyed-state-backend.ts';
import type { StateKey } from '../state/state-table.ts';
import { SmoothBurstyRateLimiter } from '../time/rate-limiter.ts';
import type { View } from '../metrics/views.ts';
import type { JobVertex } from './job-graph.ts';
import { InputGate, StreamEvent, type Channel, type NetworkBuffer, type NetworkConfig, type OutputOwner, type RecordWriter } from './network.ts';
import { OperatorMetrics, TaskIOMetrics } from './task-metrics.ts';

/** Flink's `ExecutionState`. */
export type ExecutionState =
  | 'CREATED'
  | 'SCHEDULED'
  | 'DEPLOYING'
  | 'INITIALIZING'
  | 'RUNNING'
  | 'FINISHED'
  | 'CANCELING'
  | 'CANCELED'
  | 'FAILED';

/**
 * The capacity model of one operator, per subtask: a cap on records per second (a blocking rate limiter, whose
 * waiting counts as busy time, as a throttled `processElement` does in Flink) and/or a fixed processing cost per
 * record. With neither, records cost no simulated time (only measured CPU time, when enabled).
 */
export interface CapacitySpec {
  maxRecordsPerSecond?: number;
  costPerRecordMs?: number;
}

/** Charges simulated time per record for one operator instance. */
export class CostModel {
  private readonly limiter: SmoothBurstyRateLimiter | null;

  constructor(readonly spec: CapacitySpec, startMs: number) {
    this.limiter = spec.maxRecordsPerSecond ? new SmoothBurstyRateLimiter(spec.maxRecordsPerSecond, startMs) : null;
    if (spec.costPerRecordMs !== undefined && !(spec.costPerRecordMs >= 0)) throw new RangeError('costPerRecordMs cannot be negative');
  }

  /** ms the record costs when it starts at `localTime` (waiting for a permit + processing). */
  charge(localTime: number): number {
    const cost = this.spec.costPerRecordMs ?? 0;
    return this.limiter ? this.limiter.acquire(localTime) + cost : cost;
  }
}

/** What a task's chain measured when it reached a checkpoint barrier (sources: zeros). */
export interface BarrierMetrics {
  /** When the first barrier reached the task (its virtual time). */
  firstBarrierAt: number;
  /** From the first barrier to the last (aligned inputs). */
  alignmentDurationMs: number;
  /** Bytes read from not-yet-blocked channels while aligning. */
  processedData: number;
}

/**
 * The checkpoint coordinator as tasks see it (Flink's `CheckpointResponder` + `SubtaskCheckpointCoordinator` in one):
 * a task that reached checkpoint `id` asks it to snapshot the chain and acknowledge; a task that must give up an
 * alignment declines; a task that finished acknowledges what it still owes.
 */
export interface TaskCheckpointHost {
  performCheckpoint(task: Task, checkpointId: number, metrics: BarrierMetrics): void;
  declineCheckpoint(task: Task, checkpointId: number, subsumed: boolean, reason: string): void;
  taskFinished(task: Task): void;
}

/** An operator with a broadcast input (`BroadcastProcessOperator`). */
interface BroadcastInputOperator extends StreamOperator {
  processBroadcastElement(value: unknown, timestamp: number): void;
}

/** Why a task stopped in the current step: decides whether leftover time is idle or back-pressured. */
const BLOCKED_ON_INPUT = 0;
const BLOCKED_ON_OUTPUT = 1;

/** One operator of a chain with its metrics and cost model; what outputs call into. */
export class OperatorHandle {
  readonly metrics: OperatorMetrics;
  cost: CostModel | null = null;
  output!: ChainOutput;

  constructor(
    readonly task: Task,
    readonly operator: StreamOperator,
    readonly name: string,
    readonly uid: string | undefined,
    readonly nodeId: number,
    /** Flink's OperatorID (32 hex): what snapshots are keyed by. */
    readonly operatorId: string = '',
  ) {
    this.metrics = new OperatorMetrics(name);
  }

  processElement(value: unknown, timestamp: number): void {
    this.metrics.numRecordsIn.count++;
    if (this.cost !== null) this.task.budget -= this.cost.charge(this.task.stepEnd - this.task.budget);
    this.operator.processElement(value, timestamp);
  }

  /** A record of the broadcast input of a two-input broadcast operator. */
  processBroadcastElement(value: unknown, timestamp: number): void {
    this.metrics.numRecordsIn.count++;
    if (this.cost !== null) this.task.budget -= this.cost.charge(this.task.stepEnd - this.task.budget);
    (this.operator as BroadcastInputOperator).processBroadcastElement(value, timestamp);
  }

  processWatermark(watermark: number): void {
    this.metrics.currentInputWatermark = watermark;
    this.operator.processWatermark(watermark);
  }

  processWatermarkStatus(idle: boolean): void {
    this.operator.processWatermarkStatus(idle);
  }
}

interface OutputTargets {
  chained: OperatorHandle[];
  writers: RecordWriter[];
}

/** An operator's output inside a task: to chained operators (direct calls) and to record writers. */
export class ChainOutput implements Output<unknown> {
  readonly main: OutputTargets = { chained: [], writers: [] };
  readonly sides = new Map<string, OutputTargets>();

  constructor(private readonly owner: OperatorHandle) {}

  targets(sideTag: string | undefined): OutputTargets {
    if (sideTag === undefined) return this.main;
    let t = this.sides.get(sideTag);
    if (!t) this.sides.set(sideTag, (t = { chained: [], writers: [] }));
    return t;
  }

  collect(value: unknown, timestamp: number): void {
    this.owner.metrics.numRecordsOut.count++;
    const { chained, writers } = this.main;
    for (let i = 0; i < chained.length; i++) chained[i].processElement(value, timestamp);
    for (let i = 0; i < writers.length; i++) writers[i].emit(value, timestamp);
  }

  collectSide(tag: string, value: unknown, timestamp: number): void {
    const t = this.sides.get(tag);
    if (!t) return;
    this.owner.metrics.numRecordsOut.count++;
    for (const c of t.chained) c.processElement(value, timestamp);
    for (const w of t.writers) w.emit(value, timestamp);
  }

  emitWatermark(watermark: number): void {
    this.owner.metrics.currentOutputWatermark = watermark;
    for (const t of this.all()) {
      for (const c of t.chained) c.processWatermark(watermark);
      for (const w of t.writers) w.broadcastWatermark(watermark);
    }
  }

  emitWatermarkStatus(idle: boolean): void {
    for (const t of this.all()) {
      for (const c of t.chained) c.processWatermarkStatus(idle);
      for (const w of t.writers) w.broadcastStatus(idle);
    }
  }

  private all(): OutputTargets[] {
    return this.sides.size === 0 ? [this.main] : [this.main, ...this.sides.values()];
  }
}

export interface TaskIdentity {
  vertex: JobVertex;
  subtaskIndex: number;
  attempt: number;
  taskManagerId: string;
  /** Host:port of the TaskManager, shown as `endpoint`. */
  endpoint: string;
}

/**
 * One subtask: an operator chain with its input gate or source reader, its record writers and its time
 * accounting. The engine runs tasks in steps of virtual time; inside a step a task spends its time budget on
 * records (their simulated cost, plus measured CPU time if enabled) until it runs out of input (idle), out of
 * output buffers (back-pressured), or out of time.
 */
export abstract class Task implements OutputOwner {
  state: ExecutionState = 'CREATED';
  readonly stateTimestamps: Partial<Record<ExecutionState, number>> = {};
  outputBlockers = 0;
  readonly writers: RecordWriter[] = [];
  readonly handles: OperatorHandle[] = [];
  readonly io = new TaskIOMetrics();
  /** Simulated ms left in the current step (negative: the last record overran into the next step). */
  budget = 0;
  stepEnd = 0;
  protected blockedOn = BLOCKED_ON_INPUT;
  private lastAccounted = -1;
  startTime = -1;
  endTime = -1;
  /** Measure real CPU time spent in the task and charge it as busy time. */
  measureCpu = false;
  failure: Error | undefined;
  /** Set by the job when checkpointing is possible. */
  checkpointHost: TaskCheckpointHost | undefined;

  /** Told of each state change (the job sets it: the processes' logs are written from here). */
  stateListener: ((task: Task, from: ExecutionState, to: ExecutionState, now: number) => void) | undefined;

  constructor(readonly identity: TaskIdentity) {}

  get head(): OperatorHandle {
    return this.handles[0];
  }

  setState(state: ExecutionState, now: number): void {
    const from = this.state;
    this.state = state;
    if (from !== state) this.stateListener?.(this, from, state, now);
    this.stateTimestamps[state] = now;
    if (state === 'RUNNING' && this.startTime < 0) this.startTime = now;
    if ((state === 'FINISHED' || state === 'CANCELED' || state === 'FAILED') && this.endTime < 0) this.endTime = now;
  }

  get isRunning(): boolean {
    return this.state === 'RUNNING';
  }

  /** What the task's thread did at the end of the last step: worked it through, waited for input, or for buffers. */
  get lastStepActivity(): 'busy' | 'idle' | 'back-pressured' {
    if (this.lastAccounted === BLOCKED_ON_OUTPUT) return 'back-pressured';
    if (this.lastAccounted === BLOCKED_ON_INPUT) return 'idle';
    return 'busy';
  }

  beginStep(stepStart: number, dt: number): void {
    this.stepEnd = stepStart + dt;
    this.budget = Math.min(this.budget, 0) + dt;
    this.blockedOn = BLOCKED_ON_INPUT;
  }

  /** Runs until blocked or out of time; returns whether any element was processed. */
  run(): boolean {
    if (this.state !== 'RUNNING' || this.budget <= 0) return false;
    if (!this.measureCpu) return this.runInternal();
    const started = performance.now();
    const progress = this.runInternal();
    this.budget -= performance.now() - started;
    return progress;
  }

  protected abstract runInternal(): boolean;

  /** Accounts the step: unused time is idle or back-pressured, the rest was busy. */
  endStep(dt: number): void {
    if (this.state !== 'RUNNING') return;
    const leftover = this.budget > 0 ? this.budget : 0;
    const kind = this.outputBlockers > 0 ? BLOCKED_ON_OUTPUT : this.blockedOn;
    if (leftover > 0) {
      if (kind === BLOCKED_ON_OUTPUT) this.io.softBackPressuredTime.add(leftover, this.lastAccounted === BLOCKED_ON_OUTPUT);
      else this.io.idleTime.add(leftover, this.lastAccounted === BLOCKED_ON_INPUT);
      this.lastAccounted = kind;
    } else {
      this.io.idleTime.endRun();
      this.io.softBackPressuredTime.endRun();
      this.lastAccounted = -1;
    }
    this.io.accumulatedBusyMs += dt - leftover;
    if (this.budget > 0) this.budget = 0;
  }

  /** Buffer timeout: ship partly filled buffers. */
  flushOutputs(): void {
    for (const w of this.writers) w.flushAll();
  }

  /** Processing-time timers of keyed operators. */
  advanceProcessingTime(now: number): void {
    for (const h of this.handles) {
      const op = h.operator as StreamOperator & { advanceProcessingTime?(now: number): void };
      op.advanceProcessingTime?.(now);
    }
  }

  views(): View[] {
    return [...this.io.views(), ...this.handles.flatMap((h) => h.metrics.views())];
  }

  open(now: number): void {
    for (const h of [...this.handles].reverse()) h.operator.open();
    this.setState('RUNNING', now);
  }

  /** The task's virtual time within the current step. */
  get localTime(): number {
    return this.stepEnd - Math.max(this.budget, 0);
  }

  /**
   * End of input: operators finish head first, then the outputs end (Flink's endInput + finish). Without drain (a
   * stop-with-savepoint without --drain) operators are not finished, only closed, and the end says so downstream.
   */
  protected endOfInput(drained = true): void {
    if (drained) for (const h of this.handles) h.operator.finish();
    for (const w of this.writers) w.broadcastEnd(drained);
    for (const h of this.handles) h.operator.close();
    this.setState('FINISHED', this.localTime);
    this.checkpointHost?.taskFinished(this);
  }

  /** The coordinator gave up checkpoint `id` (expired, declined elsewhere, job failing). */
  abortCheckpoint(_checkpointId: number): void {}

  cancel(now: number): void {
    if (this.state === 'FINISHED' || this.state === 'CANCELED' || this.state === 'FAILED') return;
    this.setState('CANCELING', now);
    for (const h of this.handles) {
      try {
        h.operator.close();
      } catch {
        // closing after cancel is best effort
      }
    }
    this.setState('CANCELED', now);
  }

  /** Keyed state backend of the head operator, if keyed. */
  get keyedBackend(): HeapKeyedStateBackend | undefined {
    return this.head.operator.keyedBackend;
  }

  /** Buffers in/out and pool usage, for the buffers.* metrics. */
  abstract bufferMetrics(): Record<string, number>;

  /** Network buffers this task holds now (its output's, plus its input's in an input task): its TaskManager's used segments. */
  networkBuffersInUse(): number {
    let n = 0;
    for (const w of this.writers) n += w.totalHeld;
    return n;
  }

  protected outputBufferMetrics(): Record<string, number> {
    let queued = 0;
    let held = 0;
    let pool = 0;
    for (const w of this.writers) {
      queued += w.queuedBuffers();
      held += w.totalHeld;
      pool += w.poolSize;
    }
    return { 'buffers.outputQueueLength': queued, 'buffers.outPoolUsage': pool > 0 ? held / pool : 0 };
  }
}

/** A task whose chain reads from an input gate. */
export class StreamInputTask extends Task {
  valve!: StatusWatermarkValve;
  private keySelector: ((value: unknown) => StateKey) | undefined;
  private backend: HeapKeyedStateBackend | undefined;
  /** Barrier alignment (Flink's `SingleCheckpointBarrierHandler`, aligned exactly-once). */
  private aligningId = -1;
  private lastBarrierId = 0;
  private alignedChannels = 0;
  private firstBarrierAt = 0;
  private consumedAtFirst = 0;
  /** Some input ended because of a stop without drain. */
  private endedWithoutDrain = false;

  readonly gate: InputGate;

  constructor(identity: TaskIdentity, network: NetworkConfig) {
    super(identity);
    this.gate = new InputGate(network, {
      numBytesInLocal: this.io.numBytesInLocal,
      numBytesInRemote: this.io.numBytesInRemote,
      numBuffersInLocal: this.io.numBuffersInLocal,
      numBuffersInRemote: this.io.numBuffersInRemote,
    });
  }

  /** Wires the valve and the key context once the chain exists. */
  initInput(keySelector: ((value: unknown) => StateKey) | undefined): void {
    this.keySelector = keySelector;
    this.backend = keySelector ? this.head.operator.keyedBackend : undefined;
    this.valve = new StatusWatermarkValve(
      this.gate.channels.length,
      (wm) => {
        this.io.currentInputWatermark = wm;
        this.head.processWatermark(wm);
      },
      (idle) => this.head.processWatermarkStatus(idle),
    );
  }

  protected runInternal(): boolean {
    let progress = false;
    const gate = this.gate;
    while (this.budget > 0) {
      if (this.outputBlockers > 0) {
        this.blockedOn = BLOCKED_ON_OUTPUT;
        break;
      }
      const channel = gate.peek();
      if (channel === undefined) {
        this.blockedOn = BLOCKED_ON_INPUT;
        break;
      }
      const buffer = channel.receiverQueue[0];
      progress = true;
      this.processBuffer(channel, buffer);
      if (buffer.readPos >= buffer.values.length) gate.release(channel);
      if (this.state !== 'RUNNING') break;
    }
    return progress;
  }

  private processBuffer(channel: Channel, buffer: NetworkBuffer): void {
    const values = buffer.values;
    const timestamps = buffer.timestamps;
    const keyGroups = buffer.keyGroups;
    const n = values.length;
    const head = this.head;
    const backend = this.backend;
    const selector = this.keySelector;
    const io = this.io;
    // The broadcast side of a BroadcastProcessFunction: its records go to processBroadcastElement.
    const broadcast = channel.writer.shipStrategy === 'BROADCAST';
    let i = buffer.readPos;
    while (i < n) {
      if (this.outputBlockers !== 0 || this.budget <= 0) break;
      const value = values[i];
      if (value instanceof StreamEvent) {
        i++;
        buffer.readPos = i;
        this.handleEvent(value, channel, buffer.bytes);
        continue;
      }
      io.numRecordsIn.count++;
      if (broadcast) {
        head.processBroadcastElement(value, timestamps[i]);
        i++;
        continue;
      }
      if (backend !== undefined) {
        const kg = keyGroups[i];
        backend.setCurrentKey(selector!(value), kg >= 0 ? kg : undefined);
      }
      head.processElement(value, timestamps[i]);
      i++;
    }
    buffer.readPos = i;
  }

  private handleEvent(event: StreamEvent, channel: Channel, bufferBytes: number): void {
    if (event.kind === StreamEvent.WATERMARK) this.valve.inputWatermark(event.value, channel.indexInGate);
    else if (event.kind === StreamEvent.STATUS) this.valve.inputWatermarkStatus(event.value === 1, channel.indexInGate);
    else if (event.kind === StreamEvent.CHECKPOINT_BARRIER) this.onBarrier(event.value, channel, bufferBytes);
    else {
      channel.finished = true;
      if (event.value === 1) this.endedWithoutDrain = true;
      this.gate.finishedChannels++;
      if (this.gate.finishedChannels === this.gate.channels.length) this.endOfInput(!this.endedWithoutDrain);
      else this.checkAlignment(bufferBytes);
    }
  }

  /**
   * A barrier from `channel`: block the channel until every other channel delivered the same barrier or ended, then
   * snapshot the chain, forward the barrier and read everything again. A barrier of a newer checkpoint while one is
   * being aligned subsumes it (the older one is declined); barriers of finished or aborted checkpoints are ignored.
   * `bufferBytes`: the buffer the barrier ends, whose records were read before it.
   */
  private onBarrier(checkpointId: number, channel: Channel, bufferBytes: number): void {
    if (checkpointId <= this.lastBarrierId) return;
    if (this.aligningId !== -1 && checkpointId > this.aligningId) {
      const older = this.aligningId;
      this.resetAlignment();
      this.lastBarrierId = older;
      this.checkpointHost?.declineCheckpoint(this, older, true, `Checkpoint ${older} was subsumed: the barrier of checkpoint ${checkpointId} arrived while it was being aligned.`);
    }
    if (this.aligningId === -1) {
      this.aligningId = checkpointId;
      this.firstBarrierAt = this.localTime;
      this.consumedAtFirst = this.gate.consumedBytes + bufferBytes;
      this.alignedChannels = 0;
    }
    this.gate.block(channel);
    this.alignedChannels++;
    this.checkAlignment(bufferBytes);
  }

  private checkAlignment(bufferBytes: number): void {
    if (this.aligningId === -1) return;
    if (this.alignedChannels + this.gate.finishedChannels < this.gate.channels.length) return;
    const checkpointId = this.aligningId;
    const now = this.localTime;
    const metrics: BarrierMetrics = {
      firstBarrierAt: this.firstBarrierAt,
      alignmentDurationMs: Math.max(0, now - this.firstBarrierAt),
      processedData: Math.max(0, this.gate.consumedBytes + bufferBytes - this.consumedAtFirst),
    };
    this.aligningId = -1;
    this.lastBarrierId = checkpointId;
    this.checkpointHost?.performCheckpoint(this, checkpointId, metrics);
    for (const w of this.writers) w.broadcastBarrier(checkpointId);
    this.gate.unblockAll();
  }

  private resetAlignment(): void {
    this.aligningId = -1;
    this.alignedChannels = 0;
    this.gate.unblockAll();
  }

  override abortCheckpoint(checkpointId: number): void {
    if (this.aligningId === checkpointId) this.resetAlignment();
    if (checkpointId > this.lastBarrierId) this.lastBarrierId = checkpointId;
  }

  override networkBuffersInUse(): number {
    return super.networkBuffersInUse() + this.gate.exclusiveBuffersInUse() + this.gate.floatingInUse;
  }

  bufferMetrics(): Record<string, number> {
    const queued = this.gate.queuedBuffers();
    const exclusiveTotal = this.gate.channels.filter((c) => !c.local).length * this.gate.config.buffersPerChannel;
    const floatingTotal = this.gate.config.floatingBuffersPerGate;
    const exclusiveUsage = exclusiveTotal > 0 ? this.gate.exclusiveBuffersInUse() / exclusiveTotal : 0;
    const floatingUsage = this.gate.floatingInUse / floatingTotal;
    return {
      'buffers.inputQueueLength': queued,
      'buffers.inPoolUsage': (this.gate.exclusiveBuffersInUse() + this.gate.floatingInUse) / (exclusiveTotal + floatingTotal),
      'buffers.inputExclusiveBuffersUsage': exclusiveUsage,
      'buffers.inputFloatingBuffersUsage': floatingUsage,
      ...this.outputBufferMetrics(),
    };
  }
}

/** A task whose chain starts at a source reader (Flink's `SourceOperatorStreamTask`). */
export class SourceTask extends Task {
  readonly watermarks: SplitWatermarkMultiplexer;
  private readonly emitFn: (value: unknown, timestamp: number, split?: number) => void;
  private emitted = 0;
  /** Records read per poll: small enough that a blocked output is noticed quickly. */
  batchSize = 64;
  private sourceCost: CostModel | null = null;
  /** A stop-with-savepoint reached this source: it reads nothing more until the savepoint completes or fails. */
  private stoppedFor = -1;
  private stopDrain = false;

  constructor(
    identity: TaskIdentity,
    readonly reader: SourceReader<unknown>,
    strategy: WatermarkStrategy,
  ) {
    super(identity);
    this.watermarks = new SplitWatermarkMultiplexer(
      strategy,
      {
        emitWatermark: (wm) => this.head.output.emitWatermark(wm),
        markIdle: () => this.head.output.emitWatermarkStatus(true),
        markActive: () => this.head.output.emitWatermarkStatus(false),
      },
      reader.activeSplits?.() ?? [0],
    );
    this.emitFn = (value, timestamp, split) => {
      this.emitted++;
      const handle = this.head;
      handle.metrics.numRecordsIn.count++;
      if (this.sourceCost !== null) this.budget -= this.sourceCost.charge(this.stepEnd - this.budget);
      this.watermarks.onEvent(timestamp, split ?? 0);
      handle.output.collect(value, timestamp);
    };
  }

  setSourceCost(cost: CostModel | null): void {
    this.sourceCost = cost;
  }

  /** Whether a stop-with-savepoint holds this source. */
  get isStopped(): boolean {
    return this.stoppedFor !== -1;
  }

  protected runInternal(): boolean {
    let progress = false;
    while (this.budget > 0) {
      if (this.stoppedFor !== -1) {
        this.blockedOn = BLOCKED_ON_INPUT;
        break;
      }
      if (this.outputBlockers > 0) {
        this.blockedOn = BLOCKED_ON_OUTPUT;
        break;
      }
      this.emitted = 0;
      const status: InputStatus = this.reader.pollNext(this.stepEnd - this.budget, this.batchSize, this.emitFn);
      if (this.emitted > 0) progress = true;
      this.syncSplits();
      if (status === 'END_OF_INPUT') {
        this.watermarks.emit(MAX_WATERMARK);
        this.endOfInput();
        progress = true;
        break;
      }
      if (status === 'NOTHING_AVAILABLE') {
        this.blockedOn = BLOCKED_ON_INPUT;
        break;
      }
    }
    return progress;
  }

  /** Finished splits release their watermark outputs. */
  private syncSplits(): void {
    const active = this.reader.activeSplits?.();
    if (active === undefined || active.length === this.watermarks.numSplits) return;
    const keep = new Set(active);
    for (const split of this.watermarks.splitIds()) if (!keep.has(split)) this.watermarks.removeSplit(split);
  }

  /**
   * The coordinator triggers checkpoint `id` here, between two polls: snapshot the chain, then the barrier goes out
   * after every record emitted so far. A stop-with-savepoint (`stop`) also stops reading; with `drain` the source first
   * emits MAX_WATERMARK, so every window and timer downstream fires before the savepoint.
   */
  triggerCheckpoint(checkpointId: number, options: { stop?: boolean; drain?: boolean } = {}): void {
    if (this.state !== 'RUNNING') return;
    if (options.stop && options.drain) this.watermarks.emit(MAX_WATERMARK);
    this.checkpointHost?.performCheckpoint(this, checkpointId, { firstBarrierAt: this.localTime, alignmentDurationMs: 0, processedData: 0 });
    for (const w of this.writers) w.broadcastBarrier(checkpointId);
    if (options.stop) {
      this.stoppedFor = checkpointId;
      this.stopDrain = options.drain ?? false;
    }
  }

  /** The stop-with-savepoint completed: the source ends (drained or not), and the end flows down the job. */
  finishAfterStop(): void {
    if (this.state !== 'RUNNING' || this.stoppedFor === -1) return;
    this.stoppedFor = -1;
    this.endOfInput(this.stopDrain);
  }

  override abortCheckpoint(checkpointId: number): void {
    // A failed stop-with-savepoint: the job keeps running and the source reads on.
    if (this.stoppedFor === checkpointId) this.stoppedFor = -1;
  }

  /** The coordinator completed checkpoint `checkpointId`: the reader commits what it snapshotted for it. */
  notifyCheckpointComplete(checkpointId: number): void {
    if (this.state === 'RUNNING' || this.state === 'FINISHED') this.reader.notifyCheckpointComplete?.(checkpointId);
  }

  override cancel(now: number): void {
    super.cancel(now);
    // A failed task is already terminal (cancel returns early), but its reader must let go of its splits all the same.
    this.reader.close?.();
  }

  protected override endOfInput(drained = true): void {
    super.endOfInput(drained);
    this.reader.close?.();
  }

  /** `pipeline.auto-watermark-interval` tick. */
  emitPeriodicWatermark(now: number): void {
    if (this.state === 'RUNNING' && this.stoppedFor === -1) this.watermarks.onPeriodicEmit(now, this.outputBlockers > 0);
  }

  bufferMetrics(): Record<string, number> {
    return this.outputBufferMetrics();
  }
}

/** The stream edge a writer serves, for wiring. */
export interface WriterBinding {
  writer: RecordWriter;
  edge: StreamEdge;
}
