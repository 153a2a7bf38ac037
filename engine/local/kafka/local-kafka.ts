import type { Kafka } from 'kafkajs';
import { EngineError } from '../../flink-rest/errors.ts';
import { createKafka, type KafkaConnectionOptions } from '../../kafka/kafka-connection.ts';
import { fromKafkaFailure, withDeadline } from '../../kafka/kafka-errors.ts';
import type { TenantCost } from '../gatewaymeter/events.ts';
import { KafkaFetcher } from './kafka-fetcher.ts';
import { KafkaSink } from './kafka-sink.ts';
import { KafkaSource, type StartingOffsets } from './kafka-source.ts';

export const DEFAULT_SOURCE_TOPIC = 'gateway-events';
export const DEFAULT_SINK_TOPIC = 'tenant-cost';
export const DEFAULT_GROUP_ID = 'gatewaymeter';
/** Partitions of a topic the engine creates (the course's `gateway-events` has 8). */
export const DEFAULT_PARTITIONS = 8;

export interface LocalKafkaOptions extends KafkaConnectionOptions {
  /** @default "gateway-events" */
  topic?: string;
  /** @default "tenant-cost" */
  sinkTopic?: string;
  /** The job's consumer group. @default "gatewaymeter" */
  groupId?: string;
  /** Partitions of topics created because they were missing. @default 8 */
  partitions?: number;
  /** Read up to the log end at the start, then finish (Flink's `setBounded(OffsetsInitializer.latest())`). */
  bounded?: boolean;
  /** @default 'committed' */
  startingOffsets?: StartingOffsets;
  /** Progress lines ("created topic …"). */
  log?: (line: string) => void;
}

/**
 * The local engine's Kafka: the brokers checked and the topics there (created when missing, as a broker with
 * `auto.create.topics.enable` would), then a Kafka source and a `tenant-cost` sink for each job run, and one place that
 * closes every client when the engine stops.
 */
export class LocalKafka {
  private readonly closables = new Set<{ close(): Promise<void> | void }>();

  private constructor(
    readonly kafka: Kafka,
    readonly options: Required<Pick<LocalKafkaOptions, 'topic' | 'sinkTopic' | 'groupId'>> & LocalKafkaOptions,
    /** The source topic's partitions. */
    readonly partitions: number[],
    /** Bounded: the log end of each partition when the engine started. */
    readonly stoppingOffsets: ReadonlyMap<number, number> | undefined,
  ) {}

  /** Connects, creates missing topics, reads the partitions (and the stopping offsets when bounded). */
  static async connect(options: LocalKafkaOptions): Promise<LocalKafka> {
    const resolved = { ...options, topic: options.topic ?? DEFAULT_SOURCE_TOPIC, sinkTopic: options.sinkTopic ?? DEFAULT_SINK_TOPIC, groupId: options.groupId ?? DEFAULT_GROUP_ID };
    const partitions = options.partitions ?? DEFAULT_PARTITIONS;
    if (!(Number.isInteger(partitions) && partitions > 0)) throw new EngineError('invalid-input', `--partitions must be a positive whole number, got ${partitions}.`);
    const kafka = createKafka(options);
    const admin = kafka.admin();
    const timeoutMs = (options.timeoutMs ?? 10_000) + 5000;
    try {
      return await withDeadline(
        (async () => {
          await admin.connect();
          const existing = new Set(await admin.listTopics());
          const missing = [resolved.topic, resolved.sinkTopic].filter((t) => !existing.has(t));
          if (missing.length > 0) {
            await admin.createTopics({ topics: missing.map((topic) => ({ topic, numPartitions: partitions })), waitForLeaders: true });
            for (const t of missing) options.log?.(`Created Kafka topic ${t} (${partitions} partitions).`);
          }
          const ends = await admin.fetchTopicOffsets(resolved.topic);
          const stopping = options.bounded ? new Map(ends.map((p) => [p.partition, Number(p.high)])) : undefined;
          return new LocalKafka(kafka, resolved, ends.map((p) => p.partition).sort((a, b) => a - b), stopping);
        })(),
        timeoutMs,
        () => `The Kafka brokers ${options.brokers.join(',')} did not answer within ${timeoutMs} ms.`,
      );
    } catch (error) {
      throw fromKafkaFailure(error, options.brokers, `preparing the topics ${resolved.topic} and ${resolved.sinkTopic}`);
    } finally {
      await withDeadline(admin.disconnect(), 2000, () => '').catch(() => {});
    }
  }

  private track<T extends { close(): Promise<void> | void }>(closable: T): T {
    this.closables.add(closable);
    return closable;
  }

  /** A Kafka source for one job run (its readers share one consumer in the job's group). */
  source(onError?: (message: string) => void): KafkaSource {
    const { topic, groupId, startingOffsets } = this.options;
    return new KafkaSource({
      topic,
      groupId,
      partitions: this.partitions,
      startingOffsets,
      stoppingOffsets: this.stoppingOffsets,
      fetcher: () => this.track(new KafkaFetcher(this.kafka, { topic, groupId, onError })),
    });
  }

  /** The `tenant-cost` sink for one job run: JSON rows keyed by their upsert key (tenant, window start). */
  sink(): KafkaSink<TenantCost> {
    return this.track(
      new KafkaSink<TenantCost>(this.kafka, {
        topic: this.options.sinkTopic,
        key: (row) => JSON.stringify({ tenant_id: row.tenant_id, window_start: row.window_start }),
        value: (row) => JSON.stringify(row),
      }),
    );
  }

  /** What the job's configuration says about its Kafka (the console finds the group and topics there). */
  jobParameters(): Record<string, string> {
    return {
      'kafka.bootstrap.servers': this.options.brokers.join(','),
      'kafka.topic': this.options.topic,
      'kafka.group.id': this.options.groupId,
      'kafka.sink.topic': this.options.sinkTopic,
      ...(this.stoppingOffsets ? { 'kafka.bounded': 'latest' } : {}),
    };
  }

  /** Closes every consumer and producer the engine made (waits for commits and sends in flight). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.closables].map((c) => c.close()));
    this.closables.clear();
  }
}
