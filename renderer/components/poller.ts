import type { ErrorInfo } from '../../engine/contracts/errors';
import { toErrorInfo } from './errors';

/**
 * Polls one fetcher: no overlapping calls (a tick that finds the previous call still running is
 * skipped), nothing while the document is hidden, nothing after `stop()`. Time and visibility are
 * injected so the behaviour is testable without sleeping.
 */
export interface PollerEnv {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  isHidden(): boolean;
  /** Subscribes to visibility changes; returns the unsubscribe function. */
  onVisibilityChange(callback: () => void): () => void;
}

export interface PollState<T> {
  data: T | null;
  error: ErrorInfo | null;
  /** Epoch ms of the last successful fetch. */
  updatedAt: number | null;
  /** True while a call is in flight. */
  loading: boolean;
  /** The last refresh failed and `data` is from an earlier one. */
  stale: boolean;
  /** The poller stopped on its own (see `stopWhen`). */
  halted: boolean;
  /** How long the last successful fetch took, in ms: a refresh's cost, shown beside big jobs' figures. */
  durationMs: number | null;
}

export interface PollerOptions {
  /** Between ticks; null = fetch once and wait (e.g. the minimum interval is not known yet). */
  intervalMs: number | null;
  paused: boolean;
  /** An error after which polling stops for good, e.g. a 404 for a job that is gone. */
  stopWhen?: (error: ErrorInfo) => boolean;
}

export function initialPollState<T>(): PollState<T> {
  return { data: null, error: null, updatedAt: null, loading: false, stale: false, halted: false, durationMs: null };
}

export class Poller<T> {
  private state: PollState<T> = initialPollState<T>();
  private timer: unknown = null;
  private inFlight = false;
  private running = false;
  private unsubscribeVisibility: (() => void) | null = null;
  private lastStartedAt: number | null = null;
  /** Incremented by stop(): answers of calls started before belong to nobody. */
  private generation = 0;

  constructor(
    private readonly fetcher: () => Promise<T>,
    private options: PollerOptions,
    private readonly env: PollerEnv,
    private readonly onChange: (state: PollState<T>) => void,
  ) {}

  get current(): PollState<T> {
    return this.state;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribeVisibility = this.env.onVisibilityChange(() => this.onVisibility());
    if (!this.env.isHidden()) void this.tick();
  }

  stop(): void {
    this.running = false;
    this.generation += 1;
    this.inFlight = false;
    this.clear();
    this.unsubscribeVisibility?.();
    this.unsubscribeVisibility = null;
  }

  update(options: PollerOptions): void {
    const changed = options.intervalMs !== this.options.intervalMs || options.paused !== this.options.paused;
    this.options = options;
    if (changed && this.running) this.reschedule();
  }

  /** A fetch now (the user asked for it), unless one is already running. */
  refresh(): void {
    if (!this.running || this.inFlight) return;
    if (this.state.halted) this.set({ halted: false });
    void this.tick();
  }

  private onVisibility(): void {
    if (!this.running) return;
    if (this.env.isHidden()) {
      this.clear();
      return;
    }
    // Back in view: fetch at once if the data is older than one interval, else wait out the rest.
    const interval = this.options.intervalMs;
    const due =
      this.lastStartedAt == null || interval == null || this.env.now() - this.lastStartedAt >= interval;
    if (due && !this.options.paused && !this.state.halted) void this.tick();
    else this.reschedule();
  }

  private reschedule(): void {
    this.clear();
    const interval = this.options.intervalMs;
    if (!this.running || this.options.paused || interval == null || this.state.halted || this.env.isHidden()) return;
    const sinceStart = this.lastStartedAt == null ? interval : this.env.now() - this.lastStartedAt;
    const wait = Math.max(0, interval - sinceStart);
    this.timer = this.env.setTimer(() => this.onTimer(), wait);
  }

  private onTimer(): void {
    this.timer = null;
    if (this.inFlight) {
      // Skip this tick: the previous call is still running. Try again one interval later.
      const interval = this.options.intervalMs;
      if (interval != null && !this.options.paused) this.timer = this.env.setTimer(() => this.onTimer(), interval);
      return;
    }
    void this.tick();
  }

  private async tick(): Promise<void> {
    if (this.inFlight || !this.running) return;
    const generation = this.generation;
    this.inFlight = true;
    const startedAt = this.env.now();
    this.lastStartedAt = startedAt;
    this.set({ loading: true });
    this.reschedule();
    try {
      const data = await this.fetcher();
      if (generation !== this.generation) return;
      const now = this.env.now();
      this.set({ data, error: null, updatedAt: now, loading: false, stale: false, durationMs: now - startedAt });
    } catch (thrown) {
      if (generation !== this.generation) return;
      const error = toErrorInfo(thrown);
      const halted = this.options.stopWhen?.(error) ?? false;
      this.set({ error, loading: false, stale: this.state.data != null, halted });
      if (halted) this.clear();
    } finally {
      if (generation === this.generation) this.inFlight = false;
    }
  }

  private clear(): void {
    if (this.timer != null) this.env.clearTimer(this.timer);
    this.timer = null;
  }

  private set(patch: Partial<PollState<T>>): void {
    this.state = { ...this.state, ...patch };
    this.onChange(this.state);
  }
}

/** The browser's clock, timers and page visibility. */
export function browserPollerEnv(): PollerEnv {
  return {
    now: () => Date.now(),
    setTimer: (callback, ms) => window.setTimeout(callback, ms),
    clearTimer: (handle) => window.clearTimeout(handle as number),
    isHidden: () => document.visibilityState === 'hidden',
    onVisibilityChange: (callback) => {
      document.addEventListener('visibilitychange', callback);
      return () => document.removeEventListener('visibilitychange', callback);
    },
  };
}
