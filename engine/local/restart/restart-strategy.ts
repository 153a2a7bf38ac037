import {
  configuredRestartStrategyType,
  INTEGER_MAX_VALUE,
  RESTART_STRATEGY_DEFAULTS,
  restartStrategyOptions,
  type RestartOptionReader,
  type RestartStrategy,
} from '../../analysis/restart-strategy.ts';
import { parseFlinkDuration } from '../../flink-rest/duration.ts';

/**
 * Flink's restart strategies as 2.x configures them (`RestartBackoffTimeStrategyFactoryLoader`,
 * `NoRestartBackoffTimeStrategy`, `FixedDelayRestartBackoffTimeStrategy`, `ExponentialDelayRestartBackoffTimeStrategy`):
 * on every failure the strategy is notified, then asked whether the job may restart and after which delay.
 *
 * - `none` (`none` | `off` | `disable`): the first failure fails the job.
 * - `fixed-delay` (`fixed-delay` | `fixeddelay`): `restart-strategy.fixed-delay.attempts` restarts (default 1), each
 *   after `restart-strategy.fixed-delay.delay` (default 1 s); failure number attempts+1 fails the job.
 * - `exponential-delay`: what Flink 2.x uses when checkpointing is on and no strategy is set. Unlimited restarts;
 *   the delay starts at `initial-backoff` (1 s), is multiplied by `backoff-multiplier` (1.5) after every failure up to
 *   `max-backoff` (1 min), ± `jitter-factor` (0.1), and resets after `reset-backoff-threshold` (1 h) without failures.
 * - not set: exponential-delay when checkpointing is enabled, none otherwise.
 * Job-level configuration wins over the cluster's. A decision not to restart carries Flink's "Recovery is suppressed by
 * …" message. Pure: time and randomness come in as arguments.
 */

/**
 * The strategies the local engine runs (not failure-rate), each with what the console reads of a real cluster's
 * (engine/analysis/restart-strategy.ts) and, for exponential-delay, the options only running it needs.
 */
export type RestartStrategyConfig =
  | Extract<RestartStrategy, { type: 'none' | 'fixed-delay' }>
  | (Extract<RestartStrategy, { type: 'exponential-delay' }> & { resetBackoffThresholdMs: number; jitterFactor: number; attemptsBeforeResetBackoff: number });

export const EXPONENTIAL_DELAY_DEFAULTS = {
  ...RESTART_STRATEGY_DEFAULTS['exponential-delay'],
  resetBackoffThresholdMs: 3_600_000,
  jitterFactor: 0.1,
  attemptsBeforeResetBackoff: INTEGER_MAX_VALUE,
} as const;

/** An invalid restart-strategy option: names the key and the accepted values. */
export class RestartStrategyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IllegalArgumentException';
  }
}

type Conf = Readonly<Record<string, string>>;

/** Options as Flink takes them: a value it cannot read fails the job's submission, naming the key. */
function strictReader(conf: Conf): RestartOptionReader {
  return {
    duration(key, fallback) {
      const raw = conf[key];
      if (raw === undefined) return fallback;
      const ms = parseFlinkDuration(raw);
      if (ms === null || ms < 0) throw new RestartStrategyConfigError(`${key}: "${raw}" is not a duration; write e.g. "10 s", "1 min" or milliseconds.`);
      return ms;
    },
    number(key, fallback, rule) {
      const raw = conf[key];
      if (raw === undefined) return fallback;
      const n = Number(raw);
      if (raw.trim() === '' || !rule.check(n)) throw new RestartStrategyConfigError(`${key}: "${raw}" ${rule.words}.`);
      return n;
    },
  };
}

/** The strategy one configuration sets, or undefined when it sets none. */
function strategyOf(conf: Conf): RestartStrategyConfig | undefined {
  const configured = configuredRestartStrategyType(conf);
  if (configured === undefined) return undefined;
  const { key, value, type } = configured;
  if (type === null) {
    throw new RestartStrategyConfigError(`Unknown restart strategy ${value}. ${key} accepts none, fixed-delay or exponential-delay (and failure-rate on a real Flink).`);
  }
  if (type === 'failure-rate') {
    throw new RestartStrategyConfigError(`${key}: "${value}" (failure-rate) is not supported by the local engine; use none, fixed-delay or exponential-delay.`);
  }
  const read = strictReader(conf);
  const strategy = restartStrategyOptions(type, read);
  if (strategy.type !== 'exponential-delay') return strategy;
  const d = EXPONENTIAL_DELAY_DEFAULTS;
  const p = 'restart-strategy.exponential-delay.';
  const config: RestartStrategyConfig = {
    ...strategy,
    resetBackoffThresholdMs: read.duration(`${p}reset-backoff-threshold`, d.resetBackoffThresholdMs),
    jitterFactor: read.number(`${p}jitter-factor`, d.jitterFactor, { check: (n) => n >= 0 && n <= 1, words: 'must be within [0, 1]' }),
    attemptsBeforeResetBackoff: read.number(`${p}attempts-before-reset-backoff`, d.attemptsBeforeResetBackoff, {
      check: (n) => Number.isInteger(n) && n >= 1,
      words: 'must be a whole number >= 1',
    }),
  };
  if (config.initialBackoffMs < 1 || config.initialBackoffMs > config.maxBackoffMs) {
    throw new RestartStrategyConfigError(`${p}initial-backoff must be at least 1 ms and at most ${p}max-backoff.`);
  }
  return config;
}

