/**
 * A blocking rate limiter with Guava's `SmoothBursty` semantics (`RateLimiter.create(permitsPerSecond)`, which Flink
 * jobs commonly use to cap a subtask): unused time banks up to `maxBurstSeconds` worth of permits, and `acquire`
 * returns how long the caller must wait. A subtask blocked in `acquire` inside `processElement` counts as BUSY in
 * Flink's time accounting, which is what the capacity model relies on.
 */
export class SmoothBurstyRateLimiter {
  private readonly intervalMs: number;
  private readonly maxPermits: number;
  private storedPermits = 0;
  private nextFreeTicketMs: number;

  constructor(readonly permitsPerSecond: number, startMs: number, readonly maxBurstSeconds = 1) {
    if (!(permitsPerSecond > 0)) throw new RangeError(`permitsPerSecond must be positive, got ${permitsPerSecond}.`);
    this.intervalMs = 1000 / permitsPerSecond;
    this.maxPermits = maxBurstSeconds * permitsPerSecond;
    this.nextFreeTicketMs = startMs;
  }

  /** Reserves one permit at time `nowMs`; returns the wait in ms before the permit may be used (0 if none). */
  acquire(nowMs: number): number {
    if (nowMs > this.nextFreeTicketMs) {
      this.storedPermits = Math.min(this.maxPermits, this.storedPermits + (nowMs - this.nextFreeTicketMs) / this.intervalMs);
      this.nextFreeTicketMs = nowMs;
    }
    const wait = this.nextFreeTicketMs - nowMs;
    const fromStored = Math.min(1, this.storedPermits);
    this.storedPermits -= fromStored;
    this.nextFreeTicketMs += (1 - fromStored) * this.intervalMs;
    return wait;
  }
}
