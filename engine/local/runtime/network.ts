import { javaHashCode, type JavaKey } from '../../analysis/key-groups/java-hash.ts';
import { computeKeyGroupForKeyHash, computeOperatorIndexForKeyGroup } from '../../analysis/key-groups/key-group-range-assignment.ts';
import type { RecordSizer } from '../api/datastream.ts';
import type { StateKey } from '../state/state-table.ts';
import type { ShipStrategy } from './job-graph.ts';

/**
 * The network stack between tasks, with Flink's credit-based flow control:
 * - a sender writes records into a buffer per subpartition (channel) of fixed size (`taskmanager.memory.segment-size`);
 *   a full buffer is finished, and partly filled ones are flushed every `execution.buffer-timeout.interval`;
 * - a finished buffer crosses to the receiver only when the receiver has a free buffer (a credit): one of its
 *   exclusive buffers per channel or a floating buffer of the input gate; a local channel (same TaskManager) needs no
 *   credit, but its buffers stay the sender's until consumed;
 * - a sender holding `max-buffers-per-channel` buffers on any channel, or its whole pool, is unavailable: the task
 *   stops processing input and is back-pressured, which in turn stops it reading its own input, and so on up to
 *   the source.
 * Records cross in batches (a buffer at a time); nothing here allocates per record except the record itself.
 */

export interface NetworkConfig {
  /** `taskmanager.memory.segment-size` in bytes. @default 32768 */
  segmentSize: number;
  /** `taskmanager.network.memory.buffers-per-channel` (exclusive receiver buffers). @default 2 */
  buffersPerChannel: number;
  /** `taskmanager.network.memory.floating-buffers-per-gate`. @default 8 */
  floatingBuffersPerGate: number;
  /** `taskmanager.network.memory.max-buffers-per-channel`. @default 10 */
  maxBuffersPerChannel: number;
  /** `execution.buffer-timeout.interval` in ms. @default 100 */
  bufferTimeoutMs: number;
}

export const DEFAULT_NETWORK_CONFIG: NetworkConfig = {
  segmentSize: 32 * 1024,
  buffersPerChannel: 2,
  floatingBuffersPerGate: 8,
  maxBuffersPerChannel: 10,
  bufferTimeoutMs: 100,
};

/**
 * In-band control elements (serialized with the records in Flink too, except end-of-partition). A checkpoint barrier
 * (`CheckpointBarrier`) carries the checkpoint ID; an end of partition carries 1 when the input ended because of a
 * stop-with-savepoint without drain (Flink's `EndOfData(NO_DRAIN)`: operators are not finished), 0 otherwise.
 */
export class StreamEvent {
  static readonly WATERMARK = 1;
  static readonly STATUS = 2;
  static readonly END_OF_PARTITION = 3;
  static readonly CHECKPOINT_BARRIER = 4;
  constructor(readonly kind: number, readonly value: number) {}
}

const END_OF_PARTITION = new StreamEvent(StreamEvent.END_OF_PARTITION, 0);
const END_OF_PARTITION_NO_DRAIN = new StreamEvent(StreamEvent.END_OF_PARTITION, 1);
/** A serialized `CheckpointBarrier` (id, timestamp, options) with its tag. */
const BARRIER_BYTES = 29;
const IDLE = new StreamEvent(StreamEvent.STATUS, 1);
const ACTIVE = new StreamEvent(StreamEvent.STATUS, 0);
/** A serialized watermark: tag + long, plus the record length prefix. */
const WATERMARK_BYTES = 13;

export class NetworkBuffer {
  readonly values: unknown[] = [];
  readonly timestamps: number[] = [];
  /** Key group of each record on a hash-partitioned edge (−1 otherwise). */
  readonly keyGroups: number[] = [];
  bytes = 0;
  readPos = 0;
  floating = false;
}

/** The sending task's side: tells it when its output becomes (un)available. */
export interface OutputOwner {
  /** Number of its record writers that are currently unavailable. */
  outputBlockers: number;
}

