import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import type { ReactNode, RefObject } from 'react';

export interface VirtualRows {
  /** The rows to render: those on screen and a few beyond (`overscan`). */
  items: VirtualItem[];
  /** Room above and below them, kept by spacer rows so the scrollbar is the whole table's. */
  before: number;
  after: number;
  scrollToIndex(index: number): void;
}

/**
 * A table body that renders only the rows on screen (TanStack Virtual), for tables of thousands of rows in a scrolling
 * box: rows of one fixed height, so a row's place is its index × that height and jumping far down is exact.
 * `initialHeight` is the box's height before it is measured (the first paint; a server render in tests).
 */
export function useVirtualRows({
  count,
  rowHeight,
  scrollRef,
  overscan = 10,
  initialHeight = 600,
}: {
  count: number;
  rowHeight: number;
  scrollRef: RefObject<HTMLElement | null>;
  overscan?: number;
  initialHeight?: number;
}): VirtualRows {
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    initialRect: { width: 0, height: initialHeight },
  });
  const items = virtualizer.getVirtualItems();
  const before = items.length > 0 ? items[0].start : 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  return { items, before, after, scrollToIndex: (index) => virtualizer.scrollToIndex(index, { align: 'auto' }) };
}

/** Keeps the height of the rows not rendered; one cell across, so the table's columns are untouched. */
export function SpacerRow({ height, columns }: { height: number; columns: number }): ReactNode {
  if (height <= 0) return null;
  return (
    <tr className="virtual-spacer" aria-hidden="true" style={{ height }}>
      <td colSpan={columns} />
    </tr>
  );
}
