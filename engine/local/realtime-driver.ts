import type { LocalEngine } from './engine.ts';

export interface RealTimeDriverOptions {
  /** Wall-clock ms between ticks. @default 20 */
  tickMs?: number;
  /** Most virtual time one tick runs; a slower host falls behind and catches up. @default 250 */
  maxStepMs?: number;
  /** Beyond this lag, the engine jumps ahead instead of catching up (sources then read their backlog). @default 10000 */
  maxLagMs?: number;
  now?: () => number;
}

/**
 * Keeps the engine's virtual clock near the wall clock: every tick it runs the engine up to "now". Work happens in
 * short slices between ticks, so REST requests are served while the job runs.
 */
export class RealTimeDriver {
  private timer: NodeJS.Timeout | undefined;
  /** Virtual time skipped because the host could not keep up. */
  skippedMs = 0;

  constructor(private readonly engine: LocalEngine, private readonly options: RealTimeDriverOptions = {}) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.options.tickMs ?? 20);
  }

  tick(): void {
    const now = (this.options.now ?? Date.now)();
    let lag = now - this.engine.now();
    const maxLag = this.options.maxLagMs ?? 10_000;
    if (lag > maxLag) {
      const skip = lag - maxLag;
      this.engine.cluster.clock.advanceBy(skip);
      this.skippedMs += skip;
      lag = maxLag;
    }
    if (lag > 0) this.engine.advance(Math.min(lag, this.options.maxStepMs ?? 250));
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
