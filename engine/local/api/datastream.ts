import type { Clock } from '../time/clock.ts';
import type { AggregateFunction } from '../state/keyed-state.ts';
import type { StateKey } from '../state/state-table.ts';
import { mapFunction, ProcessOperator, type KeyedProcessFunction, type ProcessFunction } from './functions.ts';
import type { OutputTag, StreamOperator } from './operator.ts';
import type { WatermarkStrategy } from './watermarks.ts';
import { BroadcastProcessOperator, type BroadcastProcessFunction } from './broadcast.ts';
import { WindowOperator, type ProcessWindowFunction, type WindowAssigner } from './windows.ts';

/**
 * A small DataStream API, shaped like Flink's, that builds a `StreamGraph` for the local engine's runtime:
 * `env.fromSource(...).process(...).keyBy(...).window(...).aggregate(...).sinkTo(...)`, with uid/name/parallelism
 * per operator, side outputs and union.
 */

export type InputStatus = 'MORE_AVAILABLE' | 'NOTHING_AVAILABLE' | 'END_OF_INPUT';

export interface SourceReaderContext {
  subtaskIndex: number;
  parallelism: number;
  /** When the job started (processing time). */
  startTime: number;
  clock: Clock;
  /**
   * The reader's restored operator state (`SourceReaderState`: one entry per split, redistributed over the new
   * subtasks as Flink's SPLIT_DISTRIBUTE list state). When set, the reader reads exactly these splits (possibly none);
   * when undefined the job starts fresh and the reader takes its initial splits.
   */
  restoredState?: readonly unknown[];
}

/** Emits one record of a split (split 0 for readers without splits). */
export type SourceEmit<T> = (value: T, timestamp: number, split?: number) => void;

/** One source subtask's reader (FLIP-27 `SourceReader`, pull-based). */
export interface SourceReader<T> {
  /**
   * Emits records available at or before `now` (at most `max`), each with its timestamp (and, for split-based readers,
   * its split); says whether more are available right away, none until later, or the input has ended.
   */
  pollNext(now: number, max: number, emit: SourceEmit<T>): InputStatus;
  /** Extra source metrics (`pendingRecords`, ...), read when metrics are served. */
  metrics?(): Record<string, number>;
  /** Split-based readers: the splits still being read (a finished split no longer holds the watermark back). */
  activeSplits?(): readonly number[];
  /**
   * The reader's position as operator list state (`SourceReaderState`, SPLIT_DISTRIBUTE): one plain-data entry per
   * split, given back through `SourceReaderContext.restoredState`. Readers without it restart from scratch.
   */
  snapshotState?(checkpointId?: number): unknown[];
  /**
   * Checkpoint `checkpointId` completed (checkpoints and stop-with-savepoint; intermediate savepoints commit no side
   * effects, as in Flink since 1.15): e.g. a Kafka reader commits the offsets it snapshotted for it.
   */
  notifyCheckpointComplete?(checkpointId: number): void;
  /** The task ended or was cancelled: release what the reader holds (idempotent). */
  close?(): void;
}

export interface Source<T> {
  readonly bounded: boolean;
  createReader(context: SourceReaderContext): SourceReader<T>;
  /** The job ended for good: release connections shared by its readers (idempotent). */
  close?(): void;
}

export interface SinkWriter<T> {
  write(value: T, timestamp: number): void;
  /**
   * Before the checkpoint barrier passes (Flink's `prepareSnapshotPreBarrier`): everything written so far must become
   * durable. A promise makes the checkpoint's acknowledgement wait for it (an at-least-once Kafka sink flushes here).
   */
  flush?(): Promise<void> | void;
  close?(): void;
}

export interface Sink<T> {
  createWriter(context: { subtaskIndex: number; parallelism: number }): SinkWriter<T>;
  /** The job ended for good: release connections shared by its writers (idempotent). */
  close?(): void;
}

/** Estimated serialized size in bytes of a record on the wire (drives buffer filling and numBytes metrics). */
export type RecordSizer = (value: unknown) => number;

export type ChainingStrategy = 'ALWAYS' | 'HEAD' | 'NEVER';
export type Partitioning = 'DEFAULT' | 'FORWARD' | 'HASH' | 'REBALANCE' | 'BROADCAST';

