import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZE, parseWindowState, restoreWindowState, type Rect } from './window-state.ts';

const laptop: Rect = { x: 0, y: 0, width: 1920, height: 1040 };
/** A second monitor to the right of the laptop. */
const external: Rect = { x: 1920, y: 0, width: 2560, height: 1400 };
const state = (bounds: Rect, maximized = false) => ({ bounds, maximized, fullScreen: false });

describe('restoreWindowState', () => {
  it('opens where it was when that place is still on screen', () => {
    const saved = state({ x: 2100, y: 100, width: 1600, height: 1000 }, true);
    expect(restoreWindowState(saved, [laptop, external], laptop)).toEqual(saved);
  });

  it('brings a window from an unplugged monitor back onto the primary display, centred', () => {
    const saved = state({ x: 2100, y: 100, width: 1600, height: 1000 }, true);
    expect(restoreWindowState(saved, [laptop], laptop)).toEqual({
      bounds: { x: 160, y: 20, width: 1600, height: 1000 },
      maximized: true,
      fullScreen: false,
    });
  });

  it('moves a window hanging off an edge fully onto the display it overlaps most', () => {
    const saved = state({ x: 1500, y: -300, width: 1000, height: 800 });
    expect(restoreWindowState(saved, [laptop, external], laptop).bounds).toEqual({ x: 1920, y: 0, width: 1000, height: 800 });
    const offBottom = state({ x: 100, y: 900, width: 1000, height: 800 });
    expect(restoreWindowState(offBottom, [laptop], laptop).bounds).toEqual({ x: 100, y: 240, width: 1000, height: 800 });
  });

  it('shrinks a window larger than its new display', () => {
    const small: Rect = { x: 0, y: 0, width: 1280, height: 700 };
    const saved = state({ x: 0, y: 0, width: 2400, height: 1300 });
    expect(restoreWindowState(saved, [small], small).bounds).toEqual({ x: 0, y: 0, width: 1280, height: 700 });
  });

  it('opens at the default size, centred on the primary display, the first time', () => {
    expect(restoreWindowState(null, [laptop], laptop)).toEqual({
      bounds: { x: 260, y: 70, ...DEFAULT_WINDOW_SIZE },
      maximized: false,
      fullScreen: false,
    });
  });

  it('always lands inside one of the displays, whatever was saved', () => {
    const rect = fc.record({
      x: fc.integer({ min: -10_000, max: 10_000 }),
      y: fc.integer({ min: -10_000, max: 10_000 }),
      width: fc.integer({ min: 1, max: 8_000 }),
      height: fc.integer({ min: 1, max: 8_000 }),
    });
    fc.assert(
      fc.property(rect, (bounds) => {
        const { bounds: b } = restoreWindowState(state(bounds), [laptop, external], laptop);
        const inside = [laptop, external].some(
          (a) => b.x >= a.x && b.y >= a.y && b.x + b.width <= a.x + a.width && b.y + b.height <= a.y + a.height,
        );
        expect(inside).toBe(true);
      }),
    );
  });
});

describe('parseWindowState', () => {
  it('accepts what main saved', () => {
    expect(parseWindowState({ bounds: { x: -1200, y: 10, width: 1000, height: 700 }, maximized: true, fullScreen: false })).toEqual({
      bounds: { x: -1200, y: 10, width: 1000, height: 700 },
      maximized: true,
      fullScreen: false,
    });
  });

  it('ignores a hand-edited or foreign value', () => {
    for (const raw of [undefined, null, 'big', { bounds: { x: 0, y: 0, width: 0, height: 10 } }, { bounds: { x: 0.5, y: 0, width: 10, height: 10 } }, { bounds: { x: 1e9, y: 0, width: 10, height: 10 } }]) {
      expect(parseWindowState(raw), JSON.stringify(raw)).toBeNull();
    }
  });
});
