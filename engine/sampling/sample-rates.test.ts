import { describe, expect, it } from 'vitest';
import { emptySubtaskColumns, stateCode, type JobSample } from '../history/job-sample.ts';
import { withRates } from './sample-rates.ts';

/** A one-vertex, one-subtask sample with the given counters at time t. */
function sample(t: number, c: { records?: number; busy?: number; bp?: number; idle?: number; attempt?: number; state?: string }): JobSample {
  const subtasks = emptySubtaskColumns(1);
  subtasks.counters.recordsIn[0] = c.records ?? 0;
  subtasks.counters.recordsOut[0] = c.records ?? 0;
  subtasks.counters.bytesIn[0] = (c.records ?? 0) * 10;
  subtasks.counters.bytesOut[0] = (c.records ?? 0) * 10;
  subtasks.counters.accumulatedBusyMs[0] = c.busy ?? 0;
  subtasks.counters.accumulatedBackPressuredMs[0] = c.bp ?? 0;
  subtasks.counters.accumulatedIdleMs[0] = c.idle ?? 0;
  subtasks.attempt[0] = c.attempt ?? 0;
  subtasks.state[0] = stateCode(c.state ?? 'RUNNING');
  return {
    clusterId: 'c', jobId: 'j', t, jobName: 'j', jobState: 'RUNNING', jobStartTime: 1, edges: [], taskManagers: [],
    lastCompletedCheckpointId: null, requests: 0, bytes: 0,
    vertices: [{ id: 'v', name: 'v', parallelism: 1, maxParallelism: 128, status: 'RUNNING', subtasks }],
  };
}
const rates = (s: JobSample) => s.vertices[0].subtasks!.rates;

describe('withRates', () => {
  it('divides the counters\' growth by the time between samples: records per second, busy time in ms per second', () => {
    const first = withRates(undefined, sample(0, { records: 0, busy: 0, bp: 0, idle: 0 }));
    expect(Number.isNaN(rates(first).recordsInPerSecond[0])).toBe(true);
    const second = withRates(first, sample(10_000, { records: 5_000, busy: 7_000, bp: 2_000, idle: 1_000 }));
    expect(rates(second).recordsInPerSecond[0]).toBe(500);
    expect(rates(second).bytesOutPerSecond[0]).toBe(5_000);
    expect(rates(second).busyTimeMsPerSecond[0]).toBe(700);
    expect(rates(second).backPressuredTimeMsPerSecond[0]).toBe(200);
    expect(rates(second).idleTimeMsPerSecond[0]).toBe(100);
  });

  it('keeps the previous rates while the JobManager has not refreshed, and never doubles the next interval', () => {
    const a = withRates(undefined, sample(0, { records: 0, busy: 0 }));
    const b = withRates(a, sample(10_000, { records: 1_000, busy: 5_000 }));
    const unchanged = withRates(b, sample(19_900, { records: 1_000, busy: 5_000 }));
    expect(rates(unchanged).recordsInPerSecond[0]).toBe(100);
    expect(unchanged.vertices[0].subtasks!.countersSince[0]).toBe(10_000);
    // The counters moved again: 2,000 more records over the 20 s since they were last seen to change.
    const c = withRates(unchanged, sample(30_000, { records: 3_000, busy: 15_000 }));
    expect(rates(c).recordsInPerSecond[0]).toBe(100);
    expect(rates(c).busyTimeMsPerSecond[0]).toBe(500);
  });

  it('gives no rate after a restart (new attempt or a counter going backwards), for a subtask not running, or when counters are stale', () => {
    const a = withRates(undefined, sample(0, { records: 10_000 }));
    expect(Number.isNaN(rates(withRates(a, sample(10_000, { records: 10, attempt: 1 }))).recordsInPerSecond[0])).toBe(true);
    expect(Number.isNaN(rates(withRates(a, sample(10_000, { records: 10 }))).recordsInPerSecond[0])).toBe(true);
    expect(Number.isNaN(rates(withRates(a, sample(10_000, { records: 20_000, state: 'FINISHED' }))).recordsInPerSecond[0])).toBe(true);
    const b = withRates(a, sample(10_000, { records: 20_000 }));
    expect(Number.isNaN(rates(withRates(b, sample(80_000, { records: 20_000 }))).recordsInPerSecond[0])).toBe(true);
  });

  it('caps time rates at 1,000 ms per second (a JobManager clock ahead of ours cannot make a subtask busier than busy)', () => {
    const a = withRates(undefined, sample(0, { busy: 0 }));
    expect(rates(withRates(a, sample(10_000, { busy: 10_400 }))).busyTimeMsPerSecond[0]).toBe(1000);
  });
});
