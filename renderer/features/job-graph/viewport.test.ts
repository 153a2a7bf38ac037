import { describe, expect, it } from 'vitest';
import { initialViewShowsWhole, sameViewport, showsBox, viewAfterResize, MAX_ZOOM, READABLE_ZOOM, START_ZOOM, fitView, initialView } from './viewport';

describe('initialView', () => {
  it('centres a small, flat graph as large as it fits', () => {
    const view = initialView({ width: 1100, height: 600 }, { width: 900, height: 180 });
    expect(view.kind).toBe('viewport');
    if (view.kind !== 'viewport') return;
    expect(view.viewport.zoom).toBeCloseTo(1020 / 900);
    expect(view.viewport.x).toBeCloseTo(40);
    expect(view.viewport.y + (180 * view.viewport.zoom) / 2).toBeCloseTo(300);
  });

  it('never zooms a tiny graph beyond MAX_ZOOM', () => {
    const view = initialView({ width: 1100, height: 600 }, { width: 300, height: 180 });
    expect(view.kind === 'viewport' && view.viewport.zoom).toBe(MAX_ZOOM);
  });

  it('uses the padded fit when a vertex would sit under the MiniMap', () => {
    expect(initialView({ width: 1000, height: 600 }, { width: 1000, height: 600 })).toEqual({ kind: 'padded-fit' });
  });

  it('opens a large graph at its sources at a readable zoom', () => {
    const view = initialView({ width: 1100, height: 600 }, { width: 9000, height: 6000 });
    expect(view).toEqual({ kind: 'viewport', viewport: { x: 8, y: 8, zoom: START_ZOOM } });
    expect(START_ZOOM).toBeGreaterThan(READABLE_ZOOM);
  });

  it('centres a long but flat large graph vertically', () => {
    const view = initialView({ width: 1100, height: 600 }, { width: 9000, height: 200 });
    expect(view.kind === 'viewport' && view.viewport.y).toBeCloseTo((600 - 200 * START_ZOOM) / 2);
  });

  it('falls back to the padded fit before the canvas has a size', () => {
    expect(initialView({ width: 0, height: 0 }, { width: 100, height: 100 })).toEqual({ kind: 'padded-fit' });
  });
});

describe('fitView', () => {
  it('shows a large graph whole (padded around the overlays)', () => {
    expect(fitView({ width: 1100, height: 600 }, { width: 9000, height: 6000 })).toEqual({ kind: 'padded-fit' });
  });

  it('shows a long flat graph whole, centred', () => {
    const view = fitView({ width: 1100, height: 600 }, { width: 5000, height: 150 });
    expect(view.kind === 'viewport' && view.viewport.zoom).toBeCloseTo(1020 / 5000);
  });
});

describe('sameViewport', () => {
  it('is the view the canvas set, up to rounding; any pan or zoom is a different one', () => {
    const set = { x: 120.25, y: 40, zoom: 1.1 };
    expect(sameViewport({ x: 120.5, y: 39.8, zoom: 1.1004 }, set)).toBe(true);
    expect(sameViewport({ x: 140, y: 40, zoom: 1.1 }, set)).toBe(false);
    expect(sameViewport({ x: 120.25, y: 40, zoom: 1.2 }, set)).toBe(false);
  });
});

describe('after a resize', () => {
  const graph = { width: 1224, height: 160 };

  it('a graph that was shown whole is fitted whole again, even below the readable zoom', () => {
    expect(initialViewShowsWhole({ width: 1290, height: 600 }, graph)).toBe(true);
    expect(viewAfterResize(true)).toBe(fitView);
    const narrow = { width: 690, height: 500 };
    expect(initialViewShowsWhole(narrow, graph)).toBe(false);
    const view = viewAfterResize(true)(narrow, graph);
    expect(view.kind === 'padded-fit' || view.viewport.x + graph.width * view.viewport.zoom <= narrow.width).toBe(true);
  });

  it('a large graph opened at its sources gets the initial choice for the new size', () => {
    expect(initialViewShowsWhole({ width: 690, height: 500 }, { width: 9000, height: 3000 })).toBe(false);
    expect(viewAfterResize(false)).toBe(initialView);
  });
});

describe('showsBox', () => {
  const canvas = { width: 1000, height: 600 };
  const vertex = { x: 400, y: 100, width: 220, height: 120 };

  it('is true when the whole box is on the canvas', () => {
    expect(showsBox({ x: 0, y: 0, zoom: 1 }, canvas, vertex)).toBe(true);
    expect(showsBox({ x: -100, y: 50, zoom: 0.5 }, canvas, vertex)).toBe(true);
  });

  it('is false when any edge of the box is off the canvas', () => {
    expect(showsBox({ x: -500, y: 0, zoom: 1 }, canvas, vertex), 'cut off at the left').toBe(false);
    expect(showsBox({ x: 400, y: 0, zoom: 1 }, canvas, vertex), 'cut off at the right').toBe(false);
    expect(showsBox({ x: 0, y: 0, zoom: 4 }, canvas, vertex), 'zoomed past it').toBe(false);
    expect(showsBox({ x: 0, y: 500, zoom: 1 }, canvas, vertex), 'below').toBe(false);
  });
});
