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

/** Flink's defaults for the options a configuration leaves out (`RestartStrategyOptions`). */
export const RESTART_STRATEGY_DEFAULTS = {
  'fixed-delay': { attempts: 1, delayMs: 1000 },
  'exponential-delay': { initialBackoffMs: 1000, maxBackoffMs: 60_000, backoffMultiplier: 1.5 },
  'failure-rate': { maxFailures: 1, intervalMs: 60_000, delayMs: 1000 },
} as const;

/** Java's Integer.MAX_VALUE, Flink's "unlimited" attempts. */
export const INTEGER_MAX_VALUE = 2_147_483_647;

/**
 * How a reader of a configuration takes its restart-strategy options: the console reads a real cluster's leniently
 * (the cluster accepted it; a value it cannot read is Flink's default), the local engine strictly (it must refuse
 * what Flink refuses). `rule` is what Flink requires of a number, in words after its value.
 */
export interface RestartOptionReader {
  duration(key: string, fallback: number): number;
  number(key: string, fallback: number, rule: { check: (n: number) => boolean; words: string }): number;
}

/**
 * `restart-strategy.type` (or the older `restart-strategy`) as set, and the strategy it names (Flink's aliases
 * included; null: none Flink knows). Undefined when the configuration sets none.
 */
export function configuredRestartStrategyType(conf: Readonly<Record<string, string>>): { key: string; value: string; type: RestartStrategy['type'] | null } | undefined {
  const key = conf['restart-strategy.type'] !== undefined ? 'restart-strategy.type' : 'restart-strategy';
  const value = conf[key];
  if (value === undefined) return undefined;
  switch (value.trim().toLowerCase()) {
    case 'none':
    case 'off':
    case 'disable':
      return { key, value, type: 'none' };
    case 'fixed-delay':
    case 'fixeddelay':
      return { key, value, type: 'fixed-delay' };
    case 'exponential-delay':
    case 'exponentialdelay':
      return { key, value, type: 'exponential-delay' };
    case 'failure-rate':
    case 'failurerate':
      return { key, value, type: 'failure-rate' };
    default:
      return { key, value, type: null };
  }
}

/** The options of a strategy (`restart-strategy.<type>.*`), with Flink's defaults for those left out. */
export function restartStrategyOptions<T extends RestartStrategy['type']>(type: T, read: RestartOptionReader): Extract<RestartStrategy, { type: T }>;
export function restartStrategyOptions(type: RestartStrategy['type'], read: RestartOptionReader): RestartStrategy {
  switch (type) {
    case 'none':
      return { type: 'none' };
    case 'fixed-delay': {
      const d = RESTART_STRATEGY_DEFAULTS['fixed-delay'];
      return {
        type: 'fixed-delay',
        attempts: read.number('restart-strategy.fixed-delay.attempts', d.attempts, { check: (n) => Number.isInteger(n) && n >= 0 && n <= INTEGER_MAX_VALUE, words: 'must be a whole number >= 0' }),
        delayMs: read.duration('restart-strategy.fixed-delay.delay', d.delayMs),
      };
    }
    case 'exponential-delay': {
      const d = RESTART_STRATEGY_DEFAULTS['exponential-delay'];
      const p = 'restart-strategy.exponential-delay.';
      return {
        type: 'exponential-delay',
        initialBackoffMs: read.duration(`${p}initial-backoff`, d.initialBackoffMs),
        maxBackoffMs: read.duration(`${p}max-backoff`, d.maxBackoffMs),
        backoffMultiplier: read.number(`${p}backoff-multiplier`, d.backoffMultiplier, { check: (n) => n > 1, words: 'must be a number greater than 1' }),
      };
    }
    case 'failure-rate': {
      const d = RESTART_STRATEGY_DEFAULTS['failure-rate'];
      const p = 'restart-strategy.failure-rate.';
      return {
        type: 'failure-rate',
        maxFailures: read.number(`${p}max-failures-per-interval`, d.maxFailures, { check: (n) => Number.isInteger(n) && n >= 1, words: 'must be a whole number >= 1' }),
        intervalMs: read.duration(`${p}failure-rate-interval`, d.intervalMs),
        delayMs: read.duration(`${p}delay`, d.delayMs),
      };
    }
  }
}

/** A cluster's options as the console reads them: a value it cannot read is Flink's default. */
function lenientReader(conf: Readonly<Record<string, string>>): RestartOptionReader {
  return {
    duration: (key, fallback) => (conf[key] !== undefined ? (durationMs(conf[key]) ?? fallback) : fallback),
    number: (key, fallback) => (conf[key] !== undefined && Number.isFinite(Number(conf[key])) ? Number(conf[key]) : fallback),
  };
}

/**
 * The strategy a configuration sets (`restart-strategy.type`, or the older `restart-strategy`), with Flink's defaults
 * for the options it leaves out. When it sets none: exponential-delay with checkpointing, none without (Flink 1.19+).
 */
export function restartStrategyOfConfiguration(conf: Readonly<Record<string, string>>): RestartStrategy {
  const checkpointing = conf['execution.checkpointing.interval'] !== undefined;
  const type = configuredRestartStrategyType(conf)?.type ?? (checkpointing ? 'exponential-delay' : 'none');
  return restartStrategyOptions(type, lenientReader(conf));
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
