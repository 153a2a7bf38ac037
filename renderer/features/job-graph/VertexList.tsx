import { memo, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { JobGraph } from '../../../engine/contracts/jobs';
import { formatMsPerSecond, formatRate } from '../../components/format';
import { SortableHeader } from '../../components/SortableHeader';
import { SpacerRow, useVirtualRows } from '../../components/useVirtualRows';
import { testIds } from '../../testIds';
import { BACKPRESSURE_LABEL } from './colors';
import { hottestVertex } from './graphFocus';
import { DEFAULT_VERTEX_SORT, filterVertices, nextVertexRows, nextVertexSort, sortVertices, type VertexColumn, type VertexRow, type VertexSort } from './vertexList';

const ROW_HEIGHT = 32;
const SKEW_WORTH_NOTICING = 2;

const COLUMNS: ReadonlyArray<{ id: VertexColumn; label: string; unit?: string; title: string; numeric?: boolean; width?: number }> = [
  { id: 'name', label: 'Vertex', title: 'Vertex name (its chained operators)' },
  { id: 'parallelism', label: 'Parallelism', title: 'Parallelism', numeric: true, width: 92 },
  { id: 'busyMax', label: 'Busy max', unit: 'ms/s', title: 'The busiest subtask’s busy time, ms per second', numeric: true, width: 88 },
  { id: 'backPressuredMax', label: 'Back-pressured max', unit: 'ms/s · level', title: 'The most back-pressured subtask’s back-pressured time, and Flink’s level', numeric: true, width: 128 },
  { id: 'skew', label: 'Skew', unit: 'max/avg', title: 'Busy skew: the busiest subtask’s busy time over the average (1× = even)', numeric: true, width: 76 },
  { id: 'recordsInPerSecond', label: 'Records in', unit: '/s', title: 'Records received per second, all subtasks', numeric: true, width: 92 },
  { id: 'recordsOutPerSecond', label: 'Records out', unit: '/s', title: 'Records sent per second, all subtasks', numeric: true, width: 92 },
];

export interface VertexListProps {
  graph: JobGraph;
  selectedVertexId: string | null;
  /** Opens the vertex's subtasks, as a click on the graph does. */
  onSelect: (vertexId: string) => void;
  /** Brings the vertex into view on the graph. */
  onZoomTo: (vertexId: string) => void;
}

/**
 * Every vertex in a table beside the graph, as the Flink Web UI lists them: sortable by busy, back-pressure, skew and
 * records, filtered by name, each row one click from its subtasks and from "zoom to" on the graph. The hottest first.
 * Memoized: the job page re-renders on every poll's start and end; the list only when its graph or selection changes.
 */
export const VertexList = memo(function VertexList({ graph, selectedVertexId, onSelect, onZoomTo }: VertexListProps): ReactNode {
  const [sort, setSort] = useState<VertexSort>(DEFAULT_VERTEX_SORT);
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const previousRows = useRef<readonly VertexRow[]>([]);
  const all = useMemo(() => (previousRows.current = nextVertexRows(previousRows.current, graph.vertices)), [graph.vertices]);
  const sorted = useMemo(() => sortVertices(all, sort), [all, sort]);
  const rows = useMemo(() => filterVertices(sorted, deferredQuery), [sorted, deferredQuery]);
  const hottest = useMemo(() => hottestVertex(graph.vertices), [graph.vertices]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { items, before, after } = useVirtualRows({ count: rows.length, rowHeight: ROW_HEIGHT, scrollRef, initialHeight: 320 });
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [sort.column, sort.direction, deferredQuery]);

  return (
    <section className="panel vertex-list" aria-label="Vertices" data-testid={testIds.vertexList.panel}>
      <div className="table-toolbar">
        <h2 className="panel__title">Vertices</h2>
        <input
          type="search"
          className="search table-toolbar__filter"
          placeholder="Find a vertex by name"
          aria-label="Find a vertex by name"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <span className="muted small" data-testid={testIds.vertexList.count}>
          {rows.length === all.length ? `${all.length} vertices` : `${rows.length} of ${all.length} vertices`}
        </span>
        {hottest ? (
          <button
            type="button"
            className="button button--small vertex-list__hottest"
            onClick={() => onZoomTo(hottest.id)}
            title={`Zoom the graph to the hottest vertex: ${hottest.name}`}
          >
            Zoom to hottest
          </button>
        ) : null}
      </div>
      <div className="table-wrap vertex-list__scroll" ref={scrollRef}>
        <table className="table vertex-list__table" data-testid={testIds.vertexList.table} aria-rowcount={rows.length + 1}>
          <colgroup>
            {COLUMNS.map((c) => (
              <col key={c.id} style={c.width ? { width: c.width } : undefined} />
            ))}
            <col style={{ width: 84 }} />
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              {COLUMNS.map((c) => (
                <SortableHeader
                  key={c.id}
                  column={c}
                  className={c.numeric ? 'num' : undefined}
                  direction={sort.column === c.id ? sort.direction : null}
                  onSort={() => setSort((s) => nextVertexSort(s, c.id))}
                />
              ))}
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            <SpacerRow height={before} columns={COLUMNS.length + 1} />
            {items.map((item) => (
              <VertexRowView
                key={rows[item.index].id}
                row={rows[item.index]}
                position={item.index + 2}
                selected={rows[item.index].id === selectedVertexId}
                onSelect={onSelect}
                onZoomTo={onZoomTo}
              />
            ))}
            <SpacerRow height={after} columns={COLUMNS.length + 1} />
          </tbody>
        </table>
        {rows.length === 0 ? <p className="muted small vertex-list__empty">No vertex matches “{deferredQuery}”.</p> : null}
      </div>
    </section>
  );
});

const VertexRowView = memo(function VertexRowView({
  row,
  position,
  selected,
  onSelect,
  onZoomTo,
}: {
  row: VertexRow;
  position: number;
  selected: boolean;
  onSelect: (vertexId: string) => void;
  onZoomTo: (vertexId: string) => void;
}): ReactNode {
  return (
    <tr
      className={`clickable${selected ? ' is-selected' : ''}`}
      data-testid={testIds.vertexList.row(row.id)}
      aria-rowindex={position}
      aria-selected={selected}
      onClick={() => onSelect(row.id)}
      title="Click for its subtasks"
    >
      <td className="vertex-list__name truncate" title={row.name}>
        {row.name}
      </td>
      <td className="num">{row.parallelism}</td>
      <td className="num">{formatMsPerSecond(row.busyMax).replace(' ms/s', '')}</td>
      <td className="num">
        {formatMsPerSecond(row.backPressuredMax).replace(' ms/s', '')}{' '}
        {row.backpressureLevel ? <span className={`bp bp--${row.backpressureLevel}`}>{BACKPRESSURE_LABEL[row.backpressureLevel]}</span> : null}
      </td>
      <td className={`num${row.skew != null && row.skew >= SKEW_WORTH_NOTICING ? ' skew--hot' : ''}`}>{row.skew == null ? '—' : `${row.skew.toFixed(1)}×`}</td>
      <td className="num">{formatRate(row.recordsInPerSecond).replace('/s', '')}</td>
      <td className="num">{formatRate(row.recordsOutPerSecond).replace('/s', '')}</td>
      <td>
        <button
          type="button"
          className="button button--small"
          aria-label={`Zoom to ${row.name}`}
          onClick={(event) => {
            event.stopPropagation();
            onZoomTo(row.id);
          }}
        >
          Zoom to
        </button>
      </td>
    </tr>
  );
});
