import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KeyTally } from '../analysis/hot-keys.ts';
import { fetchConsumerLag } from '../kafka/consumer-lag.ts';
import { sampleHotKeys, tallyValue, type ValueCounts } from '../kafka/hot-key-sampler.ts';
import { createKafka } from '../kafka/kafka-connection.ts';
import { parseKeyPath } from '../kafka/key-path.ts';
import { produceGatewayEvents } from '../local/kafka/gateway-producer.ts';
import { GatewayEventReader } from '../local/gatewaymeter/generator.ts';
import { loadScenario } from '../local/scenarios/scenario.ts';
import { ManualClock } from '../local/time/clock.ts';

/**
 * Kafka figures of `npm run bench` (printed beside their targets; nothing asserts a time):
 * - hot-key sampling: records/s parsed and keyed (JSON.parse + key path + tally), in process and from the broker;
 * - the consumer-lag query for a group on 1,000 partitions: requests and milliseconds.
 * The broker figures need `npm run kafka:up` (KAFKA_VERSION, 4.4.0 by default).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PARSE_TARGET = 200_000; // records/s: a 60 s sample of a 10k events/s topic parsed in 3 s
const LAG_TARGET_MS = 1000;

function gatewayLines(n: number): Buffer[] {
  const reader = new GatewayEventReader({ ...loadScenario('hot-tenant').traffic, seed: 1, throttle: false, events: n }, { subtaskIndex: 0, parallelism: 1, startTime: 0, clock: new ManualClock(0) });
  const lines: Buffer[] = [];
  reader.pollNext(Number.POSITIVE_INFINITY, n, (line) => lines.push(Buffer.from(line)));
  return lines;
}

function parseThroughput(): void {
  const lines = gatewayLines(500_000);
  const path = parseKeyPath('tenant_id');
  let best = 0;
  for (let round = 0; round < 3; round++) {
    const tally = new KeyTally();
    const counts: ValueCounts = { records: 0, notJson: 0, missingKey: 0 };
    const started = performance.now();
    for (const line of lines) tallyValue(line, path, tally, counts);
    best = Math.max(best, counts.records / ((performance.now() - started) / 1000));
  }
  console.log(`  parse + key + tally, in process        ${Math.round(best).toLocaleString('en-US').padStart(12)} records/s   (target ≥ ${PARSE_TARGET.toLocaleString('en-US')})`);
}

async function brokerFigures(): Promise<void> {
  const version = process.env.KAFKA_VERSION ?? '4.4.0';
  const file = path.join(ROOT, `.cache/kafka/${version}/broker.json`);
  if (!existsSync(file)) {
    console.log(`  from the broker, lag for 1,000 partitions: not measured (run \`npm run kafka:up\` first)`);
    return;
  }
  const { bootstrap } = JSON.parse(readFileSync(file, 'utf8')) as { bootstrap: string };
  const kafka = createKafka({ brokers: [bootstrap], timeoutMs: 30_000 });
  const admin = kafka.admin();
  await admin.connect();
  const suffix = Date.now().toString(36);
  const sampled = `bench-sample-${suffix}`;
  const wide = `bench-lag-${suffix}`;
  const group = `${wide}-group`;
  try {
    const events = 200_000;
    await produceGatewayEvents(kafka, { topic: sampled, generator: { ...loadScenario('hot-tenant').traffic, rate: 10_000, events, seed: 2 }, startTime: Date.now() - 25_000, paced: false, partitions: 8, brokers: [bootstrap] });
    const started = performance.now();
    const sample = await sampleHotKeys(kafka, { topic: sampled, keyPath: 'tenant_id', seconds: 300, maxRecords: events }, { brokers: [bootstrap], timeoutMs: 120_000 });
    const seconds = (performance.now() - started) / 1000;
    if (sample.partial || sample.records !== events) console.log(`  (the sample read ${sample.records} of ${events} records${sample.partial ? `: ${sample.partialReason}` : ""})`);
    console.log(`  sample of ${sample.records.toLocaleString('en-US')} records from Kafka ${version}   ${Math.round(sample.records / seconds).toLocaleString('en-US').padStart(12)} records/s   (${seconds.toFixed(1)} s, group join and cleanup included)`);

    await admin.createTopics({ topics: [{ topic: wide, numPartitions: 1000 }], waitForLeaders: true, timeout: 60_000 });
    await admin.setOffsets({ groupId: group, topic: wide, partitions: Array.from({ length: 1000 }, (_, partition) => ({ partition, offset: '0' })) });
    // A new 1,000-partition topic needs a moment before every partition has its leader (NOT_LEADER until then).
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await fetchConsumerLag(admin, { groupId: group, topics: [wide] }, [bootstrap]);
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    let best = Number.POSITIVE_INFINITY;
    let requests = 0;
    for (let round = 0; round < 5; round++) {
      const t0 = performance.now();
      const lag = await fetchConsumerLag(admin, { groupId: group, topics: [wide] }, [bootstrap]);
      best = Math.min(best, performance.now() - t0);
      requests = lag.requestCount;
      if (lag.partitions.length !== 1000) throw new Error(`expected 1000 partitions, got ${lag.partitions.length}`);
    }
    console.log(`  lag query, 1 group × 1,000 partitions  ${best.toFixed(0).padStart(9)} ms, ${requests} Kafka requests   (target ≤ ${LAG_TARGET_MS} ms; best of 5, warm admin connection)`);
  } finally {
    await admin.deleteGroups([group]).catch(() => {});
    await admin.deleteTopics({ topics: [sampled, wide] }).catch(() => {});
    await admin.disconnect();
  }
}

parseThroughput();
await brokerFigures();
