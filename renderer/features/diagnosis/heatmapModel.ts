import type { HeatmapRow, SkewHeatmap } from '../../../engine/contracts/diagnosis';

/**
 * The heatmap's geometry and colours, pure: which rows in which order, which cell is under the pointer, the colour
 * of a value. The canvas component only draws what this computes, so it is tested without a browser.
 */

export type RowOrder = 'graph' | 'skew' | 'maxOverMean' | 'name';

export interface RowFilter {
  order: RowOrder;
  /** Substring of the vertex name, case-insensitive. */
  text: string;
  hotOnly: boolean;
  keyedOnly: boolean;
}

export const DEFAULT_FILTER: RowFilter = { order: 'graph', text: '', hotOnly: false, keyedOnly: false };

/** The rows to draw, filtered and sorted (missing figures last, ties in graph order). */
export function arrangeRows(rows: readonly HeatmapRow[], filter: RowFilter): HeatmapRow[] {
  const text = filter.text.trim().toLowerCase();
  const kept = rows
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => (!text || row.name.toLowerCase().includes(text)) && (!filter.hotOnly || row.hot.length > 0) && (!filter.keyedOnly || row.keyed));
  const value = (row: HeatmapRow): number | null => (filter.order === 'skew' ? row.dataSkewPercent : filter.order === 'maxOverMean' ? row.maxOverMean : null);
  kept.sort((a, b) => {
    if (filter.order === 'name') return a.row.name.localeCompare(b.row.name) || a.index - b.index;
    if (filter.order === 'graph') return a.index - b.index;
    const va = value(a.row);
    const vb = value(b.row);
    if (va === null && vb === null) return a.index - b.index;
    if (va === null) return 1;
    if (vb === null) return -1;
    return vb - va || a.index - b.index;
  });
  return kept.map(({ row }) => row);
}

/** The widest row: the number of columns. */
export function columnCount(rows: readonly HeatmapRow[]): number {
  return rows.reduce((max, r) => Math.max(max, r.values.length), 0);
}

/** The hottest cell of the drawn rows (first on a tie), or null when no cell has a value. */
export function hottestCell(rows: readonly HeatmapRow[]): { row: number; subtask: number; value: number } | null {
  let best: { row: number; subtask: number; value: number } | null = null;
  rows.forEach((r, row) =>
    r.values.forEach((value, subtask) => {
      if (value !== null && (best === null || value > best.value)) best = { row, subtask, value };
    }),
  );
  return best;
}

/** Where the grid is drawn: its top-left corner in canvas pixels, the cell size, and the pan offset. */
export interface GridView {
  originX: number;
  originY: number;
  cellWidth: number;
  cellHeight: number;
  /** Content pixels scrolled out of view to the left and top. */
  panX: number;
  panY: number;
}

/** The cell under a point of the canvas, or null outside the grid or past a row's parallelism. */
export function cellAt(x: number, y: number, view: GridView, rows: readonly HeatmapRow[]): { row: number; subtask: number } | null {
  if (x < view.originX || y < view.originY) return null;
  const subtask = Math.floor((x - view.originX + view.panX) / view.cellWidth);
  const row = Math.floor((y - view.originY + view.panY) / view.cellHeight);
  if (row < 0 || row >= rows.length || subtask < 0 || subtask >= rows[row].values.length) return null;
  return { row, subtask };
}

/** Keeps the pan inside the content: nothing scrolls past the last column or row. */
export function clampPan(view: GridView, columns: number, rowCount: number, width: number, height: number): GridView {
  const maxX = Math.max(0, columns * view.cellWidth - (width - view.originX));
  const maxY = Math.max(0, rowCount * view.cellHeight - (height - view.originY));
  return { ...view, panX: Math.min(Math.max(0, view.panX), maxX), panY: Math.min(Math.max(0, view.panY), maxY) };
}

/** Colour scale ends: idle blue to busy red, as the graph's vertices (and the Flink Web UI) paint busy time. */
const LOW: readonly [number, number, number] = [33, 102, 172];
const MID: readonly [number, number, number] = [244, 180, 60];
const HIGH: readonly [number, number, number] = [196, 30, 36];
export const EMPTY_RGB: readonly [number, number, number] = [38, 46, 58];

/** The scale's top: 1,000 for ms-per-second metrics (a share of time), else the largest value shown. */
export function scaleTop(heatmap: Pick<SkewHeatmap, 'unit' | 'max'>, rows: readonly HeatmapRow[], perRow: boolean, row?: HeatmapRow): number {
  if (heatmap.unit === 'ms/s') return 1000;
  const values = perRow && row ? [row] : rows;
  let max = 0;
  for (const r of values) for (const v of r.values) if (v !== null && v > max) max = v;
  return max;
}

/** A value's colour on a 0..top scale (blue, amber, red); no value is the empty grey. */
export function heatRgb(value: number | null, top: number): readonly [number, number, number] {
  if (value === null || !Number.isFinite(value)) return EMPTY_RGB;
  const t = top > 0 ? Math.min(1, Math.max(0, value / top)) : 0;
  const [a, b, u] = t < 0.5 ? [LOW, MID, t * 2] : [MID, HIGH, (t - 0.5) * 2];
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * u)) as unknown as readonly [number, number, number];
}

/**
 * The heatmap as an RGBA image, one pixel per cell (columns × rows): drawn once per data, then scaled and panned
 * by the canvas without touching a cell again.
 */
export function heatImage(heatmap: Pick<SkewHeatmap, 'unit' | 'max'>, rows: readonly HeatmapRow[], perRow: boolean): { width: number; height: number; data: Uint8ClampedArray<ArrayBuffer> } {
  const width = Math.max(1, columnCount(rows));
  const height = Math.max(1, rows.length);
  const data = new Uint8ClampedArray(new ArrayBuffer(width * height * 4));
  const jobTop = scaleTop(heatmap, rows, false);
  rows.forEach((row, r) => {
    const top = perRow ? scaleTop(heatmap, rows, true, row) : jobTop;
    for (let c = 0; c < width; c++) {
      const value = c < row.values.length ? row.values[c] : null;
      const rgb = c < row.values.length ? heatRgb(value, top) : ([13, 17, 23] as const);
      const at = (r * width + c) * 4;
      data[at] = rgb[0];
      data[at + 1] = rgb[1];
      data[at + 2] = rgb[2];
      data[at + 3] = 255;
    }
  });
  return { width, height, data };
}
