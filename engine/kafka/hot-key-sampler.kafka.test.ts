import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Admin, Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaVersion, readKafkaBroker, uniqueTopic, type KafkaBroker } from '../../e2e/support/kafkaBroker.ts';
import { ROOT } from '../../e2e/support/paths.ts';
import { assignKeyToParallelOperator } from '../analysis/key-groups/key-group-range-assignment.ts';
import { produceGatewayEvents, type ProduceReport } from '../local/kafka/gateway-producer.ts';
import { loadScenario } from '../local/scenarios/scenario.ts';
import { sampleHotKeys } from './hot-key-sampler.ts';
import { createKafka } from './kafka-connection.ts';

/**
 * Hot-key sampling against the real broker: a skewed GatewayMeter stream (acme 40% of the requests) produced by
 * `produceGatewayEvents`, sampled back by tenant_id; bad records; the record cap; a broker that dies mid-sample.
 */
const run = promisify(execFile);
let broker: KafkaBroker;
let kafka: Kafka;
let admin: Admin;
const skewed = uniqueTopic('hot');
const messy = uniqueTopic('messy');
let produced: ProduceReport;
const EVENTS = 30_000;

beforeAll(async () => {
  broker = readKafkaBroker();
  kafka = createKafka({ brokers: [broker.bootstrap] });
  admin = kafka.admin();
  await admin.connect();
  const traffic = loadScenario('hot-tenant').traffic;
  // 30 s of traffic ending now, acme at 40% from the start (the hot-tenant scenario after its shift).
  produced = await produceGatewayEvents(kafka, {
    topic: skewed,
    generator: { ...traffic, rate: 1000, events: EVENTS, seed: 7, phases: [{ atMs: 0, share: { acme: 0.4 } }] },
    startTime: Date.now() - 31_000,
    paced: false,
    brokers: [broker.bootstrap],
  });
  await admin.createTopics({ topics: [{ topic: messy, numPartitions: 2 }], waitForLeaders: true });
  const producer = kafka.producer();
  await producer.connect();
  const values = [
    ...Array.from({ length: 50 }, () => JSON.stringify({ tenant_id: 'acme' })),
    ...Array.from({ length: 30 }, () => JSON.stringify({ tenant_id: 'globex', user: { id: 42 } })),
    ...Array.from({ length: 12 }, () => 'not json {'),
    ...Array.from({ length: 8 }, () => JSON.stringify({ other: 1 })),
  ];
  await producer.send({ topic: messy, messages: values.map((value) => ({ value })) });
  // Outside a 60 s window: must not be counted.
  await producer.send({ topic: messy, messages: [{ value: JSON.stringify({ tenant_id: 'ancient' }), timestamp: String(Date.now() - 3_600_000) }] });
  await producer.disconnect();
}, 120_000);

afterAll(async () => {
  await admin?.deleteTopics({ topics: [skewed, messy] }).catch(() => {});
  await admin?.disconnect();
});

