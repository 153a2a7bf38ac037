import { describe, expect, it } from 'vitest';
import { watermarkLag } from './watermark-lag.ts';

const NOW = 1_000_000;

describe('watermarkLag', () => {
  it('names the subtask with the lowest watermark and its lag to the JobManager clock', () => {
    const view = watermarkLag(
      [
        { index: 1, watermark: NOW - 7_000 },
        { index: 0, watermark: NOW - 23_000 },
        { index: 2, watermark: NOW - 1_000 },
      ],
      NOW,
    );
    expect(view.low).toEqual({ index: 0, watermark: NOW - 23_000, lagMs: 23_000 });
    expect(view.subtasks.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(view.subtasks.map((s) => s.lagMs)).toEqual([23_000, 7_000, 1_000]);
    expect(view.spreadMs).toBe(22_000);
    expect(view.withoutWatermark).toEqual([]);
  });

  it('lists the subtasks without a watermark and picks the low one among the others', () => {
    const view = watermarkLag([{ index: 0, watermark: null }, { index: 1, watermark: NOW - 5 }], NOW);
    expect(view.withoutWatermark).toEqual([0]);
    expect(view.low?.index).toBe(1);
    expect(view.spreadMs).toBeNull();
  });

  it('has no low subtask when none has a watermark', () => {
    const view = watermarkLag([{ index: 0, watermark: null }], NOW);
    expect(view.low).toBeNull();
    expect(view.subtasks[0].lagMs).toBeNull();
  });

  it('breaks a tie by the lowest index', () => {
    expect(watermarkLag([{ index: 3, watermark: 10 }, { index: 1, watermark: 10 }], NOW).low?.index).toBe(1);
  });

  it('gives a negative lag for a watermark ahead of the clock (event time in the future), as it is', () => {
    expect(watermarkLag([{ index: 0, watermark: NOW + 500 }], NOW).low?.lagMs).toBe(-500);
  });
});
