import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { SubtaskRow, VertexSubtasks } from '../../../engine/contracts/engine-api';
import { useEngine } from '../../app/engine';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { isNotFound } from '../../components/errors';
import { DASH, formatBytes, formatCount, formatMsPerSecond, formatTimestamp, formatWatermark } from '../../components/format';
import { Panel } from '../../components/Panel';
import { StateBadge } from '../../components/StateBadge';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { BACKPRESSURE_LABEL } from '../job-graph/colors';
import { defaultDirection, nextSort, sortSubtasks, type SubtaskColumn, type SubtaskSort } from './sortSubtasks';

const COLUMNS: Array<{ column: SubtaskColumn; label: string; numeric?: boolean; title?: string }> = [
  { column: 'index', label: '#', numeric: true, title: 'Subtask index' },
  { column: 'endpoint', label: 'Endpoint / TaskManager', title: 'TaskManager host:port, and its id below' },
  { column: 'status', label: 'Status' },
  { column: 'recordsIn', label: 'Records in', numeric: true },
  { column: 'recordsOut', label: 'Records out', numeric: true },
  { column: 'bytesIn', label: 'Bytes in', numeric: true },
  { column: 'bytesOut', label: 'Bytes out', numeric: true },
  { column: 'busyTimeMsPerSecond', label: 'Busy', title: 'Busy time, ms per second' },
  { column: 'backPressuredTimeMsPerSecond', label: 'Back-pressured', title: 'Back-pressured time, ms per second' },
  { column: 'idleTimeMsPerSecond', label: 'Idle', title: 'Idle time, ms per second' },
  { column: 'backpressureLevel', label: 'BP level', title: 'Back-pressure level' },
  { column: 'watermark', label: 'Watermark', title: 'Current input watermark (local time)' },
];

