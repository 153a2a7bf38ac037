import { memo, useEffect, useRef, type ReactNode } from 'react';
import { testIds } from '../../testIds';
import { SUBTASK_COLUMNS, type SubtaskColumnDef, type SubtaskTableRow } from './subtaskColumns';
import type { SubtaskColumn, SubtaskSort } from './sortSubtasks';

export interface SubtasksTableProps {
  /** Already sorted. */
  rows: readonly SubtaskTableRow[];
  sort: SubtaskSort;
  onSort: (column: SubtaskColumn) => void;
  /** For watermarks shown as today's time. */
  now: number;
  columns?: readonly SubtaskColumnDef[];
  /** A subtask to mark, and scroll into view (the evidence of a finding). */
  markedSubtask?: number | null;
}

/** The table itself, from the column definitions: sortable headers with units, a pinned index column. */
export function SubtasksTable({ rows, sort, onSort, now, columns = SUBTASK_COLUMNS, markedSubtask = null }: SubtasksTableProps): ReactNode {
  const width = columns.reduce((sum, c) => sum + c.width, 0);
  return (
    <table className="table subtasks-table" data-testid={testIds.subtasks.table} style={{ minWidth: width }}>
      <colgroup>
        {columns.map((c) => (
          <col key={c.id} style={{ width: c.width }} />
        ))}
      </colgroup>
      <thead>
        <tr>
          {columns.map((c) => {
            const active = sort.column === c.id;
            return (
              <th
                key={c.id}
                scope="col"
                className={cellClass(c)}
                aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
              >
                <button type="button" className="sort-button" title={c.title} onClick={() => onSort(c.id)}>
                  <span className="sort-button__label">
                    {c.label}
                    {c.unit ? <span className="column-unit"> {c.unit}</span> : null}
                  </span>
                  <span className="sort-button__arrow" aria-hidden="true">
                    {active ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                  </span>
                </button>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <SubtaskTableRowView key={row.index} row={row} now={now} columns={columns} marked={row.index === markedSubtask} />
        ))}
      </tbody>
    </table>
  );
}

function cellClass(column: SubtaskColumnDef): string | undefined {
  const classes = [column.numeric ? 'num' : '', column.sticky ? 'sticky-column' : ''].filter(Boolean);
  return classes.length > 0 ? classes.join(' ') : undefined;
}

/** Memoized: a refresh re-renders only the rows whose figures changed. */
const SubtaskTableRowView = memo(function SubtaskTableRowView({
  row,
  now,
  columns,
  marked,
}: {
  row: SubtaskTableRow;
  now: number;
  columns: readonly SubtaskColumnDef[];
  marked: boolean;
}): ReactNode {
  const ref = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (marked) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [marked]);
  return (
    <tr
      ref={ref}
      className={marked ? 'is-marked' : undefined}
      data-testid={testIds.subtasks.row(row.index)}
      data-busy={row.busyTimeMsPerSecond ?? ''}
      data-marked={marked ? 'true' : undefined}
    >
      {columns.map((c) => (
        <td key={c.id} className={cellClass(c)} title={c.cellTitle?.(row)}>
          {c.render(row, now)}
        </td>
      ))}
    </tr>
  );
});
