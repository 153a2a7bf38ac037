import { Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';
import type { Sink, SinkWriter } from '../api/datastream.ts';

export interface KafkaSinkOptions<T> {
  topic: string;
  /** The record key (e.g. the upsert key); null for none. */
  key: (value: T) => string | null;
  value: (value: T) => string;
}

/**
 * Flink's `KafkaSink` with `DeliveryGuarantee.AT_LEAST_ONCE`: writers hand records to one idempotent producer (acks
 * from all in-sync replicas, order kept per partition), sent in the background in the order written; before a
 * checkpoint barrier passes, everything written so far must be acknowledged by the brokers (the checkpoint waits for
 * it, and fails when a send failed, so the job restarts from the previous checkpoint and writes again). For an upsert
 * stream like `tenant-cost` (one row per tenant and minute) the rows written twice after a restart carry the same
 * values: the topic read as an upsert log is exact.
 */
export class KafkaSink<T> implements Sink<T> {
  private producer: Producer | undefined;
  private connected: Promise<void> | undefined;
  private pending: Message[] = [];
  private tail: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private scheduled = false;
  private closing: Promise<void> | undefined;
  /** Records acknowledged by the brokers. */
  sent = 0;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: KafkaSinkOptions<T>,
  ) {}

  private ready(): Promise<void> {
    if (!this.producer) {
      this.producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
      this.connected = this.producer.connect();
    }
    return this.connected!;
  }

  private write(value: T, timestamp: number): void {
    this.pending.push({ key: this.options.key(value), value: this.options.value(value), timestamp: String(Math.trunc(timestamp)) });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.dispatch());
    }
  }

  /** Sends what was written since the last send, after the sends before it (one chain keeps the order). */
  private dispatch(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const messages = this.pending;
    this.pending = [];
    this.tail = this.tail.then(async () => {
      try {
        await this.ready();
        await this.producer!.send({ topic: this.options.topic, acks: -1, messages });
        this.sent += messages.length;
      } catch (error) {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
      }
    });
  }

  /** Resolves once everything written so far is acknowledged; rejects (once) if a send failed. */
  flush(): Promise<void> {
    this.dispatch();
    return this.tail.then(() => {
      const failure = this.failure;
      this.failure = undefined;
      if (failure) throw new Error(`writing to Kafka topic "${this.options.topic}" failed: ${failure.message}`);
    });
  }

  createWriter(): SinkWriter<T> {
    return { write: (value, timestamp) => this.write(value, timestamp), flush: () => this.flush() };
  }

  /** Sends what is left and disconnects (idempotent). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.flush().catch(() => {});
      await this.producer?.disconnect().catch(() => {});
    })();
    return this.closing;
  }
}

/** Every record to each of several sinks (the UI's result store and a Kafka topic). */
export class FanOutSink<T> implements Sink<T> {
  private readonly sinks: Array<Sink<T>>;

  constructor(...sinks: Array<Sink<T>>) {
    this.sinks = sinks;
  }

  createWriter(context: { subtaskIndex: number; parallelism: number }): SinkWriter<T> {
    const writers = this.sinks.map((s) => s.createWriter(context));
    return {
      write: (value, timestamp) => {
        for (const w of writers) w.write(value, timestamp);
      },
      flush: () => {
        const flushes = writers.map((w) => w.flush?.()).filter((f): f is Promise<void> => f instanceof Promise);
        return flushes.length > 0 ? Promise.all(flushes).then(() => undefined) : undefined;
      },
      close: () => {
        for (const w of writers) w.close?.();
      },
    };
  }

  close(): void {
    for (const s of this.sinks) void s.close?.();
  }
}