describe(`hot-key sampling on Kafka ${kafkaVersion()}`, () => {
  it('finds acme at 40% (±2 points) and equals the producer\'s own counts; where each hot key lands at 32 of 128', async () => {
    expect(produced.events).toBe(EVENTS);
    const sample = await sampleHotKeys(kafka, { topic: skewed, keyPath: 'tenant_id', seconds: 60, keyedVertex: { maxParallelism: 128, parallelism: 32 } }, { brokers: [broker.bootstrap] });
    expect(sample.partial, sample.partialReason).toBe(false);
    expect(sample.records).toBe(EVENTS);
    expect(sample.keyed).toBe(EVENTS);
    expect(sample.partitions).toBe(8);
    const acme = sample.keys[0];
    expect(acme.key).toBe('acme');
    expect(Math.abs(acme.share - 0.4)).toBeLessThanOrEqual(0.02);
    for (const k of sample.keys) {
      expect(k.count).toBe(produced.byTenant[k.key]);
      expect(k.subtask).toBe(assignKeyToParallelOperator(k.key, 128, 32));
    }
    expect(acme.subtask).toBe(12); // the hot-tenant scenario's saturated tenant-cost subtask
    expect(acme.ratePerSecond).toBeCloseTo(acme.count / 60, 5);
    expect(sample.subtaskShares![0]).toMatchObject({ subtask: 12 });
    // The sampler joined no lasting group and committed nothing: no group is left behind.
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId);
    expect(groups.filter((g) => g.startsWith('flink-ops-sampler-'))).toEqual([]);
  });

  it('counts values that are not JSON and records without the key path apart, and reads only the window', async () => {
    const sample = await sampleHotKeys(kafka, { topic: messy, keyPath: 'tenant_id', seconds: 60 }, { brokers: [broker.bootstrap] });
    expect(sample).toMatchObject({ records: 100, keyed: 80, notJson: 12, missingKey: 8, distinctKeys: 2, partial: false });
    expect(sample.keys.map((k) => [k.key, k.count])).toEqual([
      ['acme', 50],
      ['globex', 30],
    ]);
    const nested = await sampleHotKeys(kafka, { topic: messy, keyPath: 'user.id', seconds: 60 }, { brokers: [broker.bootstrap] });
    expect(nested.keys).toEqual([expect.objectContaining({ key: '42', count: 30 })]);
    expect(nested.missingKey).toBe(58);
  });

  it('labels a sample stopped by the record cap as partial', async () => {
    const sample = await sampleHotKeys(kafka, { topic: skewed, keyPath: 'tenant_id', seconds: 60, maxRecords: 1000 }, { brokers: [broker.bootstrap] });
    expect(sample.partial).toBe(true);
    expect(sample.partialReason).toMatch(/cap of 1000 records/);
    expect(sample.records).toBe(1000);
  });

  it('flink-ops hot-keys prints the hot keys with key group and subtask; a missing topic and bad arguments exit non-zero', async () => {
    const { stdout } = await run(process.execPath, ['engine/cli/flink-ops.mjs', 'hot-keys', '--brokers', broker.bootstrap, '--topic', skewed, '--key-path', 'tenant_id', '--max-parallelism', '128', '--parallelism', '32'], { cwd: ROOT });
    expect(stdout).toMatch(/^acme\s+\d+\s+(39|40|41|42)\.\d%\s+[\d.]+\s+50\s+12$/m);
    expect(stdout).toMatch(/Busiest subtask at parallelism 32: 12/);
    const missing = await run(process.execPath, ['engine/cli/flink-ops.mjs', 'hot-keys', '--brokers', broker.bootstrap, '--topic', 'no-such-topic', '--key-path', 'x'], { cwd: ROOT }).catch((e: { code: number; stderr: string }) => e);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/^flink-ops: Topic "no-such-topic" does not exist/) });
    const badPath = await run(process.execPath, ['engine/cli/flink-ops.mjs', 'hot-keys', '--brokers', broker.bootstrap, '--topic', skewed, '--key-path', 'a..b'], { cwd: ROOT }).catch((e: { code: number; stderr: string }) => e);
    expect(badPath).toMatchObject({ code: 2, stderr: expect.stringMatching(/Key path "a..b"/) });
  });
});

describe('a broker that goes away mid-sample', () => {
  const name = 'dying';
  let dying: KafkaBroker;

  beforeAll(() => {
    execFileSync('bash', ['e2e/kafka/kafka.sh', 'up', '--version', kafkaVersion(), '--name', name], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    dying = JSON.parse(readFileSync(path.join(ROOT, '.cache/kafka', kafkaVersion(), `broker-${name}.json`), 'utf8')) as KafkaBroker;
  }, 120_000);

  afterAll(() => {
    execFileSync('bash', ['e2e/kafka/kafka.sh', 'down', '--version', kafkaVersion(), '--name', name], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }, 60_000);

  it('returns what it read, labelled partial, within its timeout — no hang', async () => {
    const client = createKafka({ brokers: [dying.bootstrap], timeoutMs: 2000 });
    const topic = 'doomed';
    // One partition, several fetches' worth (1 MB per fetch): the broker dies after the first batch.
    await produceGatewayEvents(client, { topic, generator: { ...loadScenario('hot-tenant').traffic, rate: 1000, events: 20_000, seed: 1 }, startTime: Date.now() - 25_000, paced: false, partitions: 1, brokers: [dying.bootstrap] });
    const pid = Number(readFileSync(path.join(ROOT, '.cache/kafka', kafkaVersion(), `run-${name}`, 'broker.pid'), 'utf8'));
    let killed = false;
    const started = Date.now();
    const sample = await sampleHotKeys(client, { topic, keyPath: 'tenant_id', seconds: 60 }, {
      brokers: [dying.bootstrap],
      timeoutMs: 15_000,
      onProgress: () => {
        if (!killed) process.kill(pid, 'SIGKILL');
        killed = true;
      },
    });
    expect(Date.now() - started).toBeLessThan(15_000 + 8000);
    expect(killed).toBe(true);
    expect(sample.partial).toBe(true);
    expect(sample.partialReason).toMatch(/went away|stopped after 15 s/);
    expect(sample.records).toBeGreaterThan(0);
    expect(sample.records).toBeLessThan(20_000);
  });
});
