import { memo, useEffect, useRef, type ReactNode } from 'react';
import { SortableHeader } from '../../components/SortableHeader';
import { SpacerRow, useVirtualRows } from '../../components/useVirtualRows';
import { testIds } from '../../testIds';
import { SUBTASK_COLUMNS, type SubtaskColumnDef, type SubtaskTableRow } from './subtaskColumns';
import type { SubtaskColumn, SubtaskSort } from './sortSubtasks';

/** Every row has this height (two lines: a total and its rate), so row n sits at n × this in the scrolling box. */
export const SUBTASK_ROW_HEIGHT = 40;

export interface SubtasksTableProps {
  /** Already sorted (and filtered). */
  rows: readonly SubtaskTableRow[];
  sort: SubtaskSort;
  onSort: (column: SubtaskColumn) => void;
  /** For watermarks shown as today's time: only its day matters (see `sameDayNow`). */
  now: number;
  columns?: readonly SubtaskColumnDef[];
  /** The scrolling box's height before it is measured (see useVirtualRows). */
  initialHeight?: number;
  stale?: boolean;
  /** A subtask to mark, and scroll into view (the evidence of a finding). */
  markedSubtask?: number | null;
}

/**
 * The table itself, from the column definitions: sortable headers with units (kept in view while the rows scroll), a
 * pinned index column, and only the rows on screen rendered, so 4,096 subtasks cost what 30 do.
 */
export function SubtasksTable({ rows, sort, onSort, now, columns = SUBTASK_COLUMNS, initialHeight, stale = false, markedSubtask = null }: SubtasksTableProps): ReactNode {
  const width = columns.reduce((sum, c) => sum + c.width, 0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { items, before, after, scrollToIndex } = useVirtualRows({ count: rows.length, rowHeight: SUBTASK_ROW_HEIGHT, scrollRef, initialHeight });
  // A new sort shows its top (sorting by busy is asking for the busiest subtask); a marked subtask is brought into view.
  const markedAt = markedSubtask === null ? -1 : rows.findIndex((row) => row.index === markedSubtask);
  useEffect(() => {
    // In a block: newer Chromium returns a promise from scrollTo, which React would take for a cleanup.
    scrollRef.current?.scrollTo({ top: 0 });
  }, [sort.column, sort.direction]);
  const markedShown = markedAt >= 0;
  useEffect(() => {
    if (markedShown) scrollToIndex(markedAt);
    // Once per marked subtask (and when it first appears), not on every refresh that moves it.
  }, [markedSubtask, markedShown]);
  return (
    <div className={`table-wrap subtasks-scroll${stale ? ' is-stale' : ''}`} ref={scrollRef}>
      <table
        className="table subtasks-table"
        data-testid={testIds.subtasks.table}
        data-row-height={SUBTASK_ROW_HEIGHT}
        aria-rowcount={rows.length + 1}
        style={{ minWidth: width }}
      >
        <colgroup>
          {columns.map((c) => (
            <col key={c.id} style={{ width: c.width }} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((c) => (
              <SortableHeader key={c.id} column={c} className={cellClass(c)} direction={sort.column === c.id ? sort.direction : null} onSort={() => onSort(c.id)} />
            ))}
          </tr>
        </thead>
        <tbody>
          <SpacerRow height={before} columns={columns.length} />
          {items.map((item) => (
            <SubtaskTableRowView
              key={rows[item.index].index}
              row={rows[item.index]}
              position={item.index + 2}
              now={now}
              columns={columns}
              marked={rows[item.index].index === markedSubtask}
            />
          ))}
          <SpacerRow height={after} columns={columns.length} />
        </tbody>
      </table>
    </div>
  );
}

function cellClass(column: SubtaskColumnDef): string | undefined {
  const classes = [column.numeric ? 'num' : '', column.sticky ? 'sticky-column' : ''].filter(Boolean);
  return classes.length > 0 ? classes.join(' ') : undefined;
}

/** Memoized: a refresh re-renders only the rows whose figures changed (unchanged rows keep their object, see subtaskRows.ts). */
const SubtaskTableRowView = memo(function SubtaskTableRowView({
  row,
  position,
  now,
  columns,
  marked,
}: {
  row: SubtaskTableRow;
  /** aria-rowindex: the row's place in the whole table, for screen readers that see only the rendered rows. */
  position: number;
  now: number;
  columns: readonly SubtaskColumnDef[];
  marked: boolean;
}): ReactNode {
  return (
    <tr
      className={marked ? 'is-marked' : undefined}
      data-testid={testIds.subtasks.row(row.index)}
      data-busy={row.busyTimeMsPerSecond ?? ''}
      data-marked={marked ? 'true' : undefined}
      aria-rowindex={position}
    >
      {columns.map((c) => (
        <td key={c.id} className={cellClass(c)} title={c.cellTitle?.(row)}>
          {c.render(row, now)}
        </td>
      ))}
    </tr>
  );
});
