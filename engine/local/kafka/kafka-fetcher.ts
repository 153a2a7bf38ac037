import type { Admin, Consumer, Kafka } from 'kafkajs';
import { allPartitionsAssigner } from '../../kafka/all-partitions-assigner.ts';

/** One record as the source reader gets it. */
export interface FetchedRecord {
  offset: number;
  value: string;
  /** The record's timestamp (CreateTime: the event time the producer set). */
  timestamp: number;
}

/** Flink's `KafkaPartitionSplit` special starting offsets. */
export const LATEST_OFFSET = -1;
export const EARLIEST_OFFSET = -2;
export const COMMITTED_OFFSET = -3;

/** What a reader reads from for one partition: its records in offset order, filled in the background. */
export class PartitionBuffer {
  readonly records: FetchedRecord[] = [];
  head = 0;
  /** The offset the next fetched record must have at least (the seek target, then last fetched + 1). */
  next: number;
  /** The partition's high watermark as last seen (the log end). */
  highWatermark = -1;
  /** Paused because the reader is behind (the buffer is full). */
  paused = false;
  released = false;

  constructor(
    readonly partition: number,
    /** Where reading starts: an offset, or a special starting offset until resolved. */
    public startOffset: number,
  ) {
    this.next = startOffset;
  }

  get size(): number {
    return this.records.length - this.head;
  }

  /** The oldest unread record, or undefined. */
  peek(): FetchedRecord | undefined {
    return this.head < this.records.length ? this.records[this.head] : undefined;
  }

  take(): FetchedRecord {
    const record = this.records[this.head++];
    if (this.head > 4096 && this.head * 2 > this.records.length) {
      this.records.splice(0, this.head);
      this.head = 0;
    }
    return record;
  }
}

export interface KafkaFetcherOptions {
  topic: string;
  /** The job's consumer group: offsets are committed under it. */
  groupId: string;
  /** Records buffered per partition before it is paused. @default 20000 */
  maxBufferedPerPartition?: number;
  /** A failure the fetcher cannot recover from (reported once in the engine's log). */
  onError?: (message: string) => void;
}

/**
 * The background half of the local engine's Kafka source: one kafkajs consumer per job that fetches the partitions the
 * job's readers hold into per-partition buffers, which the readers drain synchronously inside the engine's steps.
 *
 * Readers `assign` a partition at an offset (a fresh split, or a split restored from a checkpoint): the consumer seeks
 * there and what was buffered before is dropped, so a restarted job reads exactly from its checkpointed offsets.
 * A full buffer pauses its partition (back-pressure reaches Kafka, memory stays bounded). Offsets are committed only
 * when a reader asks (on checkpoint completion, as Flink's KafkaSource does), never automatically.
 *
 * kafkajs cannot assign partitions without a group, so the consumer joins the job's group with an assigner that gives
 * every member every partition: a real Flink job never appears as a member, the local engine does (one member).
 */
export class KafkaFetcher {
  private readonly buffers = new Map<number, PartitionBuffer>();
  private readonly consumer: Consumer;
  private readonly admin: Admin;
  private joined = false;
  private starting: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly maxBuffered: number;
  private lastError: string | undefined;

