import { describe, expect, it } from 'vitest';
import type { SubtaskRow, VertexSubtasks } from '../../../engine/contracts/jobs';
import { EMPTY_SUBTASK_TABLE, nextSubtaskTable, nextTableRows, sameDayNow } from './subtaskRows';
import type { SubtaskRates } from './subtaskRates';

const row = (index: number, busy: number): SubtaskRow => ({
  index,
  attempt: 0,
  status: 'RUNNING',
  endpoint: 'tm:1',
  taskManagerId: 'tm',
  recordsIn: 100,
  recordsOut: 90,
  bytesIn: 1000,
  bytesOut: 900,
  clockMs: null,
  busyTimeMsPerSecond: busy,
  backPressuredTimeMsPerSecond: 0,
  idleTimeMsPerSecond: 1000 - busy,
  backpressureLevel: 'ok',
  watermark: 1,
});
const rate = (n: number): SubtaskRates => ({ recordsInPerSecond: n, recordsOutPerSecond: n, bytesInPerSecond: n, bytesOutPerSecond: n });

describe('nextTableRows', () => {
  const first = nextTableRows([], [row(0, 100), row(1, 200), row(2, 300)], new Map([[0, rate(5)], [1, rate(5)], [2, rate(5)]]));

  it('keeps the object of every row whose figures and rates did not change, so its memoized row is not re-rendered', () => {
    // A new response: new objects with the same values for 0 and 2; subtask 1 got busier; subtask 2's rate moved.
    const second = nextTableRows(first, [row(0, 100), row(1, 250), row(2, 300)], new Map([[0, rate(5)], [1, rate(5)], [2, rate(6)]]));
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1].busyTimeMsPerSecond).toBe(250);
    expect(second[2]).not.toBe(first[2]);
    expect(second[2].rates).toEqual(rate(6));
  });

  it('tells a row without rates from one with them, and follows the response order', () => {
    const noRates = nextTableRows(first, [row(2, 300), row(0, 100)], new Map());
    expect(noRates.map((r) => r.index)).toEqual([2, 0]);
    expect(noRates[1]).not.toBe(first[0]);
    expect(noRates[1].rates).toBeNull();
  });
});

describe('sameDayNow', () => {
  it('changes only when the day changes', () => {
    const morning = new Date(2026, 10, 30, 8, 0, 0).getTime();
    expect(sameDayNow(null, morning)).toBe(morning);
    expect(sameDayNow(morning, morning + 3600_000)).toBe(morning);
    const tomorrow = new Date(2026, 11, 1, 0, 0, 1).getTime();
    expect(sameDayNow(morning, tomorrow)).toBe(tomorrow);
  });
});

describe('nextSubtaskTable', () => {
  const answer = (fetchedAt: number, subtasks: SubtaskRow[]): VertexSubtasks => ({
    clusterId: 'c',
    jobId: 'j',
    vertexId: 'v',
    name: 'n',
    parallelism: subtasks.length,
    subtasks,
    backpressureLevel: 'ok',
    fetchedAt,
    requestCount: 3,
  });
  const counted = (index: number, recordsIn: number, clockMs: number): SubtaskRow => ({ ...row(index, 100), recordsIn, clockMs });

  it("keeps the table's rows for the next refresh, none of the answer's objects", () => {
    const first = answer(10_000, [counted(0, 1000, 60_000), counted(1, 1000, 60_000)]);
    const table = nextSubtaskTable(EMPTY_SUBTASK_TABLE, first);
    expect(table.rateState.baseline?.subtasks).toBe(table.rows);
    expect(table.rows.some((r) => first.subtasks.includes(r))).toBe(false);
  });

  it("measures the next rates from those rows, over each subtask's own clock", () => {
    const table = nextSubtaskTable(EMPTY_SUBTASK_TABLE, answer(10_000, [counted(0, 1000, 60_000), counted(1, 1000, 60_000)]));
    // Subtask 1's clock moved without records: a new row (its clock is the next baseline), read as 0/s.
    const next = nextSubtaskTable(table, answer(20_000, [counted(0, 6000, 70_000), counted(1, 1000, 70_000)]));
    expect(next.rows[0].rates?.recordsInPerSecond).toBe(500);
    expect(next.rows[1].rates?.recordsInPerSecond).toBe(0);
    const third = nextSubtaskTable(next, answer(30_000, [counted(0, 8000, 74_000), counted(1, 1000, 80_000)]));
    expect(third.rows[0].rates?.recordsInPerSecond).toBe(500);
    expect(third.rows[1].rates?.recordsInPerSecond).toBe(0);
  });
});
