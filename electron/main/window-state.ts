import { z } from 'zod';

/**
 * Where the main window opens: where it was last time, kept on a screen that still exists.
 * Pure (no Electron import): main passes the displays' work areas in and applies the result.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** The normal (not maximised, not full-screen) bounds, in screen coordinates (DIP). */
  bounds: Rect;
  maximized: boolean;
  fullScreen: boolean;
}

export const DEFAULT_WINDOW_SIZE = { width: 1400, height: 900 } as const;
export const MIN_WINDOW_SIZE = { width: 960, height: 600 } as const;

/** Key in config.json. */
export const WINDOW_STATE_KEY = 'windowState';

const coordinate = z.number().int().min(-100_000).max(100_000);
const length = z.number().int().min(1).max(100_000);
const StoredState = z.object({
  bounds: z.object({ x: coordinate, y: coordinate, width: length, height: length }),
  maximized: z.boolean().default(false),
  fullScreen: z.boolean().default(false),
});

/** The saved state, or null when there is none or the file holds something else (hand-edited, older app). */
export function parseWindowState(raw: unknown): WindowState | null {
  const result = StoredState.safeParse(raw);
  return result.success ? result.data : null;
}

/**
 * The state to open with. The window goes to the display it overlapped most, shrunk to fit that display's
 * work area and moved fully inside it; when it overlaps none (its monitor is gone) it opens centred on the
 * primary display. Maximised and full-screen are kept.
 */
export function restoreWindowState(saved: WindowState | null, workAreas: readonly Rect[], primary: Rect): WindowState {
  if (!saved) return { bounds: centred(DEFAULT_WINDOW_SIZE, primary), maximized: false, fullScreen: false };
  let best: Rect | null = null;
  let bestOverlap = 0;
  for (const area of workAreas) {
    const overlap = intersectionArea(saved.bounds, area);
    if (overlap > bestOverlap) {
      best = area;
      bestOverlap = overlap;
    }
  }
  const bounds = best ? fitInside(saved.bounds, best) : centred(saved.bounds, primary);
  return { bounds, maximized: saved.maximized, fullScreen: saved.fullScreen };
}

function size(wanted: { width: number; height: number }, area: Rect): { width: number; height: number } {
  // Never larger than the screen; never smaller than the app's minimum unless the screen itself is.
  const width = Math.min(Math.max(wanted.width, Math.min(MIN_WINDOW_SIZE.width, area.width)), area.width);
  const height = Math.min(Math.max(wanted.height, Math.min(MIN_WINDOW_SIZE.height, area.height)), area.height);
  return { width, height };
}

function centred(wanted: { width: number; height: number }, area: Rect): Rect {
  const { width, height } = size(wanted, area);
  return {
    x: area.x + Math.round((area.width - width) / 2),
    y: area.y + Math.round((area.height - height) / 2),
    width,
    height,
  };
}

function fitInside(bounds: Rect, area: Rect): Rect {
  const { width, height } = size(bounds, area);
  const x = Math.min(Math.max(bounds.x, area.x), area.x + area.width - width);
  const y = Math.min(Math.max(bounds.y, area.y), area.y + area.height - height);
  return { x, y, width, height };
}

function intersectionArea(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}
