import { describe, expect, it } from 'vitest';
import type { SubtaskRow } from '../../../engine/contracts/jobs';
import { findingLogTarget } from './useFindingLog';

function row(index: number, taskManagerId: string | null, attempt = 0, status = 'RUNNING'): SubtaskRow {
  return {
    index, attempt, status, endpoint: null, taskManagerId, recordsIn: null, recordsOut: null, bytesIn: null, bytesOut: null, clockMs: null,
    busyTimeMsPerSecond: null, backPressuredTimeMsPerSecond: null, idleTimeMsPerSecond: null, backpressureLevel: null, watermark: null,
  };
}

describe('findingLogTarget', () => {
  it("names the subtask's TaskManager and its task as Flink names it in the log and the thread (1-based, with the attempt)", () => {
    const vertex = { name: 'tenant-cost', parallelism: 32, subtasks: [row(11, 'tm-a'), row(12, 'tm-b', 2)] };
    expect(findingLogTarget(12, vertex, 'threads')).toEqual({ processId: 'tm-b', task: 'tenant-cost (13/32)#2', tab: 'threads' });
  });

  it('says why there is no log where the subtask runs on no TaskManager, or is not listed', () => {
    const vertex = { name: 'tenant-cost', parallelism: 2, subtasks: [row(0, null, 0, 'SCHEDULED')] };
    expect(findingLogTarget(0, vertex, 'log')).toBe('Subtask 0 of tenant-cost runs on no TaskManager now (SCHEDULED): no log to open.');
    expect(findingLogTarget(1, vertex, 'log')).toBe('Subtask 1 of tenant-cost runs on no TaskManager now (not listed): no log to open.');
  });
});