/** Counters of the sending task. */
export interface WriterCounters {
  numRecordsOut: { count: number };
  numBytesOut: { count: number };
  numBuffersOut: { count: number };
}

/** Counters of the receiving task. */
export interface GateCounters {
  numBytesInLocal: { count: number };
  numBytesInRemote: { count: number };
  numBuffersInLocal: { count: number };
  numBuffersInRemote: { count: number };
}

/** A subpartition of a sender and the input channel of its receiver. */
export class Channel {
  open: NetworkBuffer | null = null;
  readonly senderQueue: NetworkBuffer[] = [];
  readonly receiverQueue: NetworkBuffer[] = [];
  floatingHeld = 0;
  inGateQueue = false;
  waitingForFloating = false;
  finished = false;
  /** Delivered the barrier of the checkpoint being aligned: its buffers stay queued until the alignment ends. */
  blockedForAlignment = false;
  private lastHeld = 0;
  private blocked = false;

  constructor(
    readonly writer: RecordWriter,
    readonly gate: InputGate,
    readonly indexInGate: number,
    readonly local: boolean,
  ) {}

  /** Buffers the sender cannot reuse yet. */
  held(): number {
    return this.senderQueue.length + (this.open === null ? 0 : 1) + (this.local ? this.receiverQueue.length : 0);
  }

  write(value: unknown, timestamp: number, keyGroup: number, size: number): void {
    let buffer = this.open;
    if (buffer === null) {
      buffer = this.open = new NetworkBuffer();
      this.refresh();
    }
    buffer.values.push(value);
    buffer.timestamps.push(timestamp);
    buffer.keyGroups.push(keyGroup);
    buffer.bytes += size;
    if (buffer.bytes >= this.writer.config.segmentSize) this.finishOpen();
  }

  finishOpen(): void {
    const buffer = this.open;
    if (buffer === null) return;
    this.open = null;
    this.senderQueue.push(buffer);
    this.writer.counters.numBuffersOut.count++;
    this.trySend();
    this.refresh();
  }

  /** Buffer timeout: ship a partly filled buffer if it can go right now; otherwise keep filling it (as Flink does). */
  flush(): void {
    if (this.open === null || this.open.values.length === 0) return;
    if (this.senderQueue.length === 0 && (this.local || this.gate.hasCredit(this))) this.finishOpen();
  }

  /** Moves finished buffers to the receiver while it has credit. */
  trySend(): void {
    let sent = false;
    while (this.senderQueue.length > 0) {
      if (!this.local && !this.gate.hasCredit(this)) {
        this.gate.waitForFloating(this);
        break;
      }
      this.gate.deliver(this, this.senderQueue.shift()!);
      sent = true;
    }
    if (sent) this.refresh();
  }

  /** Recomputes held buffers and availability after any change. */
  refresh(): void {
    const held = this.held();
    if (held !== this.lastHeld) {
      this.writer.totalHeld += held - this.lastHeld;
      this.lastHeld = held;
    }
    const blocked = held >= this.writer.config.maxBuffersPerChannel;
    if (blocked !== this.blocked) {
      this.blocked = blocked;
      this.writer.unavailableChannels += blocked ? 1 : -1;
    }
    this.writer.refresh();
  }
}

/** A task's output on one job edge (Flink's RecordWriter over a ResultPartition with one subpartition per consumer). */
export class RecordWriter {
  readonly channels: Channel[] = [];
  unavailableChannels = 0;
  totalHeld = 0;
  poolSize = 0;
  private blocked = false;
  private nextChannel: number;

  constructor(
    readonly config: NetworkConfig,
    readonly shipStrategy: ShipStrategy,
    private readonly owner: OutputOwner,
    readonly counters: WriterCounters,
    private readonly sizer: RecordSizer,
    private readonly keySelector: ((value: unknown) => StateKey) | undefined,
    private readonly maxParallelism: number,
    rebalanceStart: number,
  ) {
    this.nextChannel = rebalanceStart;
  }

