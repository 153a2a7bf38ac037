import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineError } from '../flink-rest/errors.ts';
import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { isCoordinatorNotReady, withDeadline } from './kafka-errors.ts';

// Fake timers: the deadline is asserted on the clock it runs on, not on how fast this machine is today.
describe('withDeadline (every Kafka call the console makes)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('a call that never settles is rejected with a timeout at the deadline, not a moment before', async () => {
    const outcome = withDeadline(new Promise<never>(() => {}), 7000, () => 'The Kafka brokers b:9092 did not answer within 7000 ms.').catch((e: unknown) => e);
    let settled = false;
    void outcome.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(6999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = (await outcome) as EngineError;
    expect(error).toBeInstanceOf(EngineError);
    expect(error.info).toMatchObject({ kind: 'timeout', message: 'The Kafka brokers b:9092 did not answer within 7000 ms.' });
  });

  it('a call that settles in time keeps its own result or failure, and leaves no timer behind', async () => {
    await expect(withDeadline(Promise.resolve(42), 7000, () => 'late')).resolves.toBe(42);
    await expect(withDeadline(Promise.reject(new Error('refused')), 7000, () => 'late')).rejects.toThrow('refused');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('isCoordinatorNotReady (a consumer crash kafkajs restarts on its own)', () => {
  // As kafkajs builds them from a broker's error code, and wraps the last one when its retries are spent.
  const protocol = (type: string) => new KafkaJSProtocolError({ type, code: 14, retriable: true, message: "The coordinator is loading and hence can't process requests for this group" } as unknown as Error);
  const afterRetries = (cause: Error) => new KafkaJSNumberOfRetriesExceeded(cause, { retryCount: 2, retryTime: 300 });

  it("a fresh broker's group coordinator still loading, as kafkajs reports it after its retries", () => {
    expect(isCoordinatorNotReady(afterRetries(protocol('COORDINATOR_LOAD_IN_PROGRESS')))).toBe(true);
    expect(isCoordinatorNotReady(protocol('NOT_COORDINATOR'))).toBe(true);
  });

  it('not a broker that went away, nor any other answer', () => {
    expect(isCoordinatorNotReady(afterRetries(new KafkaJSConnectionError('Connection error: ECONNREFUSED')))).toBe(false);
    expect(isCoordinatorNotReady(protocol('TOPIC_AUTHORIZATION_FAILED'))).toBe(false);
    expect(isCoordinatorNotReady(undefined)).toBe(false);
  });
});