/**
 * The strategy a job runs with: its own configuration, else the cluster's, else exponential-delay (checkpointing
 * enabled) or none.
 */
export function resolveRestartStrategy(jobConf: Conf, clusterConf: Conf, checkpointingEnabled: boolean): RestartStrategyConfig {
  return strategyOf(jobConf) ?? strategyOf(clusterConf) ?? (checkpointingEnabled ? { type: 'exponential-delay', ...EXPONENTIAL_DELAY_DEFAULTS } : { type: 'none' });
}

/** What to do after a failure. */
export type RestartDecision =
  | { restart: true; delayMs: number; /** restarts so far, this one included (the `numRestarts` metric) */ numRestarts: number }
  | { restart: false; numRestarts: number; /** Flink's JobException message */ message: string };

/** `RestartBackoffTimeStrategy.toString()`, as Flink prints it in "Recovery is suppressed by …". */
export function describeStrategy(config: RestartStrategyConfig, state?: { currentBackoffMs: number; lastFailureTimestamp: number }): string {
  switch (config.type) {
    case 'none':
      return 'NoRestartBackoffTimeStrategy';
    case 'fixed-delay':
      return `FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=${config.attempts}, backoffTimeMS=${config.delayMs})`;
    case 'exponential-delay':
      return (
        `ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=${config.initialBackoffMs}, maxBackoffMS=${config.maxBackoffMs}, ` +
        `backoffMultiplier=${config.backoffMultiplier}, resetBackoffThresholdMS=${config.resetBackoffThresholdMs}, jitterFactor=${config.jitterFactor}, ` +
        `currentBackoffMS=${state?.currentBackoffMs ?? config.initialBackoffMs}, lastFailureTimestamp=${state?.lastFailureTimestamp ?? 0})`
      );
  }
}

/**
 * One job's restart strategy state (`RestartBackoffTimeStrategy`): call `onFailure` for every failure that would
 * fail the job (a task failure, a lost TaskManager); a non-recoverable failure never restarts.
 */
export class RestartBackoff {
  private failures = 0;
  private restarts = 0;
  private currentBackoffMs: number;
  private lastFailureTimestamp = 0;
  private attemptsSinceReset = 0;

  constructor(
    readonly config: RestartStrategyConfig,
    /** Uniform [0, 1) for the exponential strategy's jitter. @default Math.random */
    private readonly random: () => number = Math.random,
  ) {
    this.currentBackoffMs = config.type === 'exponential-delay' ? config.initialBackoffMs : 0;
  }

  get numRestarts(): number {
    return this.restarts;
  }

  onFailure(now: number, options: { recoverable?: boolean } = {}): RestartDecision {
    this.failures++;
    const c = this.config;
    let canRestart: boolean;
    let delayMs = 0;
    if (c.type === 'none') canRestart = false;
    else if (c.type === 'fixed-delay') {
      canRestart = this.failures <= c.attempts;
      delayMs = c.delayMs;
    } else {
      if (now - this.lastFailureTimestamp >= c.resetBackoffThresholdMs + this.currentBackoffMs) {
        this.currentBackoffMs = c.initialBackoffMs;
        this.attemptsSinceReset = 0;
      } else if (this.currentBackoffMs < c.maxBackoffMs) {
        this.currentBackoffMs = Math.max(c.initialBackoffMs, Math.min(Math.trunc(this.currentBackoffMs * c.backoffMultiplier), c.maxBackoffMs));
      }
      this.attemptsSinceReset++;
      this.lastFailureTimestamp = now;
      canRestart = this.attemptsSinceReset <= c.attemptsBeforeResetBackoff;
      const offset = Math.trunc(this.currentBackoffMs * c.jitterFactor);
      const jitter = offset === 0 ? 0 : Math.floor(this.random() * (2 * offset + 1)) - offset;
      delayMs = Math.min(this.currentBackoffMs + jitter, c.maxBackoffMs);
    }
    if (options.recoverable === false || !canRestart) {
      const by = options.recoverable === false ? 'the failure being unrecoverable (SuppressRestartsException)' : describeStrategy(c, this.stateForDescription());
      return { restart: false, numRestarts: this.restarts, message: `Recovery is suppressed by ${by}` };
    }
    this.restarts++;
    return { restart: true, delayMs, numRestarts: this.restarts };
  }

  private stateForDescription(): { currentBackoffMs: number; lastFailureTimestamp: number } {
    return { currentBackoffMs: this.currentBackoffMs, lastFailureTimestamp: this.lastFailureTimestamp };
  }
}