  constructor(
    kafka: Kafka,
    private readonly options: KafkaFetcherOptions,
  ) {
    this.maxBuffered = options.maxBufferedPerPartition ?? 20_000;
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      partitionAssigners: [allPartitionsAssigner],
      maxWaitTimeInMs: 100,
      sessionTimeout: 30_000,
      heartbeatInterval: 3000,
      retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 5000 },
    });
    this.admin = kafka.admin();
  }

  /** The last failure the fetcher hit (shown in the engine's log), if any. */
  get error(): string | undefined {
    return this.lastError;
  }

  private fail(message: string): void {
    if (this.lastError === message) return;
    this.lastError = message;
    this.options.onError?.(message);
  }

  /** Connects and joins; idempotent. Assignments made before are applied once joined. */
  start(): Promise<void> {
    this.starting ??= (async () => {
      await this.admin.connect();
      await this.consumer.connect();
      await this.consumer.subscribe({ topics: [this.options.topic] });
      const joined = new Promise<void>((resolve) => this.consumer.on(this.consumer.events.GROUP_JOIN, () => resolve()));
      this.consumer.on(this.consumer.events.CRASH, (event) => this.fail(`the Kafka consumer of "${this.options.topic}" crashed: ${String((event.payload.error as Error)?.message ?? event.payload.error)}`));
      await this.consumer.run({ autoCommit: false, eachBatch: async (payload) => this.onBatch(payload) });
      await joined;
      this.joined = true;
      // Every partition is assigned to this member: fetch only those a reader holds.
      const idle = (await this.admin.fetchTopicOffsets(this.options.topic)).map((p) => p.partition).filter((p) => !this.buffers.has(p));
      if (idle.length > 0) this.consumer.pause([{ topic: this.options.topic, partitions: idle }]);
      for (const buffer of this.buffers.values()) void this.seek(buffer);
    })().catch((error: unknown) => {
      this.fail(`cannot read "${this.options.topic}": ${(error as Error).message}`);
      throw error;
    });
    return this.starting;
  }

  /**
   * A reader takes `partition` from `offset` (or a special starting offset): everything buffered for it is dropped,
   * and the consumer reads from there. Returns the buffer the reader drains.
   */
  assign(partition: number, offset: number): PartitionBuffer {
    const old = this.buffers.get(partition);
    if (old) old.released = true;
    const buffer = new PartitionBuffer(partition, offset);
    this.buffers.set(partition, buffer);
    if (this.joined) void this.seek(buffer);
    else this.start().catch(() => {});
    return buffer;
  }

  /** A reader let go of a partition (its task ended): stop fetching it. */
  release(buffer: PartitionBuffer): void {
    buffer.released = true;
    if (this.buffers.get(buffer.partition) !== buffer) return;
    this.buffers.delete(buffer.partition);
    if (this.joined) this.consumer.pause([{ topic: this.options.topic, partitions: [buffer.partition] }]);
  }

  /** Lets a paused partition fetch again once its reader caught up. */
  drained(buffer: PartitionBuffer): void {
    if (buffer.paused && !buffer.released && buffer.size < this.maxBuffered / 2 && this.joined) {
      buffer.paused = false;
      this.consumer.resume([{ topic: this.options.topic, partitions: [buffer.partition] }]);
    }
  }

  /** Resolves a special starting offset, then seeks the consumer there and lets the partition fetch. */
  private async seek(buffer: PartitionBuffer): Promise<void> {
    try {
      if (buffer.startOffset < 0) {
        const resolved = await this.resolve(buffer.partition, buffer.startOffset);
        if (buffer.released) return;
        buffer.startOffset = resolved;
        buffer.next = resolved;
      }
      if (buffer.released) return;
      this.consumer.seek({ topic: this.options.topic, partition: buffer.partition, offset: String(buffer.startOffset) });
      this.consumer.resume([{ topic: this.options.topic, partitions: [buffer.partition] }]);
    } catch (error) {
      this.fail(`cannot position partition ${buffer.partition} of "${this.options.topic}": ${(error as Error).message}`);
    }
  }

  private async resolve(partition: number, special: number): Promise<number> {
    const logs = await this.admin.fetchTopicOffsets(this.options.topic);
    const log = logs.find((p) => p.partition === partition);
    if (!log) throw new Error(`partition ${partition} does not exist`);
    if (special === LATEST_OFFSET) return Number(log.high);
    if (special === COMMITTED_OFFSET) {
      const [committed] = await this.admin.fetchOffsets({ groupId: this.options.groupId, topics: [this.options.topic] });
      const offset = Number(committed?.partitions.find((p) => p.partition === partition)?.offset ?? -1);
      if (offset >= 0) return offset;
    }
    return Number(log.low); // EARLIEST, and COMMITTED without a committed offset (OffsetResetStrategy.EARLIEST)
  }

  private async onBatch({ batch, isStale }: { batch: { partition: number; highWatermark: string; messages: Array<{ offset: string; value: Buffer | null; timestamp: string }> }; isStale: () => boolean }): Promise<void> {
    const buffer = this.buffers.get(batch.partition);
    if (!buffer || buffer.released || buffer.startOffset < 0 || isStale()) return;
    buffer.highWatermark = Number(batch.highWatermark);
    for (const message of batch.messages) {
      const offset = Number(message.offset);
      if (offset < buffer.next) continue; // read before the seek took effect
      buffer.records.push({ offset, value: message.value === null ? '' : message.value.toString('utf8'), timestamp: Number(message.timestamp) });
      buffer.next = offset + 1;
    }
    if (buffer.size >= this.maxBuffered && !buffer.paused) {
      buffer.paused = true;
      this.consumer.pause([{ topic: this.options.topic, partitions: [buffer.partition] }]);
    }
  }

  /** Commits `offsets` (partition → next offset to read) under the job's group. */
  commit(offsets: ReadonlyMap<number, number>): Promise<void> {
    const topic = this.options.topic;
    const work = (async () => {
      await this.start();
      await this.consumer.commitOffsets([...offsets].map(([partition, offset]) => ({ topic, partition, offset: String(offset) })));
    })();
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => {});
    return work;
  }

  /** Waits for commits in flight, leaves the group and disconnects (idempotent). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled([...this.inFlight]);
      for (const b of this.buffers.values()) b.released = true;
      this.buffers.clear();
      await this.consumer.disconnect().catch(() => {});
      await this.admin.disconnect().catch(() => {});
    })();
    return this.closing;
  }
}
