import { describe, expect, it } from 'vitest';
import type { SubtaskRow } from '../../../engine/contracts/jobs';
import { nextTableRows, sameDayNow } from './subtaskRows';
import type { SubtaskRates } from './subtaskRates';

const row = (index: number, busy: number): SubtaskRow => ({
  index,
  attempt: 0,
  status: 'RUNNING',
  endpoint: 'tm:1',
  taskManagerId: 'tm',
  recordsIn: 100,
  recordsOut: 90,
  bytesIn: 1000,
  bytesOut: 900,
  clockMs: null,
  busyTimeMsPerSecond: busy,
  backPressuredTimeMsPerSecond: 0,
  idleTimeMsPerSecond: 1000 - busy,
  backpressureLevel: 'ok',
  watermark: 1,
});
const rate = (n: number): SubtaskRates => ({ recordsInPerSecond: n, recordsOutPerSecond: n, bytesInPerSecond: n, bytesOutPerSecond: n });

describe('nextTableRows', () => {
  const first = nextTableRows([], [row(0, 100), row(1, 200), row(2, 300)], new Map([[0, rate(5)], [1, rate(5)], [2, rate(5)]]));

  it('keeps the object of every row whose figures and rates did not change, so its memoized row is not re-rendered', () => {
    // A new response: new objects with the same values for 0 and 2; subtask 1 got busier; subtask 2's rate moved.
    const second = nextTableRows(first, [row(0, 100), row(1, 250), row(2, 300)], new Map([[0, rate(5)], [1, rate(5)], [2, rate(6)]]));
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1].busyTimeMsPerSecond).toBe(250);
    expect(second[2]).not.toBe(first[2]);
    expect(second[2].rates).toEqual(rate(6));
  });

  it('tells a row without rates from one with them, and follows the response order', () => {
    const noRates = nextTableRows(first, [row(2, 300), row(0, 100)], new Map());
    expect(noRates.map((r) => r.index)).toEqual([2, 0]);
    expect(noRates[1]).not.toBe(first[0]);
    expect(noRates[1].rates).toBeNull();
  });
});

describe('sameDayNow', () => {
  it('changes only when the day changes', () => {
    const morning = new Date(2026, 10, 30, 8, 0, 0).getTime();
    expect(sameDayNow(null, morning)).toBe(morning);
    expect(sameDayNow(morning, morning + 3600_000)).toBe(morning);
    const tomorrow = new Date(2026, 11, 1, 0, 0, 1).getTime();
    expect(sameDayNow(morning, tomorrow)).toBe(tomorrow);
  });
});
