import { parseFlinkDuration, parseJavaDuration } from '../flink-rest/duration.ts';

/**
 * A job's restart strategy as the cluster reports it, and what it does with the next failure. Pure: the console
 * reads the strategy from the job's configuration (`GET /jobs/:jobid/config`, falling back to
 * `GET /jobs/:jobid/jobmanager/config` when the job uses the cluster's default), never assumes one.
 */
export type RestartStrategy =
  | { type: 'none' }
  | { type: 'fixed-delay'; attempts: number; delayMs: number }
  | { type: 'exponential-delay'; initialBackoffMs: number; maxBackoffMs: number; backoffMultiplier: number }
  | { type: 'failure-rate'; maxFailures: number; intervalMs: number; delayMs: number };

/** Flink's description of a job that sets no strategy of its own (`RestartStrategyDescriptionUtils`). */
const CLUSTER_DEFAULT = 'Cluster level default restart strategy';

/** `PT5S` (2.x, Java's Duration) or `5000 ms` / `5 s` (older versions). */
function durationMs(text: string): number | null {
  return parseJavaDuration(text) ?? parseFlinkDuration(text);
}

/**
 * Reads `ExecutionConfigInfo.restart-strategy`, as Flink 2.2.1 words it (each checked on a real cluster):
 * "Restart deactivated.", "Restart with fixed delay (PT5S). #1000 restart attempts.", "Restart with exponential delay:
 * starting at PT1S, increasing by 1.500000, with maximum PT1M. Delay resets after PT1H with jitter 0.100000",
 * "Failure rate restart with maximum of 1 failures within interval PT1M and fixed delay PT1S.". Returns
 * 'cluster-default' when the job defers to the cluster, null when the text is not one of these.
 */
export function parseRestartStrategyDescription(text: string): RestartStrategy | 'cluster-default' | null {
  const t = text.trim();
  if (t.startsWith(CLUSTER_DEFAULT)) return 'cluster-default';
  if (/^Restart deactivated\.?$/i.test(t) || /^No restart/i.test(t)) return { type: 'none' };
  const fixed = /^Restart with fixed delay \((.+?)\)\. #(\d+) restart attempts\.?$/.exec(t);
  if (fixed) {
    const delayMs = durationMs(fixed[1]);
    return delayMs === null ? null : { type: 'fixed-delay', attempts: Number(fixed[2]), delayMs };
  }
  const exponential = /^Restart with exponential delay: starting at (\S+), increasing by ([\d.]+), with maximum (\S+?)\./.exec(t);
  if (exponential) {
    const initialBackoffMs = durationMs(exponential[1]);
    const maxBackoffMs = durationMs(exponential[3]);
    if (initialBackoffMs === null || maxBackoffMs === null) return null;
    return { type: 'exponential-delay', initialBackoffMs, maxBackoffMs, backoffMultiplier: Number(exponential[2]) };
  }
  const rate = /^Failure rate restart with maximum of (\d+) failures within interval (\S+) and fixed delay (\S+?)\.?$/.exec(t);
  if (rate) {
    const intervalMs = durationMs(rate[2]);
    const delayMs = durationMs(rate[3]);
    if (intervalMs === null || delayMs === null) return null;
    return { type: 'failure-rate', maxFailures: Number(rate[1]), intervalMs, delayMs };
  }
  return null;
}

/**
 * The strategy a configuration sets (`restart-strategy.type`, or the older `restart-strategy`), with Flink's defaults
 * for the options it leaves out. When it sets none: exponential-delay with checkpointing, none without (Flink 1.19+).
 */
