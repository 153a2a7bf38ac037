/**
 * Where the job graph opens. Pure, so the choice is tested rather than eyeballed:
 * - small graphs: centred, as large as fits (up to MAX_ZOOM), unless that would put a vertex under
 *   the MiniMap or the zoom controls, in which case a padded fit is used;
 * - large graphs (fit zoom below READABLE_ZOOM): the sources at START_ZOOM, so names can be read at once;
 *   the fit-view control still shows everything.
 */
export interface Size {
  width: number;
  height: number;
}

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export type InitialView = { kind: 'viewport'; viewport: Viewport } | { kind: 'padded-fit' };

export const READABLE_ZOOM = 0.5;
export const START_ZOOM = 0.8;
export const MAX_ZOOM = 1.25;
const MARGIN = 40;
/** Screen boxes of the overlays, from the bottom-right and bottom-left corners (MiniMap 180×120 + offsets). */
const MINIMAP = { width: 200, height: 140 };
const CONTROLS = { width: 60, height: 120 };

function hasSize(canvas: Size, graph: Size): boolean {
  return canvas.width > 0 && canvas.height > 0 && graph.width > 0 && graph.height > 0;
}

function fitZoomOf(canvas: Size, graph: Size): number {
  return Math.min((canvas.width - 2 * MARGIN) / graph.width, (canvas.height - 2 * MARGIN) / graph.height, MAX_ZOOM);
}

export function initialView(canvas: Size, graph: Size): InitialView {
  if (!hasSize(canvas, graph)) return { kind: 'padded-fit' };
  if (fitZoomOf(canvas, graph) < READABLE_ZOOM) {
    const graphHeight = graph.height * START_ZOOM;
    const y = graphHeight < canvas.height ? (canvas.height - graphHeight) / 2 : 8;
    return { kind: 'viewport', viewport: { x: 8, y, zoom: START_ZOOM } };
  }
  return fitView(canvas, graph);
}

/** Whether `initialView` shows the whole graph (a fit), rather than its sources at a readable zoom. */
export function initialViewShowsWhole(canvas: Size, graph: Size): boolean {
  return !hasSize(canvas, graph) || fitZoomOf(canvas, graph) >= READABLE_ZOOM;
}

/**
 * After a resize: a view that showed the whole graph shows it whole again, fitted to the new size (a narrower window
 * must not clip the hot vertex); a large graph opened at its sources gets the initial choice for the new size.
 */
export function viewAfterResize(showedWhole: boolean): typeof initialView {
  return showedWhole ? fitView : initialView;
}

/** The whole graph (the fit-view control): centred and as large as fits, or padded around the overlays. */
export function fitView(canvas: Size, graph: Size): InitialView {
  if (!hasSize(canvas, graph)) return { kind: 'padded-fit' };
  const fitZoom = fitZoomOf(canvas, graph);
  const x0 = (canvas.width - graph.width * fitZoom) / 2;
  const y0 = (canvas.height - graph.height * fitZoom) / 2;
  const x1 = x0 + graph.width * fitZoom;
  const y1 = y0 + graph.height * fitZoom;
  const underMiniMap = x1 > canvas.width - MINIMAP.width && y1 > canvas.height - MINIMAP.height;
  const underControls = x0 < CONTROLS.width && y1 > canvas.height - CONTROLS.height;
  if (underMiniMap || underControls) return { kind: 'padded-fit' };
  return { kind: 'viewport', viewport: { x: x0, y: y0, zoom: fitZoom } };
}

/** Equal up to rounding: the same view the canvas set, not one the user has moved. */
export function sameViewport(a: Viewport, b: Viewport): boolean {
  return Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && Math.abs(a.zoom - b.zoom) < 0.001;
}

/** Whether a box of the graph (graph coordinates) is wholly on a canvas of this size under this viewport. */
export function showsBox(viewport: Viewport, canvas: Size, box: { x: number; y: number; width: number; height: number }): boolean {
  const left = box.x * viewport.zoom + viewport.x;
  const top = box.y * viewport.zoom + viewport.y;
  return left >= 0 && top >= 0 && left + box.width * viewport.zoom <= canvas.width && top + box.height * viewport.zoom <= canvas.height;
}
