import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Admin, Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaVersion, readKafkaBroker, uniqueTopic, type KafkaBroker } from '../../../e2e/support/kafkaBroker.ts';
import { fetchConsumerLag } from '../../kafka/consumer-lag.ts';
import { createKafka } from '../../kafka/kafka-connection.ts';
import { CHECKPOINTING_DEFAULTS } from '../checkpoint/checkpoint-stats-rest.ts';
import { gatewayMeterJob } from '../gatewaymeter/pipelines.ts';
import { NdjsonUpsertLog, ResultStore, TenantCostSink } from '../gatewaymeter/sinks.ts';
import { compareTotals } from '../oracle/compare-totals.ts';
import { computeExpectedTotals, type ExpectedTotals } from '../oracle/gatewaymeter-oracle.ts';
import { readUpsertLog, type UpsertRow } from '../oracle/upsert-log.ts';
import { LocalCluster } from '../runtime/cluster.ts';
import type { JobExecution } from '../runtime/job.ts';
import { SourceTask } from '../runtime/task.ts';
import { loadScenario } from '../scenarios/scenario.ts';
import { ManualClock } from '../time/clock.ts';
import { produceGatewayEvents } from './gateway-producer.ts';
import { FanOutSink } from './kafka-sink.ts';
import { LocalKafka } from './local-kafka.ts';

/**
 * The local engine on real topics, through a TaskManager kill: the GatewayMeter stream produced to `gateway-events`
 * (8 partitions, keyed by request_id), read by the engine's Kafka source (bounded at the log end), `tenant-cost` rows
 * written to the sink topic and the upsert log. A TaskManager dies mid-run; the job restarts from its latest
 * checkpoint — offsets and keyed state together — and the per-tenant, per-minute totals equal the oracle's exactly,
 * in the upsert log and in the topic: no record counted twice, none lost.
 */
const EVENTS = 60_000;
const RATE = 2000;
const SEED = 42;
let broker: KafkaBroker;
let kafka: Kafka;
let admin: Admin;
let expected: ExpectedTotals;
const topic = uniqueTopic('gateway-events');
const sinkTopic = uniqueTopic('tenant-cost');
const groupId = `${topic}-gatewaymeter`;
let dir: string;

beforeAll(async () => {
  broker = readKafkaBroker();
  kafka = createKafka({ brokers: [broker.bootstrap] });
  admin = kafka.admin();
  await admin.connect();
  dir = mkdtempSync(path.join(os.tmpdir(), 'kafka-engine-'));
  // Recent event times (retention keeps them), cut mid-minute like the other proofs.
  const startTime = Math.floor((Date.now() - 10 * 60_000) / 60_000) * 60_000 + 17_000;
  const generator = { ...loadScenario('exactly-once').traffic, rate: RATE, events: EVENTS, seed: SEED };
  const report = await produceGatewayEvents(kafka, { topic, generator, startTime, paced: false, partitions: 8, brokers: [broker.bootstrap] });
  expect(report.events).toBe(EVENTS);
  // One stream produced in order: the oracle's single source subtask.
  expected = computeExpectedTotals({ generator, sourceParallelism: 1, startTime });
}, 120_000);

