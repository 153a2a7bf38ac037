import { describe, expect, it } from 'vitest';
import { timelineBars } from './timelineBars';

describe('timelineBars', () => {
  it('places each phase on the axis from the first state change to now', () => {
    const [row] = timelineBars({
      from: 1000,
      to: 2000,
      lastRunning: { index: 0, at: 1500 },
      subtasks: [{ index: 0, endpoint: null, phases: [{ state: 'DEPLOYING', start: 1000, end: 1250 }, { state: 'RUNNING', start: 1500, end: null }] }],
    });
    expect(row.bars).toEqual([
      { state: 'DEPLOYING', leftPercent: 0, widthPercent: 25, durationMs: 250 },
      { state: 'RUNNING', leftPercent: 50, widthPercent: 50, durationMs: 500 },
    ]);
  });

  it('keeps a phase of no time visible, and within the axis', () => {
    const [row] = timelineBars({ from: 0, to: 1000, lastRunning: null, subtasks: [{ index: 0, endpoint: null, phases: [{ state: 'CANCELED', start: 1000, end: 1000 }] }] });
    expect(row.bars[0].widthPercent).toBe(0);
    expect(row.bars[0].leftPercent).toBe(100);
    const [early] = timelineBars({ from: 0, to: 1000, lastRunning: null, subtasks: [{ index: 0, endpoint: null, phases: [{ state: 'SCHEDULED', start: 0, end: 0 }] }] });
    expect(early.bars[0].widthPercent).toBe(0.3);
  });
});
