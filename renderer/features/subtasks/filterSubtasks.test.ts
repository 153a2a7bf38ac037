import { describe, expect, it } from 'vitest';
import type { SubtaskRow } from '../../../engine/contracts/jobs';
import { filterSubtasks } from './filterSubtasks';

const row = (index: number, over: Partial<SubtaskRow> = {}): SubtaskRow => ({
  index,
  attempt: 0,
  status: 'RUNNING',
  endpoint: `10.0.0.${index}:41000`,
  taskManagerId: `10.0.0.${index}:6122-00000${index}`,
  recordsIn: 0,
  recordsOut: 0,
  bytesIn: 0,
  bytesOut: 0,
  clockMs: null,
  busyTimeMsPerSecond: 0,
  backPressuredTimeMsPerSecond: 0,
  idleTimeMsPerSecond: 1000,
  backpressureLevel: 'ok',
  watermark: null,
  ...over,
});

const rows = [row(0), row(1, { backpressureLevel: 'high' }), row(2, { status: 'INITIALIZING', backpressureLevel: null }), row(12), row(21, { backpressureLevel: 'high' })];
const indexes = (list: readonly SubtaskRow[]) => list.map((r) => r.index);

describe('filterSubtasks', () => {
  it('keeps every row for an empty query, without copying', () => {
    expect(filterSubtasks(rows, '')).toBe(rows);
    expect(filterSubtasks(rows, '   ')).toBe(rows);
  });

  it('reads a number as a subtask index, exactly', () => {
    expect(indexes(filterSubtasks(rows, '2'))).toEqual([2]);
    expect(indexes(filterSubtasks(rows, ' 21 '))).toEqual([21]);
    expect(filterSubtasks(rows, '4000')).toEqual([]);
  });

  it('matches words against the status, the back-pressure level, the endpoint and the TaskManager, in any case', () => {
    expect(indexes(filterSubtasks(rows, 'HIGH'))).toEqual([1, 21]);
    expect(indexes(filterSubtasks(rows, 'initializing'))).toEqual([2]);
    expect(indexes(filterSubtasks(rows, '10.0.0.12'))).toEqual([12]);
    expect(indexes(filterSubtasks(rows, 'high 10.0.0.2'))).toEqual([21]);
  });
});