export function restartStrategyOfConfiguration(conf: Readonly<Record<string, string>>): RestartStrategy {
  const raw = (conf['restart-strategy.type'] ?? conf['restart-strategy'])?.trim().toLowerCase();
  const duration = (key: string, fallback: number) => (conf[key] !== undefined ? (durationMs(conf[key]) ?? fallback) : fallback);
  const number = (key: string, fallback: number) => (conf[key] !== undefined && Number.isFinite(Number(conf[key])) ? Number(conf[key]) : fallback);
  const exponential = (): RestartStrategy => ({
    type: 'exponential-delay',
    initialBackoffMs: duration('restart-strategy.exponential-delay.initial-backoff', 1000),
    maxBackoffMs: duration('restart-strategy.exponential-delay.max-backoff', 60_000),
    backoffMultiplier: number('restart-strategy.exponential-delay.backoff-multiplier', 1.5),
  });
  switch (raw) {
    case 'none':
    case 'off':
    case 'disable':
      return { type: 'none' };
    case 'fixed-delay':
    case 'fixeddelay':
      return {
        type: 'fixed-delay',
        attempts: number('restart-strategy.fixed-delay.attempts', 1),
        delayMs: duration('restart-strategy.fixed-delay.delay', 1000),
      };
    case 'failure-rate':
    case 'failurerate':
      return {
        type: 'failure-rate',
        maxFailures: number('restart-strategy.failure-rate.max-failures-per-interval', 1),
        intervalMs: duration('restart-strategy.failure-rate.failure-rate-interval', 60_000),
        delayMs: duration('restart-strategy.failure-rate.delay', 1000),
      };
    case 'exponential-delay':
    case 'exponentialdelay':
      return exponential();
    default: {
      const checkpointing = conf['execution.checkpointing.interval'] !== undefined;
      return checkpointing ? exponential() : { type: 'none' };
    }
  }
}

/** `1 s`, `1.5 s`, `1 min`, `2 min 30 s`: for sentences, not tables. */
export function spokenDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}

/** The strategy in a few words: `fixed-delay: 5 s between restarts, at most 1000`. */
export function describeRestartStrategy(strategy: RestartStrategy): string {
  switch (strategy.type) {
    case 'none':
      return 'none (restart deactivated)';
    case 'fixed-delay':
      return `fixed-delay: ${spokenDuration(strategy.delayMs)} between restarts, at most ${strategy.attempts}`;
    case 'exponential-delay':
      return `exponential-delay: ${spokenDuration(strategy.initialBackoffMs)} at first, ×${strategy.backoffMultiplier} per failure, at most ${spokenDuration(strategy.maxBackoffMs)}`;
    case 'failure-rate':
      return `failure-rate: ${spokenDuration(strategy.delayMs)} between restarts, fails after ${strategy.maxFailures} failure${strategy.maxFailures === 1 ? '' : 's'} within ${spokenDuration(strategy.intervalMs)}`;
  }
}

/**
 * What a failure does to a job, in one clause that follows its name: "restarts in 5 s (…)" or "fails for good (…)".
 * `failed` is whether the job has already given up (FAILING/FAILED after the failure); `numRestarts` its `numRestarts`
 * metric after the failure, when known.
 */
export function describeFailover(strategy: RestartStrategy, outcome: { failed: boolean; numRestarts: number | null }): string {
  const how = describeRestartStrategy(strategy);
  if (outcome.failed || strategy.type === 'none') {
    if (strategy.type === 'none') return `fails for good: its restart strategy is ${how}`;
    if (strategy.type === 'fixed-delay') return `fails for good: all ${strategy.attempts} restarts of its strategy are used (${how})`;
    return `fails for good: its restart strategy gave up (${how})`;
  }
  switch (strategy.type) {
    case 'fixed-delay': {
      const which = outcome.numRestarts !== null && outcome.numRestarts > 0 ? `restart ${outcome.numRestarts} of ${strategy.attempts}` : `at most ${strategy.attempts} restarts`;
      return `restarts in ${spokenDuration(strategy.delayMs)} (fixed-delay, ${which})`;
    }
    case 'failure-rate':
      return `restarts in ${spokenDuration(strategy.delayMs)} (${how})`;
    case 'exponential-delay': {
      // The n-th failure in a row waits initial × multiplier^(n-1), capped (± jitter): "about".
      const n = Math.max(1, outcome.numRestarts ?? 1);
      const backoff = Math.min(strategy.initialBackoffMs * strategy.backoffMultiplier ** (n - 1), strategy.maxBackoffMs);
      return `restarts in about ${spokenDuration(Math.round(backoff))} (${how})`;
    }
  }
}