export interface StreamNode {
  id: number;
  uid?: string;
  name: string;
  kind: 'source' | 'operator' | 'sink';
  parallelism?: number;
  maxParallelism?: number;
  chaining: ChainingStrategy;
  slotSharingGroup: string;
  createOperator?: () => StreamOperator;
  source?: Source<unknown>;
  /** Sink nodes: the sink (its writers are made by the operator). */
  sink?: Sink<unknown>;
  watermarkStrategy?: WatermarkStrategy;
  /** Size of this node's output records. */
  outputSize: RecordSizer;
}

export interface StreamEdge {
  source: number;
  target: number;
  partitioning: Partitioning;
  keySelector?: (value: unknown) => StateKey;
  /** Side output this edge reads, or undefined for the main output. */
  sideOutputTag?: string;
  /** Size of the records on this edge. */
  recordSize: RecordSizer;
}

export interface StreamGraph {
  jobName: string;
  defaultParallelism: number;
  /** Job-wide max parallelism (`env.setMaxParallelism`), or undefined for Flink's default rule. */
  maxParallelism?: number;
  nodes: StreamNode[];
  edges: StreamEdge[];
}

/** Default size estimate: JSON length, for custom jobs without a sizer. */
export const jsonSize: RecordSizer = (value) => (typeof value === 'string' ? value.length + 4 : JSON.stringify(value)?.length ?? 8);

interface Upstream {
  node: StreamNode;
  sideOutputTag?: string;
  /** Size of the records on this output (side outputs may carry another type than the main output). */
  outputSize?: RecordSizer;
}

export class StreamExecutionEnvironment {
  readonly nodes: StreamNode[] = [];
  readonly edges: StreamEdge[] = [];
  parallelism: number;
  maxParallelism: number | undefined;

  constructor(options: { parallelism?: number; maxParallelism?: number } = {}) {
    this.parallelism = options.parallelism ?? 1;
    this.maxParallelism = options.maxParallelism;
  }

  setParallelism(parallelism: number): this {
    this.parallelism = parallelism;
    return this;
  }

  setMaxParallelism(maxParallelism: number): this {
    this.maxParallelism = maxParallelism;
    return this;
  }

  fromSource<T>(source: Source<T>, watermarkStrategy: WatermarkStrategy, sourceName: string, outputSize: RecordSizer = jsonSize): SingleOutputStream<T> {
    const node = this.addNode({
      name: `Source: ${sourceName}`,
      kind: 'source',
      chaining: 'HEAD',
      source: source as Source<unknown>,
      watermarkStrategy,
      outputSize,
    });
    return new SingleOutputStream<T>(this, [{ node }], 'DEFAULT');
  }

  addNode(spec: Omit<StreamNode, 'id' | 'slotSharingGroup'> & { slotSharingGroup?: string }): StreamNode {
    const node: StreamNode = { slotSharingGroup: 'default', ...spec, id: this.nodes.length + 1 };
    this.nodes.push(node);
    return node;
  }

  getStreamGraph(jobName: string): StreamGraph {
    return {
      jobName,
      defaultParallelism: this.parallelism,
      maxParallelism: this.maxParallelism,
      nodes: this.nodes,
      edges: this.edges,
    };
  }
}

export class DataStream<T> {
  constructor(
    protected readonly env: StreamExecutionEnvironment,
    protected readonly upstreams: Upstream[],
    protected readonly partitioning: Partitioning,
    protected readonly keySelector?: (value: unknown) => StateKey,
  ) {}

  protected addEdgesTo(target: StreamNode): void {
    for (const up of this.upstreams) {
      this.env.edges.push({
        source: up.node.id,
        target: target.id,
        partitioning: this.partitioning,
        keySelector: this.keySelector,
        sideOutputTag: up.sideOutputTag,
        recordSize: up.outputSize ?? up.node.outputSize,
      });
    }
  }

  protected addOperator<O>(name: string, createOperator: () => StreamOperator, outputSize: RecordSizer, keyed: boolean): SingleOutputStream<O> {
    const node = this.env.addNode({ name, kind: 'operator', chaining: 'ALWAYS', createOperator, outputSize });
    if (keyed && this.partitioning !== 'HASH') throw new Error(`"${name}" needs a keyed input: call keyBy first.`);
    this.addEdgesTo(node);
    return new SingleOutputStream<O>(this.env, [{ node }], 'DEFAULT');
  }

