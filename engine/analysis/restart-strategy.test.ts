import { describe, expect, it } from 'vitest';
import { describeFailover, parseRestartStrategyDescription, restartStrategyOfConfiguration } from './restart-strategy.ts';

describe('parseRestartStrategyDescription: the words of /jobs/:jobid/config', () => {
  // Each text as a real Flink 2.2.1 wrote it for a job run with that restart-strategy.* configuration.
  it.each([
    ['Restart deactivated.', { type: 'none' }],
    ['Restart with fixed delay (PT5S). #1000 restart attempts.', { type: 'fixed-delay', attempts: 1000, delayMs: 5000 }],
    ['Restart with fixed delay (PT1.5S). #3 restart attempts.', { type: 'fixed-delay', attempts: 3, delayMs: 1500 }],
    [
      'Restart with exponential delay: starting at PT1S, increasing by 1.500000, with maximum PT1M. Delay resets after PT1H with jitter 0.100000',
      { type: 'exponential-delay', initialBackoffMs: 1000, maxBackoffMs: 60_000, backoffMultiplier: 1.5 },
    ],
    ['Failure rate restart with maximum of 1 failures within interval PT1M and fixed delay PT1S.', { type: 'failure-rate', maxFailures: 1, intervalMs: 60_000, delayMs: 1000 }],
    // Older versions print durations as "5000 ms".
    ['Restart with fixed delay (5000 ms). #3 restart attempts.', { type: 'fixed-delay', attempts: 3, delayMs: 5000 }],
  ])('%s', (text, strategy) => expect(parseRestartStrategyDescription(text)).toEqual(strategy));

  it('tells a job that uses the cluster\'s default, and text it does not know', () => {
    expect(parseRestartStrategyDescription('Cluster level default restart strategy')).toBe('cluster-default');
    expect(parseRestartStrategyDescription('Restart when the moon is full')).toBeNull();
  });
});

describe('restartStrategyOfConfiguration: restart-strategy.* keys, with Flink\'s defaults', () => {
  it('reads the type and its options', () => {
    expect(restartStrategyOfConfiguration({ 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': '1000', 'restart-strategy.fixed-delay.delay': '5 s' })).toEqual({
      type: 'fixed-delay',
      attempts: 1000,
      delayMs: 5000,
    });
    expect(restartStrategyOfConfiguration({ 'restart-strategy': 'none' })).toEqual({ type: 'none' });
    expect(restartStrategyOfConfiguration({ 'restart-strategy.type': 'failure-rate' })).toEqual({ type: 'failure-rate', maxFailures: 1, intervalMs: 60_000, delayMs: 1000 });
  });

  it('none set: exponential-delay with checkpointing, none without (Flink 1.19+)', () => {
    expect(restartStrategyOfConfiguration({ 'execution.checkpointing.interval': '10 s' })).toEqual({
      type: 'exponential-delay',
      initialBackoffMs: 1000,
      maxBackoffMs: 60_000,
      backoffMultiplier: 1.5,
    });
    expect(restartStrategyOfConfiguration({})).toEqual({ type: 'none' });
  });
});

describe('describeFailover: what the failure does, in one clause', () => {
  it('none: fails for good', () => {
    expect(describeFailover({ type: 'none' }, { failed: true, numRestarts: 0 })).toBe('fails for good: its restart strategy is none (restart deactivated)');
  });

  it('fixed-delay: when, and which restart of how many; or that none is left', () => {
    const strategy = { type: 'fixed-delay', attempts: 1000, delayMs: 5000 } as const;
    expect(describeFailover(strategy, { failed: false, numRestarts: 3 })).toBe('restarts in 5 s (fixed-delay, restart 3 of 1000)');
    expect(describeFailover(strategy, { failed: false, numRestarts: null })).toBe('restarts in 5 s (fixed-delay, at most 1000 restarts)');
    expect(describeFailover(strategy, { failed: true, numRestarts: 1000 })).toBe(
      'fails for good: all 1000 restarts of its strategy are used (fixed-delay: 5 s between restarts, at most 1000)',
    );
  });

  it('exponential-delay: the backoff grows with the failures in a row, up to its maximum', () => {
    const strategy = { type: 'exponential-delay', initialBackoffMs: 1000, maxBackoffMs: 60_000, backoffMultiplier: 1.5 } as const;
    expect(describeFailover(strategy, { failed: false, numRestarts: 1 })).toMatch(/^restarts in about 1 s \(exponential-delay: 1 s at first, ×1\.5 per failure, at most 1 min\)$/);
    expect(describeFailover(strategy, { failed: false, numRestarts: 3 })).toMatch(/^restarts in about 2\.3 s /);
    expect(describeFailover(strategy, { failed: false, numRestarts: 40 })).toMatch(/^restarts in about 1 min /);
  });

  it('failure-rate', () => {
    expect(describeFailover({ type: 'failure-rate', maxFailures: 3, intervalMs: 300_000, delayMs: 10_000 }, { failed: false, numRestarts: 1 })).toBe(
      'restarts in 10 s (failure-rate: 10 s between restarts, fails after 3 failures within 5 min)',
    );
  });
});