/** A vertex's subtasks, polled while open; closing the panel unmounts it and its polling stops. */
export function SubtasksPanel({
  clusterId,
  jobId,
  vertexId,
  vertexName,
  refresh,
  onClose,
  initialSort,
  markedSubtask,
}: {
  clusterId: string;
  jobId: string;
  vertexId: string;
  vertexName: string | null;
  refresh: ClusterRefresh;
  onClose: () => void;
  /** Opened as the evidence of a finding: sorted by the metric that proves it, worst first. */
  initialSort?: SubtaskColumn | null;
  /** A subtask to mark (and scroll to) in the table. */
  markedSubtask?: number | null;
}): ReactNode {
  const { api } = useEngine();
  const poll = usePolling<VertexSubtasks>(() => api.getVertexSubtasks(clusterId, jobId, vertexId), refresh.intervalMs, {
    key: `${clusterId}/${jobId}/${vertexId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
    stopWhen: isNotFound,
  });
  const [sort, setSort] = useState<SubtaskSort>(initialSort ? { column: initialSort, direction: defaultDirection(initialSort) } : { column: 'index', direction: 'asc' });
  const markedRow = useRef<HTMLTableRowElement>(null);
  const hasRows = poll.data != null;
  useEffect(() => {
    if (hasRows) markedRow.current?.scrollIntoView({ block: 'nearest' });
  }, [hasRows, markedSubtask]);
  const rows = useMemo(() => (poll.data ? sortSubtasks(poll.data.subtasks, sort) : null), [poll.data, sort]);
  const name = poll.data?.name ?? vertexName ?? vertexId;

  return (
    <Panel
      className="subtasks-panel"
      testId={testIds.subtasks.panel}
      title={
        <>
          Subtasks of <span className="subtasks-panel__name" title={name}>{name}</span>
          {poll.data ? <span className="muted"> · parallelism {poll.data.parallelism}</span> : null}
          {poll.data?.backpressureLevel ? (
            <span className={`bp bp--${poll.data.backpressureLevel}`}> BP {BACKPRESSURE_LABEL[poll.data.backpressureLevel]}</span>
          ) : null}
        </>
      }
      poll={poll}
      actions={
        <>
          {poll.data ? <span className="muted small">{poll.data.requestCount} requests this refresh</span> : null}
          <button type="button" className="button button--small" onClick={onClose} aria-label="Close subtasks">
            Close
          </button>
        </>
      }
    >
      <PollErrorBanner poll={poll} context={isNotFound(poll.error) ? 'This vertex is no longer part of the job' : 'Loading the subtasks failed'} />
      {rows == null && !poll.error ? <p className="muted">Loading subtasks…</p> : null}
      {rows != null ? (
        <div className={`table-wrap${poll.stale ? ' is-stale' : ''}`}>
          <table className="table subtasks-table" data-testid={testIds.subtasks.table}>
            <thead>
              <tr>
                {COLUMNS.map((c) => {
                  const active = sort.column === c.column;
                  return (
                    <th
                      key={c.column}
                      scope="col"
                      className={c.numeric ? 'num' : undefined}
                      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
                    >
                      <button type="button" className="sort-button" title={c.title} onClick={() => setSort((s) => nextSort(s, c.column))}>
                        {c.label}
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
                <SubtaskTableRow key={row.index} row={row} marked={row.index === markedSubtask} rowRef={row.index === markedSubtask ? markedRow : undefined} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Panel>
  );
}

function SubtaskTableRow({ row, marked, rowRef }: { row: SubtaskRow; marked?: boolean; rowRef?: React.Ref<HTMLTableRowElement> }): ReactNode {
  return (
    <tr ref={rowRef} className={marked ? 'is-marked' : undefined} data-testid={testIds.subtasks.row(row.index)} data-busy={row.busyTimeMsPerSecond ?? ''} data-marked={marked ? 'true' : undefined}>
      <td className="num">{row.index}</td>
      <td className="subtask-tm">
        <div className="mono small nowrap">{row.endpoint ?? DASH}</div>
        <div className="mono small muted truncate" title={row.taskManagerId ?? undefined}>
          {row.taskManagerId ?? DASH}
        </div>
      </td>
      <td>
        <StateBadge state={row.status} />
        {row.attempt > 0 ? <span className="muted small" title="Attempt number: the subtask restarted"> #{row.attempt}</span> : null}
      </td>
      <td className="num" title={row.recordsIn?.toLocaleString()}>
        {formatCount(row.recordsIn)}
      </td>
      <td className="num" title={row.recordsOut?.toLocaleString()}>
        {formatCount(row.recordsOut)}
      </td>
      <td className="num">{formatBytes(row.bytesIn)}</td>
      <td className="num">{formatBytes(row.bytesOut)}</td>
      <td>
        <TimeBar value={row.busyTimeMsPerSecond} tone="busy" />
      </td>
      <td>
        <TimeBar value={row.backPressuredTimeMsPerSecond} tone="backpressured" />
      </td>
      <td>
        <TimeBar value={row.idleTimeMsPerSecond} tone="idle" />
      </td>
      <td>
        {row.backpressureLevel ? (
          <span className={`bp bp--${row.backpressureLevel}`}>{BACKPRESSURE_LABEL[row.backpressureLevel]}</span>
        ) : (
          DASH
        )}
      </td>
      <td className="mono small nowrap" title={row.watermark == null ? 'No watermark yet' : formatTimestamp(row.watermark, true)}>
        {formatWatermark(row.watermark, Date.now())}
      </td>
    </tr>
  );
}

/** A small bar of ms per second (0..1000) with the number beside it. */
function TimeBar({ value, tone }: { value: number | null; tone: 'busy' | 'backpressured' | 'idle' }): ReactNode {
  const share = value == null ? 0 : Math.min(1, Math.max(0, value / 1000));
  return (
    <span className="timebar" title={formatMsPerSecond(value)}>
      <span className="timebar__track" aria-hidden="true">
        <span className={`timebar__fill timebar__fill--${tone}`} style={{ width: `${share * 100}%` }} />
      </span>
      <span className="timebar__value">{value == null ? DASH : Math.round(value)}</span>
    </span>
  );
}
