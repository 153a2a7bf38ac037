import type { InputStatus, SourceReader, StreamEdge } from '../api/datastream.ts';
import type { Output, StreamOperator } from '../api/operator.ts';
import { MAX_WATERMARK } from '../api/operator.ts';
import { SourceWatermarkGenerator, StatusWatermarkValve, type WatermarkStrategy } from '../api/watermarks.ts';
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
  ) {
    this.metrics = new OperatorMetrics(name);
  }

  processElement(value: unknown, timestamp: number): void {
    this.metrics.numRecordsIn.count++;
    if (this.cost !== null) this.task.budget -= this.cost.charge(this.task.stepEnd - this.task.budget);
    this.operator.processElement(value, timestamp);
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

  constructor(readonly identity: TaskIdentity) {}

  get head(): OperatorHandle {
    return this.handles[0];
  }

  setState(state: ExecutionState, now: number): void {
    this.state = state;
    this.stateTimestamps[state] = now;
    if (state === 'RUNNING' && this.startTime < 0) this.startTime = now;
    if ((state === 'FINISHED' || state === 'CANCELED' || state === 'FAILED') && this.endTime < 0) this.endTime = now;
  }

  get isRunning(): boolean {
    return this.state === 'RUNNING';
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

  /** End of input: operators finish head first, then the outputs end (Flink's endInput + finish). */
  protected endOfInput(): void {
    for (const h of this.handles) h.operator.finish();
    for (const w of this.writers) w.broadcastEnd();
    for (const h of this.handles) h.operator.close();
    this.setState('FINISHED', this.stepEnd - Math.max(this.budget, 0));
  }

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
    let i = buffer.readPos;
    while (i < n) {
      if (this.outputBlockers !== 0 || this.budget <= 0) break;
      const value = values[i];
      if (value instanceof StreamEvent) {
        i++;
        buffer.readPos = i;
        this.handleEvent(value, channel);
        continue;
      }
      io.numRecordsIn.count++;
      if (backend !== undefined) {
        const kg = keyGroups[i];
        backend.setCurrentKey(selector!(value), kg >= 0 ? kg : undefined);
      }
      head.processElement(value, timestamps[i]);
      i++;
    }
    buffer.readPos = i;
  }

  private handleEvent(event: StreamEvent, channel: Channel): void {
    if (event.kind === StreamEvent.WATERMARK) this.valve.inputWatermark(event.value, channel.indexInGate);
    else if (event.kind === StreamEvent.STATUS) this.valve.inputWatermarkStatus(event.value === 1, channel.indexInGate);
    else {
      channel.finished = true;
      this.gate.finishedChannels++;
      if (this.gate.finishedChannels === this.gate.channels.length) this.endOfInput();
    }
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
  readonly watermarks: SourceWatermarkGenerator;
  private readonly emitFn: (value: unknown, timestamp: number) => void;
  private emitted = 0;
  /** Records read per poll: small enough that a blocked output is noticed quickly. */
  batchSize = 64;
  private sourceCost: CostModel | null = null;

  constructor(
    identity: TaskIdentity,
    readonly reader: SourceReader<unknown>,
    strategy: WatermarkStrategy,
  ) {
    super(identity);
    this.watermarks = new SourceWatermarkGenerator(strategy, {
      emitWatermark: (wm) => this.head.output.emitWatermark(wm),
      markIdle: () => this.head.output.emitWatermarkStatus(true),
      markActive: () => this.head.output.emitWatermarkStatus(false),
    });
    this.emitFn = (value, timestamp) => {
      this.emitted++;
      const handle = this.head;
      handle.metrics.numRecordsIn.count++;
      if (this.sourceCost !== null) this.budget -= this.sourceCost.charge(this.stepEnd - this.budget);
      this.watermarks.onEvent(timestamp);
      handle.output.collect(value, timestamp);
    };
  }

  setSourceCost(cost: CostModel | null): void {
    this.sourceCost = cost;
  }

  protected runInternal(): boolean {
    let progress = false;
    while (this.budget > 0) {
      if (this.outputBlockers > 0) {
        this.blockedOn = BLOCKED_ON_OUTPUT;
        break;
      }
      this.emitted = 0;
      const status: InputStatus = this.reader.pollNext(this.stepEnd - this.budget, this.batchSize, this.emitFn);
      if (this.emitted > 0) progress = true;
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

  /** `pipeline.auto-watermark-interval` tick. */
  emitPeriodicWatermark(now: number): void {
    if (this.state === 'RUNNING') this.watermarks.onPeriodicEmit(now);
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
