import { describe, expect, it } from 'vitest';
import { BUSY_RGB, IDLE_RGB, NO_METRICS_COLOR, busyRgb, contrastWithWhite, paintVertex, timeShare, vertexFill } from './colors';

describe('timeShare', () => {
  it('turns ms/s into a clamped 0..1 share', () => {
    expect(timeShare(0)).toBe(0);
    expect(timeShare(250)).toBe(0.25);
    expect(timeShare(1000)).toBe(1);
    expect(timeShare(1500)).toBe(1);
    expect(timeShare(-3)).toBe(0);
  });

  it('keeps the absence of a metric apart from zero', () => {
    expect(timeShare(null)).toBeNull();
    expect(timeShare(undefined)).toBeNull();
    expect(timeShare(Number.NaN)).toBeNull();
  });
});

describe('busyRgb', () => {
  it('runs from idle blue to busy red', () => {
    expect(busyRgb(0)).toEqual(IDLE_RGB);
    expect(busyRgb(1)).toEqual(BUSY_RGB);
    expect(busyRgb(2)).toEqual(BUSY_RGB);
  });

  it('interpolates monotonically: redder and less blue as the vertex gets busier', () => {
    let previous = busyRgb(0);
    for (let i = 1; i <= 20; i += 1) {
      const next = busyRgb(i / 20);
      expect(next[0]).toBeGreaterThanOrEqual(previous[0]);
      expect(next[2]).toBeLessThanOrEqual(previous[2]);
      previous = next;
    }
  });

  it('keeps white labels readable along the whole scale', () => {
    for (let i = 0; i <= 20; i += 1) {
      expect(contrastWithWhite(busyRgb(i / 20))).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('vertexFill and paintVertex', () => {
  it('uses the busiest subtask and grey without metrics', () => {
    expect(vertexFill(null)).toBe(NO_METRICS_COLOR);
    expect(vertexFill(0)).toBe('rgb(33, 102, 172)');
    expect(vertexFill(1000)).toBe('rgb(196, 30, 36)');
  });

  it('hatches the back-pressured share of the node', () => {
    const paint = paintVertex({
      busyTimeMsPerSecond: { min: 0, max: 100, avg: 50, sum: 100 },
      backPressuredTimeMsPerSecond: { min: 0, max: 600, avg: 300, sum: 600 },
    });
    expect(paint.hatch).toBe(0.6);
    expect(paint.busyShare).toBe(0.1);
    expect(paint.backPressuredShare).toBe(0.6);
  });

  it('draws no hatch without a back-pressure metric', () => {
    const paint = paintVertex({ busyTimeMsPerSecond: null, backPressuredTimeMsPerSecond: null });
    expect(paint).toEqual({ fill: NO_METRICS_COLOR, hatch: 0, busyShare: null, backPressuredShare: null });
  });
});
