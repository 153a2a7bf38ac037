/**
 * Time for the local engine. Everything reads time through a `Clock` handed in at construction, so production runs
 * on a virtual clock that real time drives, and tests run on the same virtual clock driven by the test: no sleeps.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `System.currentTimeMillis()`. */
  now(): number;
}

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  private current: number;

  constructor(startMs: number) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  /** Moves time forward to `timeMs`; never backwards. */
  advanceTo(timeMs: number): void {
    if (timeMs > this.current) this.current = timeMs;
  }

  advanceBy(ms: number): void {
    this.current += Math.max(0, ms);
  }
}

/** The wall clock, for the driver that keeps the virtual clock near real time. */
export const systemClock: Clock = { now: () => Date.now() };