afterAll(async () => {
  await admin?.deleteGroups([groupId]).catch(() => {});
  await admin?.deleteTopics({ topics: [topic, sinkTopic] }).catch(() => {});
  await admin?.disconnect();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the virtual clock at the pace of the wall clock (as the real-time driver does) until `done`, or fails. */
async function runUntil(cluster: LocalCluster, done: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const startReal = Date.now();
  const startVirtual = cluster.clock.now();
  while (!done()) {
    if (Date.now() - startReal > timeoutMs) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    const target = startVirtual + (Date.now() - startReal);
    if (target > cluster.clock.now()) cluster.advance(Math.min(target - cluster.clock.now(), 50));
    // The Kafka fetcher and producer work between steps, as they do beside the real-time driver.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function sourceRecords(job: JobExecution): number {
  return job.tasks.filter((t): t is SourceTask => t instanceof SourceTask).reduce((n, t) => n + t.head.metrics.numRecordsIn.count, 0);
}

/** The sink topic read back as an upsert log: the last row per key. */
async function readSinkTopic(): Promise<Map<string, UpsertRow>> {
  const ends = await admin.fetchTopicOffsets(sinkTopic);
  const total = ends.reduce((n, p) => n + Number(p.high), 0);
  const rows = new Map<string, UpsertRow>();
  const consumer = kafka.consumer({ groupId: `${sinkTopic}-reader`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topics: [sinkTopic], fromBeginning: true });
  let read = 0;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`read ${read} of ${total} rows of ${sinkTopic}`)), 30_000);
    void consumer.run({
      autoCommit: false,
      eachMessage: async ({ message }) => {
        const row = JSON.parse(message.value!.toString()) as UpsertRow;
        rows.set(`${row.tenant_id}|${row.window_start}`, row);
        if (++read >= total) {
          clearTimeout(timer);
          resolve();
        }
      },
    });
  });
  await consumer.disconnect();
  await admin.deleteGroups([`${sinkTopic}-reader`]).catch(() => {});
  return rows;
}

describe(`the local engine on Kafka ${kafkaVersion()}`, () => {
  it('consumes the topic and its totals equal the oracle through a TaskManager kill (offsets restored with state)', async () => {
    const local = await LocalKafka.connect({ brokers: [broker.bootstrap], topic, sinkTopic, groupId, bounded: true });
    const cluster = new LocalCluster({ clock: new ManualClock(Date.now()), taskManagers: 4, slotsPerTaskManager: 8, taskManagerRestartDelayMs: 1000 });
    try {
      expect(local.partitions).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      const store = new ResultStore();
      const graph = gatewayMeterJob({
        parallelism: 4,
        maxParallelism: 128,
        generator: { ...loadScenario('exactly-once').traffic, seed: SEED },
        source: local.source(),
        sink: new FanOutSink(new TenantCostSink(store, new NdjsonUpsertLog(dir, 'gatewaymeter')), local.sink()),
      });
      const job = cluster.submitJob(graph, {
        // parse takes 3,000 records/s per subtask: the backlog takes seconds, so the kill lands mid-stream.
        capacity: { parse: { maxRecordsPerSecond: 3000 } },
        checkpointing: { ...CHECKPOINTING_DEFAULTS, intervalMs: 500 },
        checkpointStorage: { checkpointDirectory: path.join(dir, 'checkpoints') },
        restartStrategy: { type: 'fixed-delay', attempts: 3, delayMs: 300 },
      });
      await runUntil(cluster, () => (job.checkpointTracker?.counts.completed ?? 0) >= 2 && sourceRecords(job) >= EVENTS / 4, 'two checkpoints and a quarter of the events');
      const readBeforeKill = sourceRecords(job);
      expect(readBeforeKill).toBeLessThan(EVENTS);
      cluster.killTaskManager(job.slots[0].taskManagerId);
      await runUntil(cluster, () => job.isTerminal, 'the job to finish');
      expect(job.status).toBe('FINISHED');
      expect(job.numRestarts).toBe(1);
      expect(job.checkpointTracker!.latestRestored()).toBeDefined();

      const fromLog = compareTotals(expected, readUpsertLog(dir).rows);
      expect(fromLog.ok, fromLog.report()).toBe(true);
      expect(fromLog.actual.requests).toBe(expected.stats.records);
      // The last rows are still on their way when the job reports FINISHED: closing sends them (as the engine's stop does).
      await local.close();
      const fromTopic = compareTotals(expected, await readSinkTopic());
      expect(fromTopic.ok, fromTopic.report()).toBe(true);

      // Offsets were committed under the job's group on checkpoints (never past what the job had read).
      const lag = await fetchConsumerLag(admin, { groupId, topics: [topic] }, [broker.bootstrap]);
      expect(lag.partitions.every((p) => p.committedOffset !== null && p.committedOffset <= p.logEndOffset)).toBe(true);
      expect(lag.partitions.reduce((n, p) => n + (p.committedOffset ?? 0), 0)).toBeGreaterThan(0);
    } finally {
      for (const j of cluster.jobs.values()) j.cancel();
      await local.close();
    }
  }, 180_000);
});
