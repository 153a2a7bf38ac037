import type { BackpressureLevel, VertexView } from '../../../engine/contracts/jobs';

/**
 * The vertex list beside the graph (what the Flink Web UI lists under its graph): one row per vertex with the figures
 * that find the one that matters, sorted and filtered by these pure functions.
 */
export interface VertexRow {
  id: string;
  name: string;
  /** Place in the job's vertex order (sources first): the order without a sort, and the tie-break. */
  order: number;
  parallelism: number;
  status: string;
  /** The busiest subtask's busy time, ms/s. */
  busyMax: number | null;
  /** The most back-pressured subtask's back-pressured time, ms/s. */
  backPressuredMax: number | null;
  backpressureLevel: BackpressureLevel | null;
  /** Busy max/avg over the subtasks. */
  skew: number | null;
  recordsInPerSecond: number | null;
  recordsOutPerSecond: number | null;
}

export type VertexColumn = 'order' | 'name' | 'parallelism' | 'busyMax' | 'backPressuredMax' | 'skew' | 'recordsInPerSecond' | 'recordsOutPerSecond';

export interface VertexSort {
  column: VertexColumn;
  direction: 'asc' | 'desc';
}

/** The hottest first: what an operator opening a big job looks for. */
export const DEFAULT_VERTEX_SORT: VertexSort = { column: 'busyMax', direction: 'desc' };

export function toVertexRows(vertices: readonly VertexView[]): VertexRow[] {
  return vertices.map((v, order) => ({
    id: v.id,
    name: v.name,
    order,
    parallelism: v.parallelism,
    status: v.status,
    busyMax: v.busyTimeMsPerSecond?.max ?? null,
    backPressuredMax: v.backPressuredTimeMsPerSecond?.max ?? null,
    backpressureLevel: v.backpressureLevel,
    skew: v.busySkew,
    recordsInPerSecond: v.recordsInPerSecond,
    recordsOutPerSecond: v.recordsOutPerSecond,
  }));
}

/**
 * The rows after a graph refresh: a vertex whose figures did not change keeps its row object (its memoized row is not
 * re-rendered), and when none changed the previous list itself is kept (nor are the sort and the filter redone).
 */
export function nextVertexRows(previous: readonly VertexRow[], vertices: readonly VertexView[]): readonly VertexRow[] {
  const next = toVertexRows(vertices).map((row, i) => (previous[i] !== undefined && sameVertexRow(previous[i], row) ? previous[i] : row));
  return next.length === previous.length && next.every((row, i) => row === previous[i]) ? previous : next;
}

function sameVertexRow(a: VertexRow, b: VertexRow): boolean {
  return (Object.keys(b) as Array<keyof VertexRow>).every((key) => a[key] === b[key]);
}

/**
 * The rows whose name holds every word of the query (any case, any order), or whose id starts with it: "tenant cost"
 * finds `tenant-cost -> Sink: Writer`. An empty query keeps them all.
 */
export function filterVertices(rows: readonly VertexRow[], query: string): readonly VertexRow[] {
  const words = query.toLowerCase().split(/[\s\-_>:]+/).filter(Boolean);
  if (words.length === 0) return rows;
  const id = query.trim().toLowerCase();
  return rows.filter((row) => {
    const name = row.name.toLowerCase();
    return words.every((word) => name.includes(word)) || (id.length >= 4 && row.id.startsWith(id));
  });
}

/** Sorts a copy; rows without the figure go last whatever the direction; ties keep the job's vertex order. */
export function sortVertices(rows: readonly VertexRow[], sort: VertexSort): VertexRow[] {
  const factor = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = a[sort.column];
    const vb = b[sort.column];
    if (va == null || vb == null) return va == null && vb == null ? a.order - b.order : va == null ? 1 : -1;
    const cmp = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return cmp !== 0 ? cmp * factor : a.order - b.order;
  });
}

/** A click on a header: the same column flips; a new one starts with its figures' worst first (names A→Z). */
export function nextVertexSort(current: VertexSort, column: VertexColumn): VertexSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: column === 'name' || column === 'order' ? 'asc' : 'desc' };
}
