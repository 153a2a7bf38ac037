import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Kafka } from 'kafkajs';
import { kafkaVersion, readKafkaBroker, uniqueTopic, type KafkaBroker } from '../../e2e/support/kafkaBroker.ts';
import { allPartitionsAssigner } from './all-partitions-assigner.ts';
import { createKafka } from './kafka-connection.ts';

/**
 * kafkajs 2.2.4 predates Kafka 4.0, which removed old protocol versions (KIP-896). Every kafkajs call the console and
 * the local engine make, against this broker version: kafkajs negotiates each API's version from the broker's
 * ApiVersions answer, and the broker logs no request in an unsupported version.
 */
let broker: KafkaBroker;
/** Where the broker's log stood before these calls: only what they caused is checked. */
let logStart = 0;
let kafka: Kafka;
let admin: Admin;
const topic = uniqueTopic('compat');
const group = `${topic}-group`;

beforeAll(async () => {
  broker = readKafkaBroker();
  logStart = statSync(broker.log).size;
  kafka = createKafka({ brokers: [broker.bootstrap] });
  admin = kafka.admin();
  await admin.connect();
});

afterAll(async () => {
  await admin?.deleteTopics({ topics: [topic] }).catch(() => {});
  await admin?.disconnect();
});

describe(`kafkajs 2.2.4 on Kafka ${kafkaVersion()}`, () => {
  it('admin, idempotent producer and group consumer calls all work', async () => {
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
    expect(await admin.listTopics()).toContain(topic);
    expect((await admin.describeCluster()).brokers).toHaveLength(1);
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: JSON.stringify({ i }), timestamp: String(Date.now()) })) });
    await producer.disconnect();
    const ends = await admin.fetchTopicOffsets(topic);
    expect(ends.reduce((n, p) => n + Number(p.high), 0)).toBe(30);
    expect(await admin.fetchTopicOffsetsByTimestamp(topic, Date.now() - 60_000)).toHaveLength(3);

    const consumer = kafka.consumer({ groupId: group, partitionAssigners: [allPartitionsAssigner], maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic] });
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    let read = 0;
    const all = new Promise<void>((resolve) => {
      void consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          read += batch.messages.length;
          if (read >= 30) resolve();
        },
      });
    });
    await joined;
    for (const p of ends) consumer.seek({ topic, partition: p.partition, offset: '0' });
    await all;
    await consumer.commitOffsets(ends.map((p) => ({ topic, partition: p.partition, offset: p.high })));
    const described = (await admin.describeGroups([group])).groups[0];
    expect(described.members).toHaveLength(1);
    await consumer.disconnect();
    const committed = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    expect(committed[0].partitions.map((p) => Number(p.offset)).reduce((a, b) => a + b, 0)).toBe(30);
    await admin.setOffsets({ groupId: group, topic, partitions: [{ partition: 0, offset: '0' }] });
    expect((await admin.listGroups()).groups.map((g) => g.groupId)).toContain(group);
    await admin.deleteGroups([group]);
  });

  it('the broker logged no request in a protocol version it does not support', () => {
    const log = readFileSync(broker.log, 'utf8').slice(logStart);
    expect(log).not.toMatch(/unsupported version|UnsupportedVersionException/i);
  });
});
