import { describe, expect, it } from 'vitest';
import type { SubtaskRow } from '../../../engine/contracts/jobs';
import { nextSort, sortSubtasks } from './sortSubtasks';

const row = (index: number, over: Partial<SubtaskRow> = {}): SubtaskRow => ({
  index,
  attempt: 0,
  status: 'RUNNING',
  endpoint: `tm-${index}:1234`,
  taskManagerId: `tm-${index}`,
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

const rows = [
  row(0, { busyTimeMsPerSecond: 100, backpressureLevel: 'low' }),
  row(1, { busyTimeMsPerSecond: 900, backpressureLevel: 'ok' }),
  row(2, { busyTimeMsPerSecond: null, backpressureLevel: null }),
  row(3, { busyTimeMsPerSecond: 500, backpressureLevel: 'high' }),
];

describe('sortSubtasks', () => {
  it('sorts by busy time both ways, missing values last', () => {
    expect(sortSubtasks(rows, { column: 'busyTimeMsPerSecond', direction: 'desc' }).map((r) => r.index)).toEqual([1, 3, 0, 2]);
    expect(sortSubtasks(rows, { column: 'busyTimeMsPerSecond', direction: 'asc' }).map((r) => r.index)).toEqual([0, 3, 1, 2]);
  });

  it('ranks back-pressure levels ok < low < high', () => {
    expect(sortSubtasks(rows, { column: 'backpressureLevel', direction: 'desc' }).map((r) => r.index)).toEqual([3, 0, 1, 2]);
  });

  it('sorts strings and keeps subtask order on ties', () => {
    const same = [row(2), row(0), row(1)];
    expect(sortSubtasks(same, { column: 'status', direction: 'asc' }).map((r) => r.index)).toEqual([0, 1, 2]);
    expect(sortSubtasks(rows, { column: 'endpoint', direction: 'desc' }).map((r) => r.index)).toEqual([3, 2, 1, 0]);
  });

  it('does not touch its input', () => {
    const copy = [...rows];
    sortSubtasks(rows, { column: 'busyTimeMsPerSecond', direction: 'desc' });
    expect(rows).toEqual(copy);
  });
});

describe('nextSort', () => {
  it('starts metrics worst-first and flips on a second click', () => {
    const first = nextSort({ column: 'index', direction: 'asc' }, 'busyTimeMsPerSecond');
    expect(first).toEqual({ column: 'busyTimeMsPerSecond', direction: 'desc' });
    expect(nextSort(first, 'busyTimeMsPerSecond')).toEqual({ column: 'busyTimeMsPerSecond', direction: 'asc' });
    expect(nextSort(first, 'index')).toEqual({ column: 'index', direction: 'asc' });
  });
});
