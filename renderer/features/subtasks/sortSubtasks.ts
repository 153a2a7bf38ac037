import type { SubtaskRow } from '../../../engine/contracts/jobs';

export type SubtaskColumn =
  | 'index'
  | 'endpoint'
  | 'taskManagerId'
  | 'status'
  | 'recordsIn'
  | 'recordsOut'
  | 'bytesIn'
  | 'bytesOut'
  | 'busyTimeMsPerSecond'
  | 'backPressuredTimeMsPerSecond'
  | 'idleTimeMsPerSecond'
  | 'backpressureLevel'
  | 'watermark';

export type SortDirection = 'asc' | 'desc';

export interface SubtaskSort {
  column: SubtaskColumn;
  direction: SortDirection;
}

const LEVEL_RANK = { ok: 0, low: 1, high: 2 } as const;

function sortValue(row: SubtaskRow, column: SubtaskColumn): number | string | null {
  if (column === 'backpressureLevel') return row.backpressureLevel == null ? null : LEVEL_RANK[row.backpressureLevel];
  return row[column];
}

/** Numbers first column where it helps the operator: a first click on a metric shows the worst first. */
export function defaultDirection(column: SubtaskColumn): SortDirection {
  return column === 'index' || column === 'endpoint' || column === 'taskManagerId' || column === 'status' ? 'asc' : 'desc';
}

/** Sorts a copy; rows without a value go last whatever the direction, ties keep subtask order. */
export function sortSubtasks<Row extends SubtaskRow>(rows: readonly Row[], sort: SubtaskSort): Row[] {
  const factor = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = sortValue(a, sort.column);
    const vb = sortValue(b, sort.column);
    if (va == null && vb == null) return a.index - b.index;
    if (va == null) return 1;
    if (vb == null) return -1;
    const cmp = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return cmp !== 0 ? cmp * factor : a.index - b.index;
  });
}

/** The next sort after a click on a column header: same column flips, a new column starts at its default. */
export function nextSort(current: SubtaskSort, column: SubtaskColumn): SubtaskSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: defaultDirection(column) };
}
