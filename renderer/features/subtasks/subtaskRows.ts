import type { SubtaskRow } from '../../../engine/contracts/jobs';
import { formatTimestamp } from '../../components/format';
import type { SubtaskTableRow } from './subtaskColumns';
import type { SubtaskRates } from './subtaskRates';

/**
 * The table's rows after a refresh, built so that a row whose figures did not change keeps its object: the memoized
 * row component then skips it, and a refresh of 4,096 subtasks re-renders only those that moved. Pure.
 */
export function nextTableRows(
  previous: ReadonlyMap<number, SubtaskTableRow>,
  subtasks: readonly SubtaskRow[],
  rates: ReadonlyMap<number, SubtaskRates>,
): SubtaskTableRow[] {
  return subtasks.map((row) => {
    const next: SubtaskTableRow = { ...row, rates: rates.get(row.index) ?? null };
    const old = previous.get(row.index);
    return old && sameRow(old, next) ? old : next;
  });
}

const ROW_FIELDS = [
  'attempt',
  'status',
  'endpoint',
  'taskManagerId',
  'recordsIn',
  'recordsOut',
  'bytesIn',
  'bytesOut',
  'busyTimeMsPerSecond',
  'backPressuredTimeMsPerSecond',
  'idleTimeMsPerSecond',
  'backpressureLevel',
  'watermark',
] as const satisfies ReadonlyArray<keyof SubtaskRow>;
const RATE_FIELDS = ['recordsInPerSecond', 'recordsOutPerSecond', 'bytesInPerSecond', 'bytesOutPerSecond'] as const satisfies ReadonlyArray<keyof SubtaskRates>;

function sameRow(a: SubtaskTableRow, b: SubtaskTableRow): boolean {
  if (!ROW_FIELDS.every((field) => a[field] === b[field])) return false;
  if (a.rates === null || b.rates === null) return a.rates === b.rates;
  return RATE_FIELDS.every((field) => a.rates![field] === b.rates![field]);
}

/**
 * `now` for the rows, changed only when the day changes: the watermark column shows today's times without a date, so
 * a refresh's new `fetchedAt` alone must not re-render every row.
 */
export function sameDayNow(previous: number | null, next: number): number {
  return previous !== null && formatTimestamp(previous).slice(0, 10) === formatTimestamp(next).slice(0, 10) ? previous : next;
}
