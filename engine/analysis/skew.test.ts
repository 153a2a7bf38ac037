import { describe, expect, it } from 'vitest';
import { busySkewIsAlarm, maxOverAvg } from './skew.ts';

describe('maxOverAvg', () => {
  it('is 1 for an even vertex and P when one of P subtasks does all the work', () => {
    expect(maxOverAvg({ min: 500, max: 500, avg: 500, sum: 2000 })).toBe(1);
    expect(maxOverAvg({ min: 0, max: 1000, avg: 1000 / 32, sum: 1000 })).toBe(32);
  });

  it('reads the hot-tenant seed scenario: one saturated subtask of 32, the rest lightly busy', () => {
    const avg = (1000 + 31 * 12.1) / 32;
    expect(maxOverAvg({ min: 12.1, max: 1000, avg, sum: avg * 32 })).toBeCloseTo(23.3, 1);
  });

  it('has no answer without metrics or when nothing is busy', () => {
    expect(maxOverAvg(null)).toBeNull();
    expect(maxOverAvg({ min: 0, max: 0, avg: 0, sum: 0 })).toBeNull();
  });
});

describe('busySkewIsAlarm', () => {
  it('alarms on a saturated hot subtask, not on few keys over lightly loaded subtasks (hot-tenant before the shift)', () => {
    expect(busySkewIsAlarm({ min: 10, max: 1000, avg: 43, sum: 1376 })).toBe(true);
    expect(busySkewIsAlarm({ min: 0, max: 118, avg: 31, sum: 992 })).toBe(false);
    expect(busySkewIsAlarm({ min: 900, max: 1000, avg: 950, sum: 3800 })).toBe(false);
    expect(busySkewIsAlarm(null)).toBe(false);
  });
});
