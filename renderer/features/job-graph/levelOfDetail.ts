/**
 * What a vertex shows at a zoom: the level of detail. Zoomed out over a big job, a vertex is its colour (busy, with the
 * back-pressure hatch) and its name; its figures appear as the user zooms in. Fewer elements to draw also keeps
 * panning smooth over 200 vertices. Pure, so the rules are tested rather than eyeballed.
 */
export type DetailLevel = 'colour' | 'name' | 'figures';

/** Below this, a 26 px name is under 5 px on screen: only the colour reads (and the marked vertices' callouts). */
export const NAME_ZOOM = 0.2;
/** From this zoom on, a vertex shows its figures (parallelism, records, busy, back-pressure, skew). */
export const FIGURES_ZOOM = 0.55;
/** Ship-strategy labels on the edges from this zoom on (11 px caps are unreadable below). */
export const EDGE_LABELS_ZOOM = 0.4;

export function detailLevel(zoom: number): DetailLevel {
  if (zoom >= FIGURES_ZOOM) return 'figures';
  if (zoom >= NAME_ZOOM) return 'name';
  return 'colour';
}

export function showsEdgeLabels(zoom: number): boolean {
  return zoom >= EDGE_LABELS_ZOOM;
}

/**
 * Whether a marked vertex (the hottest, or the one the diagnosis names) gets a callout of constant size above it:
 * only while its own figures are not shown, so the eye finds it on a zoomed-out graph.
 */
export function showsCallout(level: DetailLevel): boolean {
  return level !== 'figures';
}

/** The zoom "zoom to" a vertex uses: its figures readable, whatever the zoom before. */
export const FOCUS_ZOOM = 0.9;
