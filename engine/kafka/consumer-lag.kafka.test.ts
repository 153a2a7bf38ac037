import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Admin, Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKafkaBroker, uniqueTopic, type KafkaBroker } from '../../e2e/support/kafkaBroker.ts';
import { ROOT } from '../../e2e/support/paths.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { fetchConsumerLag } from './consumer-lag.ts';
import { createKafka } from './kafka-connection.ts';

/**
 * Consumer lag against the real broker of `npm run kafka:up`: offsets committed for a group, then the lag read back
 * through the admin client and through `flink-ops lag`, to the record.
 */
const run = promisify(execFile);
let broker: KafkaBroker;
let kafka: Kafka;
let admin: Admin;
const topic = uniqueTopic('lag');
const group = `${topic}-group`;
/** Records produced per partition (4 partitions). */
const PRODUCED = [120, 75, 33, 0];
/** Offsets committed for the group: partition 2 and 3 get none. */
const COMMITTED = { 0: 100, 1: 75 } as Record<number, number>;

async function flinkOps(...args: string[]): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  try {
    const { stdout, stderr } = await run(process.execPath, ['engine/cli/flink-ops.mjs', ...args], { cwd: ROOT, timeout: 60_000 });
    return { code: 0, stdout, stderr, ms: Date.now() - started };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, ms: Date.now() - started };
  }
}

beforeAll(async () => {
  broker = readKafkaBroker();
  kafka = createKafka({ brokers: [broker.bootstrap] });
  admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 4 }], waitForLeaders: true });
  const producer = kafka.producer();
  await producer.connect();
  for (const [partition, n] of PRODUCED.entries()) {
    if (n > 0) await producer.send({ topic, messages: Array.from({ length: n }, (_, i) => ({ partition, value: JSON.stringify({ i }) })) });
  }
  await producer.disconnect();
  // What a Flink KafkaSource does on a completed checkpoint: commit offsets under its group.id.
  await admin.setOffsets({ groupId: group, topic, partitions: Object.entries(COMMITTED).map(([partition, offset]) => ({ partition: Number(partition), offset: String(offset) })) });
});

afterAll(async () => {
  await admin?.deleteGroups([group]).catch(() => {});
  await admin?.deleteTopics({ topics: [topic] }).catch(() => {});
  await admin?.disconnect();
});

describe(`consumer lag on Kafka ${process.env.KAFKA_VERSION ?? '4.4.0'}`, () => {
  it('reads committed offset, log-end offset and lag per partition exactly; no committed offset is shown as such', async () => {
    const lag = await fetchConsumerLag(admin, { groupId: group }, [broker.bootstrap]);
    expect(lag.topics).toEqual([topic]);
    expect(lag.partitions.map((p) => [p.partition, p.committedOffset, p.logEndOffset, p.lag])).toEqual([
      [0, 100, 120, 20],
      [1, 75, 75, 0],
      [2, null, 33, null],
      [3, null, 0, null],
    ]);
    expect(lag.totalLag).toBe(20);
    expect(lag.partitionsWithoutCommit).toBe(2);
    expect(lag.groupState).toBe('Empty');
    expect(lag.members).toBe(0);
    expect(lag.requestCount).toBeGreaterThan(0);
  });

  it('follows new commits and new records to the record', async () => {
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: Array.from({ length: 7 }, () => ({ partition: 1, value: '{}' })) });
    await producer.disconnect();
    await admin.setOffsets({ groupId: group, topic, partitions: [{ partition: 0, offset: '120' }] });
    const lag = await fetchConsumerLag(admin, { groupId: group, topics: [topic] }, [broker.bootstrap]);
    expect(lag.partitions.map((p) => p.lag)).toEqual([0, 7, null, null]);
    expect(lag.totalLag).toBe(7);
  });

  it('says clearly when the group or the topic does not exist', async () => {
    await expect(fetchConsumerLag(admin, { groupId: `${group}-nobody` }, [broker.bootstrap])).rejects.toThrow(/does not exist .*no members, no committed offsets/);
    const missing = await fetchConsumerLag(admin, { groupId: group, topics: ['no-such-topic'] }, [broker.bootstrap]).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(EngineError);
    expect((missing as EngineError).info).toMatchObject({ kind: 'not-found', message: expect.stringContaining('Topic "no-such-topic" does not exist') });
  });

  it('flink-ops lag prints the table and JSON, and exits 3 in one line when the brokers cannot be reached', async () => {
    const table = await flinkOps('lag', '--brokers', broker.bootstrap, '--group', group);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/total lag 7, 2 partition\(s\) without a committed offset/);
    expect(table.stdout).toMatch(new RegExp(`${topic}\\s+2\\s+no committed offset\\s+33\\s+-`));
    expect(table.stdout).toMatch(/saw-tooths with the checkpoint interval/);
    const json = await flinkOps('lag', '--brokers', broker.bootstrap, '--group', group, '--topic', topic, '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ groupId: group, totalLag: 7, partitionsWithoutCommit: 2 });

    const refused = await flinkOps('lag', '--brokers', '127.0.0.1:1', '--group', group, '--timeout', '3000');
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/Cannot reach the Kafka brokers 127\.0\.0\.1:1 .*connection refused/);
    expect(refused.ms).toBeLessThan(20_000);

    const noGroup = await flinkOps('lag', '--brokers', broker.bootstrap, '--group', `${group}-nobody`);
    expect(noGroup.code).toBe(1);
    expect(noGroup.stderr).toMatch(/^flink-ops: Consumer group ".*" does not exist/);
    const badArgs = await flinkOps('lag', '--brokers', 'not a broker', '--group', group);
    expect(badArgs.code).toBe(2);
  });

  it('wrong SASL credentials and an untrusted TLS certificate are refused with exit 3; the right ones work', async () => {
    const sasl = ['--brokers', broker.saslBootstrap, '--group', group, '--topic', topic];
    for (const mechanism of ['plain', 'scram-sha-256', 'scram-sha-512']) {
      const ok = await run(process.execPath, ['engine/cli/flink-ops.mjs', 'lag', ...sasl, '--sasl-mechanism', mechanism, '--sasl-user', broker.sasl.username, '--json'], {
        cwd: ROOT,
        env: { ...process.env, FLINK_OPS_KAFKA_PASSWORD: broker.sasl.password },
      });
      expect(JSON.parse(ok.stdout).totalLag).toBe(7);
      const wrong = await run(process.execPath, ['engine/cli/flink-ops.mjs', 'lag', ...sasl, '--sasl-mechanism', mechanism, '--sasl-user', broker.sasl.username], {
        cwd: ROOT,
        env: { ...process.env, FLINK_OPS_KAFKA_PASSWORD: 'wrong-password' },
      }).catch((e: { code: number; stderr: string }) => e);
      expect((wrong as { code: number }).code, mechanism).toBe(3);
      expect((wrong as { stderr: string }).stderr).toMatch(/rejected the SASL credentials/);
    }
    const untrusted = await flinkOps('lag', '--brokers', broker.sslBootstrap, '--tls', '--group', group, '--topic', topic);
    expect(untrusted.code).toBe(3);
    expect(untrusted.stderr).toMatch(/TLS to the Kafka brokers .* failed .*add the brokers' CA file/);
    const trusted = await flinkOps('lag', '--brokers', broker.sslBootstrap, '--ca-file', broker.caFile, '--group', group, '--topic', topic, '--json');
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(JSON.parse(trusted.stdout).totalLag).toBe(7);
  });
});
