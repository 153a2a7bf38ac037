import { describe, expect, it } from 'vitest';
import { LocalKafka } from './local-kafka.ts';

describe('LocalKafka.connect', () => {
  it('uses the course\'s topic names by default and says which brokers it could not reach, within its timeout', async () => {
    const started = Date.now();
    const failure = (await LocalKafka.connect({ brokers: ['127.0.0.1:1'], timeoutMs: 2000 }).catch((e: unknown) => e)) as Error;
    expect(failure.message).toMatch(/^Cannot reach the Kafka brokers 127\.0\.0\.1:1 while preparing the topics gateway-events and tenant-cost: connection refused/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses a partition count that is not a positive whole number', async () => {
    await expect(LocalKafka.connect({ brokers: ['127.0.0.1:1'], partitions: 0 })).rejects.toThrow(/--partitions must be a positive whole number/);
  });
});