  process<O>(fn: ProcessFunction<T, O>, outputSize: RecordSizer = jsonSize, name = 'Process'): SingleOutputStream<O> {
    return this.addOperator<O>(name, () => new ProcessOperator(fn as ProcessFunction<unknown, unknown>), outputSize, false);
  }

  map<O>(fn: (value: T) => O, outputSize: RecordSizer = jsonSize, name = 'Map'): SingleOutputStream<O> {
    return this.process(mapFunction(fn), outputSize, name);
  }

  keyBy<K extends StateKey>(keySelector: (value: T) => K): KeyedStream<T, K> {
    return new KeyedStream<T, K>(this.env, this.upstreams, keySelector as (value: unknown) => StateKey);
  }

  rebalance(): DataStream<T> {
    return new DataStream<T>(this.env, this.upstreams, 'REBALANCE');
  }

  /** Every record to every subtask of the next operator (Flink's `BroadcastPartitioner`): the broadcast side of `connect`. */
  broadcast(): DataStream<T> {
    return new DataStream<T>(this.env, this.upstreams, 'BROADCAST');
  }

  /**
   * A non-keyed stream with a broadcast stream (Flink's `BroadcastConnectedStream`): `process` runs a
   * `BroadcastProcessFunction` whose broadcast state is the same table on every subtask.
   */
  connect<B>(broadcastStream: DataStream<B>): BroadcastConnectedStream<T, B> {
    if (this.partitioning === 'HASH') throw new Error('connect() here takes a non-keyed stream (a keyed one needs a KeyedBroadcastProcessFunction).');
    if (broadcastStream.partitioning !== 'BROADCAST') throw new Error('connect() takes a broadcast stream: call broadcast() on it first.');
    return new BroadcastConnectedStream<T, B>(this.env, this, broadcastStream);
  }

  /** @internal The edges from this stream into `target`. */
  connectTo(target: StreamNode): void {
    this.addEdgesTo(target);
  }

  union(...others: DataStream<T>[]): DataStream<T> {
    const all = [this, ...others];
    if (all.some((s) => s.partitioning === 'HASH')) throw new Error('union() takes un-keyed streams; call keyBy after union.');
    return new DataStream<T>(this.env, all.flatMap((s) => s.upstreams), 'DEFAULT');
  }

  sinkTo(sink: Sink<T>, sinkName: string): SingleOutputStream<never> {
    const node = this.env.addNode({
      name: `Sink: ${sinkName}`,
      kind: 'sink',
      chaining: 'ALWAYS',
      createOperator: () => new SinkOperator(sink as Sink<unknown>),
      sink: sink as Sink<unknown>,
      outputSize: jsonSize,
    });
    this.addEdgesTo(node);
    return new SingleOutputStream<never>(this.env, [{ node }], 'DEFAULT');
  }
}

/** A stream connected with a broadcast stream: `process(BroadcastProcessFunction)`. */
export class BroadcastConnectedStream<I, B> {
  constructor(
    private readonly env: StreamExecutionEnvironment,
    private readonly input: DataStream<I>,
    private readonly broadcastInput: DataStream<B>,
  ) {}

  process<O>(fn: BroadcastProcessFunction<I, B, O>, outputSize: RecordSizer = jsonSize, name = 'Co-Process-Broadcast'): SingleOutputStream<O> {
    const node = this.env.addNode({ name, kind: 'operator', chaining: 'ALWAYS', createOperator: () => new BroadcastProcessOperator(fn) as unknown as StreamOperator, outputSize });
    this.input.connectTo(node);
    this.broadcastInput.connectTo(node);
    return new SingleOutputStream<O>(this.env, [{ node }], 'DEFAULT');
  }
}

/** A stream produced by one operator: where uid, name, parallelism and side outputs are set. */
export class SingleOutputStream<T> extends DataStream<T> {
  private get node(): StreamNode {
    return this.upstreams[0].node;
  }

