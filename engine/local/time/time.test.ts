import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';
import { deriveSeed, mulberry32, randomUuid } from './random.ts';
import { SmoothBurstyRateLimiter } from './rate-limiter.ts';
import { VirtualScheduler } from './scheduler.ts';

describe('virtual scheduler', () => {
  it('runs due actions in time order, periodic ones at every period, never early', () => {
    const clock = new ManualClock(0);
    const scheduler = new VirtualScheduler(clock);
    const log: string[] = [];
    scheduler.scheduleAtFixedRate(100, 100, (at) => log.push(`flush@${at}`));
    scheduler.scheduleAt(150, (at) => log.push(`once@${at}`));
    const cancelled = scheduler.scheduleAt(120, () => log.push('cancelled'));
    cancelled.cancel();
    scheduler.runDue(99);
    expect(log).toEqual([]);
    scheduler.runDue(300);
    expect(log).toEqual(['flush@100', 'once@150', 'flush@200', 'flush@300']);
    expect(scheduler.nextDue()).toBe(400);
  });
});

describe('rate limiter (Guava SmoothBursty)', () => {
  it('spaces permits 1/rate apart once saturated', () => {
    const limiter = new SmoothBurstyRateLimiter(250, 0);
    let t = 0;
    let waited = 0;
    for (let i = 0; i < 1000; i++) {
      const wait = limiter.acquire(t);
      waited += wait;
      t += wait; // the caller blocks, then asks again right away
    }
    // 1,000 permits at 250/s take ~4 s.
    expect(t).toBeGreaterThan(3990);
    expect(t).toBeLessThan(4010);
    expect(waited).toBe(t);
  });

  it('banks up to one second of unused permits', () => {
    const limiter = new SmoothBurstyRateLimiter(100, 0);
    // Idle for 10 s: only 100 permits are stored, the 101st waits.
    let waits = 0;
    for (let i = 0; i < 101; i++) waits += limiter.acquire(10_000) > 0 ? 1 : 0;
    expect(waits).toBe(0);
    expect(limiter.acquire(10_000)).toBeGreaterThan(0);
  });
});

describe('seeded randomness', () => {
  it('is repeatable per seed and label, and makes UUID-shaped ids', () => {
    const a = mulberry32(deriveSeed(42, 'source-0'));
    const b = mulberry32(deriveSeed(42, 'source-0'));
    const c = mulberry32(deriveSeed(42, 'source-1'));
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    expect(randomUuid(mulberry32(1))).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