  /** Called once all channels are attached: Flink's max pool size for a pipelined partition. */
  seal(): void {
    this.poolSize = this.channels.length * this.config.buffersPerChannel + this.config.floatingBuffersPerGate;
    if (this.shipStrategy === 'REBALANCE') this.nextChannel %= this.channels.length;
  }

  get isAvailable(): boolean {
    return !this.blocked;
  }

  refresh(): void {
    const blocked = this.unavailableChannels > 0 || this.totalHeld >= this.poolSize;
    if (blocked !== this.blocked) {
      this.blocked = blocked;
      this.owner.outputBlockers += blocked ? 1 : -1;
    }
  }

  emit(value: unknown, timestamp: number): void {
    const size = this.sizer(value);
    let channel: Channel;
    let keyGroup = -1;
    if (this.shipStrategy === 'HASH') {
      keyGroup = computeKeyGroupForKeyHash(javaHashCode(this.keySelector!(value) as JavaKey), this.maxParallelism);
      channel = this.channels[computeOperatorIndexForKeyGroup(this.maxParallelism, this.channels.length, keyGroup)];
    } else if (this.shipStrategy === 'FORWARD') {
      channel = this.channels[0];
    } else if (this.shipStrategy === 'BROADCAST') {
      // Flink's BroadcastPartitioner: one copy to every channel (one record out, its bytes once per channel).
      for (let i = 0; i < this.channels.length; i++) this.channels[i].write(value, timestamp, -1, size);
      this.counters.numRecordsOut.count++;
      this.counters.numBytesOut.count += size * this.channels.length;
      return;
    } else {
      this.nextChannel = this.nextChannel + 1 === this.channels.length ? 0 : this.nextChannel + 1;
      channel = this.channels[this.nextChannel];
    }
    channel.write(value, timestamp, keyGroup, size);
    this.counters.numRecordsOut.count++;
    this.counters.numBytesOut.count += size;
  }

  broadcastWatermark(watermark: number): void {
    const event = new StreamEvent(StreamEvent.WATERMARK, watermark);
    for (const channel of this.channels) channel.write(event, 0, -1, WATERMARK_BYTES);
    this.counters.numBytesOut.count += WATERMARK_BYTES * this.channels.length;
  }

  broadcastStatus(idle: boolean): void {
    for (const channel of this.channels) channel.write(idle ? IDLE : ACTIVE, 0, -1, 5);
  }

  /**
   * A checkpoint barrier on every channel, in-band after the records already written, and the buffers holding it
   * finished at once (Flink flushes the barrier's buffer immediately), so a barrier is always the last element of its
   * buffer.
   */
  broadcastBarrier(checkpointId: number): void {
    const event = new StreamEvent(StreamEvent.CHECKPOINT_BARRIER, checkpointId);
    for (const channel of this.channels) {
      channel.write(event, 0, -1, BARRIER_BYTES);
      channel.finishOpen();
    }
    this.counters.numBytesOut.count += BARRIER_BYTES * this.channels.length;
  }

  /** End of partition: everything written so far, then the end event, sent without waiting for the timeout. */
  broadcastEnd(drained = true): void {
    for (const channel of this.channels) {
      channel.write(drained ? END_OF_PARTITION : END_OF_PARTITION_NO_DRAIN, 0, -1, 4);
      channel.finishOpen();
    }
  }

  flushAll(): void {
    for (const channel of this.channels) channel.flush();
  }

  /** Buffers waiting at the sender (Flink's `outputQueueLength`). */
  queuedBuffers(): number {
    let n = 0;
    for (const c of this.channels) n += c.senderQueue.length;
    return n;
  }
}

/** A task's input: the channels of all its input edges (Flink's union of SingleInputGates). */
export class InputGate {
  readonly channels: Channel[] = [];
  private queue: Channel[] = [];
  private queueHead = 0;
  floatingInUse = 0;
  private readonly waiting: Channel[] = [];
  finishedChannels = 0;
  /** Channels blocked by checkpoint alignment. */
  blockedChannels = 0;
  /** Bytes of buffers consumed so far (alignment's `processed_data`). */
  consumedBytes = 0;