  uid(uid: string): this {
    if (this.env.nodes.some((n) => n !== this.node && n.uid === uid)) throw new Error(`Duplicate operator uid "${uid}".`);
    this.node.uid = uid;
    return this;
  }

  name(name: string): this {
    this.node.name = this.node.kind === 'source' ? `Source: ${name}` : this.node.kind === 'sink' ? `Sink: ${name}` : name;
    return this;
  }

  setParallelism(parallelism: number): this {
    this.node.parallelism = parallelism;
    return this;
  }

  setMaxParallelism(maxParallelism: number): this {
    this.node.maxParallelism = maxParallelism;
    return this;
  }

  disableChaining(): this {
    this.node.chaining = 'NEVER';
    return this;
  }

  startNewChain(): this {
    this.node.chaining = 'HEAD';
    return this;
  }

  getSideOutput<X>(tag: OutputTag<X>, outputSize: RecordSizer = jsonSize): DataStream<X> {
    // Side outputs share the producing node; the edge remembers which output it reads.
    return new DataStream<X>(this.env, [{ node: this.node, sideOutputTag: tag.id, outputSize }], 'DEFAULT');
  }
}

export class KeyedStream<T, K extends StateKey> extends DataStream<T> {
  constructor(env: StreamExecutionEnvironment, upstreams: Upstream[], keySelector: (value: unknown) => StateKey) {
    super(env, upstreams, 'HASH', keySelector);
  }

  override process<O>(fn: KeyedProcessFunction<K, T, O> | ProcessFunction<T, O>, outputSize: RecordSizer = jsonSize, name = 'KeyedProcess'): SingleOutputStream<O> {
    return this.addOperator<O>(name, () => new ProcessOperator(fn as KeyedProcessFunction<StateKey, unknown, unknown>), outputSize, true);
  }

  window(assigner: WindowAssigner): WindowedStream<T, K> {
    return new WindowedStream<T, K>(this, assigner);
  }

  /** @internal */
  addKeyedOperator<O>(name: string, create: () => StreamOperator, outputSize: RecordSizer): SingleOutputStream<O> {
    return this.addOperator<O>(name, create, outputSize, true);
  }
}

export class WindowedStream<T, K extends StateKey> {
  private lateness = 0;
  private lateTag: OutputTag<T> | undefined;

  constructor(private readonly input: KeyedStream<T, K>, private readonly assigner: WindowAssigner) {}

  allowedLateness(ms: number): this {
    this.lateness = ms;
    return this;
  }

  sideOutputLateData(tag: OutputTag<T>): this {
    this.lateTag = tag;
    return this;
  }

  aggregate<ACC, R, OUT>(
    aggregate: AggregateFunction<T, ACC, R>,
    windowFunction: ProcessWindowFunction<R, OUT, K>,
    outputSize: RecordSizer = jsonSize,
  ): SingleOutputStream<OUT> {
    const spec = {
      assigner: this.assigner,
      aggregate,
      windowFunction,
      allowedLatenessMs: this.lateness,
      lateDataTag: this.lateTag,
    };
    return this.input.addKeyedOperator<OUT>(
      this.assigner.describe(),
      () => new WindowOperator(spec) as unknown as StreamOperator,
      outputSize,
    );
  }
}

/** Runs a sink writer (Flink's SinkWriterOperator). */
export class SinkOperator<T> implements StreamOperator<T, never> {
  private writer: SinkWriter<T> | undefined;
  private context!: Parameters<StreamOperator['setup']>[0];

  constructor(private readonly sink: Sink<T>) {}

  setup(context: Parameters<StreamOperator['setup']>[0]): void {
    this.context = context;
  }

  open(): void {
    this.writer = this.sink.createWriter({ subtaskIndex: this.context.subtaskIndex, parallelism: this.context.parallelism });
  }

  processElement(value: T, timestamp: number): void {
    this.writer!.write(value, timestamp);
  }

  /** Flushes the writer before a checkpoint barrier; the checkpoint is acknowledged once the promise resolves. */
  prepareSnapshotPreBarrier(): Promise<void> | void {
    return this.writer?.flush?.();
  }

  processWatermark(): void {}

  processWatermarkStatus(): void {}

  finish(): void {}

  close(): void {
    this.writer?.close?.();
  }
}
