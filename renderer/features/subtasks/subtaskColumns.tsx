import type { ReactNode } from 'react';
import type { SubtaskRow } from '../../../engine/contracts/jobs';
import { DASH, formatBytes, formatCount, formatMsPerSecond, formatTimestamp, formatWatermark } from '../../components/format';
import { StateBadge } from '../../components/StateBadge';
import { BACKPRESSURE_LABEL } from '../job-graph/colors';
import type { SubtaskRates } from './subtaskRates';
import type { SubtaskColumn } from './sortSubtasks';
import { useSubtaskLogLink } from '../logs/subtaskLogLink';
import { testIds } from '../../testIds';

/** One row of the table: Flink's figures for a subtask, and its rates since the previous refresh (null: none yet). */
export interface SubtaskTableRow extends SubtaskRow {
  rates: SubtaskRates | null;
}

/**
 * A column of the subtasks table, as data: the header (label and unit), its width, whether it stays in view when the
 * table scrolls sideways, and how a row's cell renders. The table (and a virtualized one) only walks this list.
 */
export interface SubtaskColumnDef {
  /** Also the sort key. */
  id: SubtaskColumn;
  label: string;
  /** Shown under the label: what the numbers are in. */
  unit?: string;
  title: string;
  numeric?: boolean;
  /** Pinned to the left edge while the rest scrolls: the column that identifies the row. */
  sticky?: boolean;
  /** px; numbers are kept narrow so the alarming columns fit at 1,280 px. */
  width: number;
  render(row: SubtaskTableRow, now: number): ReactNode;
  /** The cell's tooltip: the full figure where the cell rounds it. */
  cellTitle?(row: SubtaskTableRow): string | undefined;
}

/** One click from the row to its TaskManager's log, filtered to its task's lines (where the table offers it). */
function SubtaskLogButton({ row }: { row: SubtaskTableRow }): ReactNode {
  const open = useSubtaskLogLink();
  if (!open || !row.taskManagerId) return null;
  return (
    <button type="button" className="button button--tiny" onClick={() => open(row)} aria-label={`Log of subtask ${row.index}`} data-testid={testIds.logs.subtaskLog(row.index)}>
      Log
    </button>
  );
}

/** A total since the subtask started, and its rate since the previous refresh beside it. */
function TotalAndRate({ total, rate, format }: { total: number | null; rate: number | null | undefined; format: (n: number | null) => string }): ReactNode {
  return (
    <span className="total-rate">
      <span className="total-rate__total">{format(total)}</span>
      <span className="total-rate__rate">{rate == null ? DASH : `${format(rate)}/s`}</span>
    </span>
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

const bytes = (n: number | null): string => formatBytes(n);
const count = (n: number | null): string => formatCount(n);
/** One formatter for every cell (`toLocaleString` builds one per call: 4 cells a row, each row a refresh changes). */
const exactFormat = new Intl.NumberFormat();
const exact = (n: number | null | undefined, unit: string): string | undefined => (n == null ? undefined : `${exactFormat.format(n)} ${unit}`);

/**
 * Identifying first (index, status), then the alarming ones (backpressure level, busy / back-pressured / idle time,
 * watermark), then the totals with their rates, then where the subtask runs: at 1,280 px everything up to the
 * watermark is in view without scrolling.
 */
export const SUBTASK_COLUMNS: readonly SubtaskColumnDef[] = [
  { id: 'index', label: '#', title: 'Subtask index', numeric: true, sticky: true, width: 44, render: (row) => row.index },
  {
    id: 'status',
    label: 'Status',
    title: 'Execution state; #n is the attempt number when the subtask restarted',
    width: 112,
    render: (row) => (
      <>
        <StateBadge state={row.status} />
        {row.attempt > 0 ? <span className="muted small" title="Attempt number: the subtask restarted"> #{row.attempt}</span> : null}
      </>
    ),
  },
  {
    id: 'backpressureLevel',
    label: 'BP level',
    title: 'Back-pressure level: ok ≤ 10%, low ≤ 50%, high above (of the time back-pressured)',
    width: 64,
    render: (row) => (row.backpressureLevel ? <span className={`bp bp--${row.backpressureLevel}`}>{BACKPRESSURE_LABEL[row.backpressureLevel]}</span> : DASH),
  },
  { id: 'busyTimeMsPerSecond', label: 'Busy', unit: 'ms/s', title: 'Busy time, ms per second', width: 82, render: (row) => <TimeBar value={row.busyTimeMsPerSecond} tone="busy" /> },
  {
    id: 'backPressuredTimeMsPerSecond',
    label: 'Back-pressured',
    unit: 'ms/s',
    title: 'Back-pressured time, ms per second',
    width: 82,
    render: (row) => <TimeBar value={row.backPressuredTimeMsPerSecond} tone="backpressured" />,
  },
  { id: 'idleTimeMsPerSecond', label: 'Idle', unit: 'ms/s', title: 'Idle time, ms per second', width: 82, render: (row) => <TimeBar value={row.idleTimeMsPerSecond} tone="idle" /> },
  {
    id: 'watermark',
    label: 'Watermark',
    unit: 'local time',
    title: 'Current input watermark (local time)',
    width: 100,
    render: (row, now) => <span className="mono small nowrap">{formatWatermark(row.watermark, now)}</span>,
    cellTitle: (row) => (row.watermark == null ? 'No watermark yet' : formatTimestamp(row.watermark, true)),
  },
  {
    id: 'recordsIn',
    label: 'Records in',
    unit: 'total · /s',
    title: 'Records received since the subtask started, and per second since the previous refresh',
    numeric: true,
    width: 84,
    render: (row) => <TotalAndRate total={row.recordsIn} rate={row.rates?.recordsInPerSecond} format={count} />,
    cellTitle: (row) => exact(row.recordsIn, 'records in total'),
  },
  {
    id: 'recordsOut',
    label: 'Records out',
    unit: 'total · /s',
    title: 'Records sent since the subtask started, and per second since the previous refresh',
    numeric: true,
    width: 84,
    render: (row) => <TotalAndRate total={row.recordsOut} rate={row.rates?.recordsOutPerSecond} format={count} />,
    cellTitle: (row) => exact(row.recordsOut, 'records in total'),
  },
  {
    id: 'bytesIn',
    label: 'Bytes in',
    unit: 'total · /s',
    title: 'Bytes received since the subtask started, and per second since the previous refresh',
    numeric: true,
    width: 84,
    render: (row) => <TotalAndRate total={row.bytesIn} rate={row.rates?.bytesInPerSecond} format={bytes} />,
    cellTitle: (row) => exact(row.bytesIn, 'bytes in total'),
  },
  {
    id: 'bytesOut',
    label: 'Bytes out',
    unit: 'total · /s',
    title: 'Bytes sent since the subtask started, and per second since the previous refresh',
    numeric: true,
    width: 84,
    render: (row) => <TotalAndRate total={row.bytesOut} rate={row.rates?.bytesOutPerSecond} format={bytes} />,
    cellTitle: (row) => exact(row.bytesOut, 'bytes in total'),
  },
  {
    id: 'endpoint',
    label: 'Endpoint / TaskManager',
    title: 'Where the subtask runs: its TaskManager\'s host:port, and the TaskManager\'s id below',
    width: 200,
    render: (row) => (
      <span className="subtask-tm">
        <span className="mono small nowrap">
          {row.endpoint ?? DASH} <SubtaskLogButton row={row} />
        </span>
        <span className="mono small muted truncate" title={row.taskManagerId ?? undefined}>
          {row.taskManagerId ?? DASH}
        </span>
      </span>
    ),
  },
];
