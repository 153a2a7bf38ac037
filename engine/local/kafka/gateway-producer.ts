import { Partitioners, type Kafka, type Message } from 'kafkajs';
import { EngineError } from '../../flink-rest/errors.ts';
import { fromKafkaFailure } from '../../kafka/kafka-errors.ts';
import { GatewayEventReader, type GeneratorConfig } from '../gatewaymeter/generator.ts';
import { ManualClock } from '../time/clock.ts';

export interface ProduceOptions {
  topic: string;
  /** The events: the generator's configuration (a scenario's traffic with the rate, seed and count wanted). */
  generator: GeneratorConfig;
  /** Event time of the stream's start (epoch ms). @default now */
  startTime?: number;
  /** `true`: follow the rate in real time (a live stream); `false`: send as fast as the brokers take it. */
  paced: boolean;
  /** Partitions of the topic when it must be created. @default 8 */
  partitions?: number;
  /** Stops producing when aborted (Ctrl-C); what was generated is sent first. */
  signal?: AbortSignal;
  /** Called after every acknowledged batch with the running totals. */
  onProgress?: (report: ProduceReport) => void;
  brokers: readonly string[];
}

export interface ProduceReport {
  events: number;
  /** Events per tenant (the ground truth of a hot-key sample). */
  byTenant: Record<string, number>;
  startTime: number;
  /** Event time of the last event. */
  lastEventTime: number;
  /** The topic was created by this run. */
  createdTopic: boolean;
}

const BATCH = 1000;

/**
 * `flink-ops produce`: GatewayMeter events from the deterministic generator (one stream, the order the oracle
 * assumes) to a topic, keyed by request_id — every event of a request lands on one partition, in order — with the
 * event time as the record timestamp (CreateTime). One idempotent producer sends the batches one after another.
 */
export async function produceGatewayEvents(kafka: Kafka, options: ProduceOptions): Promise<ProduceReport> {
  const startTime = options.startTime ?? Date.now();
  const clock = new ManualClock(startTime);
  const reader = new GatewayEventReader({ ...options.generator, throttle: options.paced }, { subtaskIndex: 0, parallelism: 1, startTime, clock });
  const report: ProduceReport = { events: 0, byTenant: {}, startTime, lastEventTime: startTime, createdTopic: false };
  const admin = kafka.admin();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
  const what = `producing to "${options.topic}"`;
  try {
    await admin.connect();
    if (!(await admin.listTopics()).includes(options.topic)) {
      await admin.createTopics({ topics: [{ topic: options.topic, numPartitions: options.partitions ?? 8 }], waitForLeaders: true });
      report.createdTopic = true;
    }
    await producer.connect();
    let ended = false;
    while (!ended && !options.signal?.aborted) {
      const messages: Message[] = [];
      const now = options.paced ? startTime + (Date.now() - startTime) : Number.POSITIVE_INFINITY;
      const status = reader.pollNext(now, BATCH, (line, ts) => {
        const tenant = /"tenant_id":"([^"]*)"/.exec(line)?.[1] ?? '';
        report.byTenant[tenant] = (report.byTenant[tenant] ?? 0) + 1;
        report.lastEventTime = ts;
        messages.push({ key: /"request_id":"([^"]*)"/.exec(line)?.[1] ?? null, value: line, timestamp: String(Math.trunc(ts)) });
      });
      ended = status === 'END_OF_INPUT';
      if (messages.length > 0) {
        await producer.send({ topic: options.topic, acks: -1, messages });
        report.events += messages.length;
        options.onProgress?.(report);
      } else if (!ended) {
        // Paced and nothing due yet: wait for the next events' time (a real-time stream, not a test synchronisation).
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 20);
          options.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
    }
    return report;
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw fromKafkaFailure(error, options.brokers, what);
  } finally {
    await producer.disconnect().catch(() => {});
    await admin.disconnect().catch(() => {});
  }
}
