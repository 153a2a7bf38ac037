import type { ReactNode } from 'react';

export interface SortableColumn {
  label: string;
  unit?: string;
  title?: string;
}

/** A table's column header that sorts by its column: the label with its unit, and the arrow of the active sort. */
export function SortableHeader({
  column,
  direction,
  className,
  onSort,
}: {
  column: SortableColumn;
  /** The sort's direction when the table is sorted by this column, else null. */
  direction: 'asc' | 'desc' | null;
  className?: string;
  onSort: () => void;
}): ReactNode {
  return (
    <th scope="col" className={className} aria-sort={direction === null ? 'none' : direction === 'asc' ? 'ascending' : 'descending'}>
      <button type="button" className="sort-button" title={column.title} onClick={onSort}>
        <span className="sort-button__label">
          {column.label}
          {column.unit ? <span className="column-unit"> {column.unit}</span> : null}
        </span>
        <span className="sort-button__arrow" aria-hidden="true">
          {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : ''}
        </span>
      </button>
    </th>
  );
}
