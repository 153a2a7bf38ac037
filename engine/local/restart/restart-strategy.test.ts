import { describe, expect, it } from 'vitest';
import { validateAgainstSpec } from '../rest-spec/validate-against-spec.ts';
import { keyPaths, realBody } from '../checkpoint/testdata/shape.ts';
import { exceptionHistoryEntry, javaStackTrace, renderExceptionHistory, taskManagerLostEntry } from './exception-history.ts';
import { RestartBackoff, RestartStrategyConfigError, resolveRestartStrategy } from './restart-strategy.ts';

describe('restart strategy configuration (Flink 2.x keys)', () => {
  it('none, fixed-delay with defaults and values, deprecated key, job over cluster', () => {
    expect(resolveRestartStrategy({ 'restart-strategy.type': 'none' }, {}, true)).toEqual({ type: 'none' });
    expect(resolveRestartStrategy({ 'restart-strategy.type': 'disable' }, {}, true)).toEqual({ type: 'none' });
    expect(resolveRestartStrategy({ 'restart-strategy.type': 'fixed-delay' }, {}, true)).toEqual({ type: 'fixed-delay', attempts: 1, delayMs: 1000 });
    expect(
      resolveRestartStrategy({}, { 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': '1000', 'restart-strategy.fixed-delay.delay': '5 s' }, true),
    ).toEqual({ type: 'fixed-delay', attempts: 1000, delayMs: 5000 });
    expect(resolveRestartStrategy({ 'restart-strategy': 'fixeddelay' }, { 'restart-strategy.type': 'none' }, false).type).toBe('fixed-delay');
  });

  it('unset: exponential-delay with checkpointing, none without', () => {
    expect(resolveRestartStrategy({}, {}, false)).toEqual({ type: 'none' });
    expect(resolveRestartStrategy({}, {}, true)).toMatchObject({ type: 'exponential-delay', initialBackoffMs: 1000, maxBackoffMs: 60_000, backoffMultiplier: 1.5 });
  });

  it('bad values name the key', () => {
    expect(() => resolveRestartStrategy({ 'restart-strategy.type': 'sometimes' }, {}, true)).toThrow(/Unknown restart strategy sometimes/);
    expect(() => resolveRestartStrategy({ 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': '-1' }, {}, true)).toThrow(
      new RestartStrategyConfigError('restart-strategy.fixed-delay.attempts: "-1" must be a whole number >= 0.'),
    );
    expect(() => resolveRestartStrategy({ 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.delay': 'soon' }, {}, true)).toThrow(
      /restart-strategy.fixed-delay.delay: "soon" is not a duration/,
    );
    expect(() => resolveRestartStrategy({ 'restart-strategy.type': 'failure-rate' }, {}, true)).toThrow(/not supported by the local engine/);
  });
});

describe('restart decisions', () => {
  it('none: the first failure fails the job', () => {
    const s = new RestartBackoff({ type: 'none' });
    expect(s.onFailure(1000)).toEqual({ restart: false, numRestarts: 0, message: 'Recovery is suppressed by NoRestartBackoffTimeStrategy' });
  });

  it('fixed-delay(attempts=3): three restarts after the delay, the fourth failure fails the job', () => {
    const s = new RestartBackoff({ type: 'fixed-delay', attempts: 3, delayMs: 5000 });
    expect([1, 2, 3].map((t) => s.onFailure(t))).toEqual([
      { restart: true, delayMs: 5000, numRestarts: 1 },
      { restart: true, delayMs: 5000, numRestarts: 2 },
      { restart: true, delayMs: 5000, numRestarts: 3 },
    ]);
    expect(s.onFailure(4)).toEqual({
      restart: false,
      numRestarts: 3,
      message: 'Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=5000)',
    });
  });

  it('fixed-delay(attempts=0) never restarts; unrecoverable failures never restart', () => {
    expect(new RestartBackoff({ type: 'fixed-delay', attempts: 0, delayMs: 1 }).onFailure(0).restart).toBe(false);
    expect(new RestartBackoff({ type: 'fixed-delay', attempts: 5, delayMs: 1 }).onFailure(0, { recoverable: false })).toMatchObject({ restart: false, numRestarts: 0 });
  });

  it('exponential-delay grows by the multiplier up to the max, with jitter, and resets after quiet time', () => {
    const config = resolveRestartStrategy({ 'restart-strategy.type': 'exponential-delay', 'restart-strategy.exponential-delay.jitter-factor': '0' }, {}, true);
    const s = new RestartBackoff(config);
    const t0 = 1_800_000_000_000;
    const delays = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => (s.onFailure(t0 + i * 1000) as { delayMs: number }).delayMs);
    expect(delays.slice(0, 5)).toEqual([1000, 1500, 2250, 3375, 5062]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(60_000);
    expect((s.onFailure(t0 + 5 * 3_600_000) as { delayMs: number }).delayMs).toBe(1000);
    const jittered = new RestartBackoff(resolveRestartStrategy({}, {}, true), () => 0);
    expect((jittered.onFailure(t0) as { delayMs: number }).delayMs).toBe(900);
  });
});

describe('exception history (2.x wire)', () => {
  const task = { vertexName: 'tenant-cost -> Sink: usd-sink', subtaskIndex: 1, parallelism: 4, attempt: 0, endpoint: 'localhost:42001', taskManagerId: '127.0.0.1:41001-a1b2c3' };

  it('a task failure names the task, endpoint and TaskManager; fields in Flink\'s order', () => {
    const entry = exceptionHistoryEntry({ cause: new Error('Simulated failure at record 5'), timestamp: 1000, task });
    expect(Object.keys(entry)).toEqual(['exceptionName', 'stacktrace', 'timestamp', 'taskName', 'endpoint', 'taskManagerId', 'failureLabels', 'concurrentExceptions']);
    expect(entry).toMatchObject({ exceptionName: 'java.lang.RuntimeException', taskName: 'tenant-cost -> Sink: usd-sink (2/4)#0', failureLabels: {}, concurrentExceptions: [] });
    expect(entry.stacktrace).toMatch(/^java\.lang\.RuntimeException: Simulated failure at record 5\n\tat /);
  });

  it('a lost TaskManager is a global entry shaped like the one real Flink 2.2.1 recorded', () => {
    const real = realBody<{ exceptionHistory: { entries: Array<Record<string, unknown>> } }>('exceptions-taskmanager-lost.json');
    const ours = renderExceptionHistory([taskManagerLostEntry('127.0.0.1:40113-e05a15', 1795970307724)]);
    expect(keyPaths(ours)).toEqual(keyPaths(real));
    const [entry] = ours.exceptionHistory.entries;
    expect(entry.exceptionName).toBe(real.exceptionHistory.entries[0].exceptionName);
    expect(entry.stacktrace.split('\n').slice(0, 3)).toEqual((real.exceptionHistory.entries[0].stacktrace as string).split('\n').slice(0, 3));
    expect(validateAgainstSpec('GET', '/jobs/:jobid/exceptions', 200, ours)).toEqual([]);
  });

  it('newest first, limited by maxExceptions, truncated when entries were left out; spec-valid', () => {
    const entries = [1, 2, 3].map((t) =>
      exceptionHistoryEntry({ cause: { className: 'java.io.IOException', message: `boom ${t}` }, timestamp: t, task, concurrent: [{ cause: new TypeError('x'), timestamp: t, task: { ...task, subtaskIndex: 0 } }] }),
    );
    const body = renderExceptionHistory(entries, 2);
    expect(body.exceptionHistory.entries.map((e) => e.timestamp)).toEqual([3, 2]);
    expect(body.exceptionHistory.truncated).toBe(true);
    expect(renderExceptionHistory(entries).exceptionHistory.truncated).toBe(false);
    expect(validateAgainstSpec('GET', '/jobs/:jobid/exceptions', 200, JSON.parse(JSON.stringify(body)))).toEqual([]);
    expect(javaStackTrace({ className: 'java.io.IOException', message: '' })).toBe('java.io.IOException\n');
  });
});