  constructor(
    readonly config: NetworkConfig,
    readonly counters: GateCounters,
  ) {}

  addChannel(writer: RecordWriter, local: boolean): Channel {
    const channel = new Channel(writer, this, this.channels.length, local);
    this.channels.push(channel);
    return channel;
  }

  hasCredit(channel: Channel): boolean {
    return channel.receiverQueue.length - channel.floatingHeld < this.config.buffersPerChannel || this.floatingInUse < this.config.floatingBuffersPerGate;
  }

  deliver(channel: Channel, buffer: NetworkBuffer): void {
    if (!channel.local && channel.receiverQueue.length - channel.floatingHeld >= this.config.buffersPerChannel) {
      buffer.floating = true;
      channel.floatingHeld++;
      this.floatingInUse++;
    }
    channel.receiverQueue.push(buffer);
    if (channel.local) {
      this.counters.numBytesInLocal.count += buffer.bytes;
      this.counters.numBuffersInLocal.count++;
    } else {
      this.counters.numBytesInRemote.count += buffer.bytes;
      this.counters.numBuffersInRemote.count++;
    }
    if (!channel.inGateQueue && !channel.blockedForAlignment) {
      channel.inGateQueue = true;
      this.queue.push(channel);
    }
  }

  waitForFloating(channel: Channel): void {
    if (!channel.waitingForFloating) {
      channel.waitingForFloating = true;
      this.waiting.push(channel);
    }
  }

  /** The channel whose head buffer is next to read, in the order channels got data. */
  peek(): Channel | undefined {
    return this.queueHead < this.queue.length ? this.queue[this.queueHead] : undefined;
  }

  /**
   * Aligned checkpoints: the channel delivered the barrier, so the gate stops reading it. Its buffers stay queued and
   * keep their credits, which back-pressures the sender until the alignment ends (as Flink's alignment does).
   */
  block(channel: Channel): void {
    if (channel.blockedForAlignment) return;
    channel.blockedForAlignment = true;
    this.blockedChannels++;
  }

  /** Alignment ended (or was aborted): the channel is read again. */
  unblock(channel: Channel): void {
    if (!channel.blockedForAlignment) return;
    channel.blockedForAlignment = false;
    this.blockedChannels--;
    if (channel.receiverQueue.length > 0 && !channel.inGateQueue) {
      channel.inGateQueue = true;
      this.queue.push(channel);
    }
  }

  unblockAll(): void {
    if (this.blockedChannels === 0) return;
    for (const channel of this.channels) this.unblock(channel);
  }

  /** The head buffer of `channel` was read completely: recycle it (a credit back) and move on. */
  release(channel: Channel): void {
    const buffer = channel.receiverQueue.shift()!;
    this.consumedBytes += buffer.bytes;
    this.queueHead++;
    if (this.queueHead > 64 && this.queueHead * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    if (channel.receiverQueue.length > 0 && !channel.blockedForAlignment) this.queue.push(channel);
    else channel.inGateQueue = false;
    if (buffer.floating) {
      channel.floatingHeld--;
      this.floatingInUse--;
    }
    if (channel.local) channel.refresh();
    channel.trySend();
    if (buffer.floating) this.serveWaiting();
  }

  private serveWaiting(): void {
    while (this.waiting.length > 0 && this.floatingInUse < this.config.floatingBuffersPerGate) {
      const channel = this.waiting.shift()!;
      channel.waitingForFloating = false;
      channel.trySend();
    }
  }

  /** Buffers received and not yet consumed (Flink's `inputQueueLength`). */
  queuedBuffers(): number {
    let n = 0;
    for (const c of this.channels) n += c.receiverQueue.length;
    return n;
  }

  exclusiveBuffersInUse(): number {
    let n = 0;
    for (const c of this.channels) if (!c.local) n += c.receiverQueue.length - c.floatingHeld;
    return n;
  }
}
