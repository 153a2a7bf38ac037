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

export type RestartStrategyConfig =
  | { type: 'none' }
  | { type: 'fixed-delay'; attempts: number; delayMs: number }
  | {
      type: 'exponential-delay';
      initialBackoffMs: number;
      maxBackoffMs: number;
      backoffMultiplier: number;
      resetBackoffThresholdMs: number;
      jitterFactor: number;
      attemptsBeforeResetBackoff: number;
    };

/** Java's Integer.MAX_VALUE, Flink's "unlimited" attempts. */
export const INTEGER_MAX_VALUE = 2_147_483_647;

export const FIXED_DELAY_DEFAULTS = { attempts: 1, delayMs: 1000 } as const;
export const EXPONENTIAL_DELAY_DEFAULTS = {
  initialBackoffMs: 1000,
  maxBackoffMs: 60_000,
  backoffMultiplier: 1.5,
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

function durationOf(conf: Conf, key: string, fallback: number): number {
  const raw = conf[key];
  if (raw === undefined) return fallback;
  const ms = parseFlinkDuration(raw);
  if (ms === null || ms < 0) throw new RestartStrategyConfigError(`${key}: "${raw}" is not a duration; write e.g. "10 s", "1 min" or milliseconds.`);
  return ms;
}

function numberOf(conf: Conf, key: string, fallback: number, check: (n: number) => boolean, rule: string): number {
  const raw = conf[key];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !check(n)) throw new RestartStrategyConfigError(`${key}: "${raw}" ${rule}.`);
  return n;
}

/** The strategy one configuration sets, or undefined when it sets none. */
function strategyOf(conf: Conf): RestartStrategyConfig | undefined {
  const key = conf['restart-strategy.type'] !== undefined ? 'restart-strategy.type' : 'restart-strategy';
  const raw = conf[key];
  if (raw === undefined) return undefined;
  switch (raw.trim().toLowerCase()) {
    case 'none':
    case 'off':
    case 'disable':
      return { type: 'none' };
    case 'fixed-delay':
    case 'fixeddelay':
      return {
        type: 'fixed-delay',
        attempts: numberOf(conf, 'restart-strategy.fixed-delay.attempts', FIXED_DELAY_DEFAULTS.attempts, (n) => Number.isInteger(n) && n >= 0 && n <= INTEGER_MAX_VALUE, 'must be a whole number >= 0'),
        delayMs: durationOf(conf, 'restart-strategy.fixed-delay.delay', FIXED_DELAY_DEFAULTS.delayMs),
      };
    case 'exponential-delay':
    case 'exponentialdelay': {
      const d = EXPONENTIAL_DELAY_DEFAULTS;
      const p = 'restart-strategy.exponential-delay.';
      const config: RestartStrategyConfig = {
        type: 'exponential-delay',
        initialBackoffMs: durationOf(conf, `${p}initial-backoff`, d.initialBackoffMs),
        maxBackoffMs: durationOf(conf, `${p}max-backoff`, d.maxBackoffMs),
        backoffMultiplier: numberOf(conf, `${p}backoff-multiplier`, d.backoffMultiplier, (n) => n > 1, 'must be a number greater than 1'),
        resetBackoffThresholdMs: durationOf(conf, `${p}reset-backoff-threshold`, d.resetBackoffThresholdMs),
        jitterFactor: numberOf(conf, `${p}jitter-factor`, d.jitterFactor, (n) => n >= 0 && n <= 1, 'must be within [0, 1]'),
        attemptsBeforeResetBackoff: numberOf(conf, `${p}attempts-before-reset-backoff`, d.attemptsBeforeResetBackoff, (n) => Number.isInteger(n) && n >= 1, 'must be a whole number >= 1'),
      };
      if (config.initialBackoffMs < 1 || config.initialBackoffMs > config.maxBackoffMs) {
        throw new RestartStrategyConfigError(`${p}initial-backoff must be at least 1 ms and at most ${p}max-backoff.`);
      }
      return config;
    }
    case 'failure-rate':
    case 'failurerate':
      throw new RestartStrategyConfigError(
        `${key}: "${raw}" (failure-rate) is not supported by the local engine; use none, fixed-delay or exponential-delay.`,
      );
    default:
      throw new RestartStrategyConfigError(`Unknown restart strategy ${raw}. ${key} accepts none, fixed-delay or exponential-delay (and failure-rate on a real Flink).`);
  }
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
