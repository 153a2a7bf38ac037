import { describe, expect, it } from 'vitest';
import { emptySubtaskColumns, stateCode, type JobSample } from '../history/job-sample.ts';
import { withRates } from './sample-rates.ts';
import { refreshTimes, sampleAt, seededRandom, type Schedule, type SimulatedSubtask } from './testing/refreshing-jobmanager.ts';

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
    const a = withRates(undefined, sample(0, { records: 0, busy: 0, idle: 0 }));
    const b = withRates(a, sample(10_000, { records: 1_000, busy: 5_000, idle: 5_000 }));
    const unchanged = withRates(b, sample(19_900, { records: 1_000, busy: 5_000, idle: 5_000 }));
    expect(rates(unchanged).recordsInPerSecond[0]).toBe(100);
    expect(unchanged.vertices[0].subtasks!.countersSince[0]).toBe(10_000);
    // The counters moved again: 2,000 more records over the 20 s of the subtask's clock since they were last seen to change.
    const c = withRates(unchanged, sample(30_000, { records: 3_000, busy: 15_000, idle: 15_000 }));
    expect(rates(c).recordsInPerSecond[0]).toBe(100);
    expect(rates(c).busyTimeMsPerSecond[0]).toBe(500);
  });

  it('divides by the subtask\'s own clock, not by the time between the console\'s samples', () => {
    // The JobManager refreshed 12 s of the subtask's time into one 10 s interval between samples (two refreshes).
    const a = withRates(undefined, sample(0, { records: 0, busy: 0, bp: 0, idle: 0 }));
    const b = withRates(a, sample(10_000, { records: 1_200, busy: 6_000, bp: 3_600, idle: 2_400 }));
    expect(rates(b).recordsInPerSecond[0]).toBeCloseTo(100, 6);
    expect(rates(b).busyTimeMsPerSecond[0]).toBeCloseTo(500, 3);
    expect(rates(b).backPressuredTimeMsPerSecond[0]).toBeCloseTo(300, 3);
    expect(rates(b).idleTimeMsPerSecond[0]).toBeCloseTo(200, 3);
  });

  it('gives no rate from a first reading far older than its sighting (a JobManager nobody polled for 10 min)', () => {
    // First seen at t = 0, but read 10 min earlier; the warm-up sample 2 s later has a fresh reading.
    const a = withRates(undefined, sample(0, { records: 0, busy: 0, bp: 0, idle: 0 }));
    const b = withRates(a, sample(2_000, { records: 60_200, busy: 300_000, bp: 0, idle: 302_000 }));
    expect(Number.isNaN(rates(b).recordsInPerSecond[0])).toBe(true);
    expect(Number.isNaN(rates(b).busyTimeMsPerSecond[0])).toBe(true);
    // From the fresh reading on, rates again.
    const c = withRates(b, sample(12_000, { records: 61_200, busy: 305_000, bp: 0, idle: 307_000 }));
    expect(rates(c).recordsInPerSecond[0]).toBe(100);
  });

  it('keeps busy + back-pressured + idle at 1000 when Flink\'s derived busy time steps back (idle accounted late)', () => {
    // A near-idle subtask: an idle period accounted in one piece, so accumulated busy (wall − idle − bp) goes down.
    const a = withRates(undefined, sample(0, { records: 0, busy: 1_500, bp: 0, idle: 98_500 }));
    const b = withRates(a, sample(10_000, { records: 10, busy: 1_400, bp: 0, idle: 108_600 }));
    const r = rates(b);
    expect(r.busyTimeMsPerSecond[0] + r.backPressuredTimeMsPerSecond[0] + r.idleTimeMsPerSecond[0]).toBe(1000);
    expect(r.busyTimeMsPerSecond[0]).toBe(0);
    expect(r.recordsInPerSecond[0]).toBe(1);
  });

  it('falls back to the time between first sightings where the cluster reports no accumulated times', () => {
    const a = withRates(undefined, sample(0, { records: 0, busy: Number.NaN }));
    const b = withRates(a, sample(10_000, { records: 1_000, busy: Number.NaN }));
    expect(rates(b).recordsInPerSecond[0]).toBe(100);
    expect(Number.isNaN(rates(b).busyTimeMsPerSecond[0])).toBe(true);
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
    const a = withRates(undefined, sample(0, { records: 0, busy: Number.NaN }));
    const b = withRates(a, sample(10_000, { records: 10, busy: Number.NaN }));
    expect(Number.isNaN(rates(b).busyTimeMsPerSecond[0])).toBe(true);
    const c = withRates(undefined, sample(0, { busy: 0, idle: Number.NaN }));
    // Busy known, idle not: no clock, so the time between samples stands in, and the cap holds.
    expect(rates(withRates(c, sample(10_000, { busy: 10_400, idle: Number.NaN }))).busyTimeMsPerSecond[0]).toBe(1000);
  });
});

/**
 * Rates on a real JobManager's refresh schedule: the store refreshes at its own period and phase (slower, faster or as
 * fast as the console samples, jittered, a refresh skipped), the console samples every 10 s with a phase that drifts.
 * Every rate must be the subtasks' exact one, and busy + back-pressured + idle must be 1000 ms/s, on every schedule.
 */
describe('withRates on a JobManager that refreshes on its own schedule', () => {
  const subtasks: SimulatedSubtask[] = [
    { busy: 1000, backPressured: 0, idle: 0, recordsPerSecond: 380 },
    { busy: 240, backPressured: 690, idle: 70, recordsPerSecond: 95.5 },
    { busy: 12, backPressured: 0, idle: 988, recordsPerSecond: 3.25 },
  ];
  const schedules: Array<[string, Schedule]> = [
    ['slower than the sampling (25 s)', { periodMs: 25_000, phaseMs: 1_300 }],
    ['faster than the sampling (3 s, as the Web UI polls)', { periodMs: 3_000, phaseMs: 700 }],
    ['as fast as the sampling (10 s)', { periodMs: 10_000, phaseMs: 4_900 }],
    ['jittered (10 s ± 4 s)', { periodMs: 10_000, phaseMs: 2_000, jitterMs: 4_000 }],
    ['with refreshes skipped (7 s, a third skipped)', { periodMs: 7_000, phaseMs: 300, skipShare: 0.33 }],
  ];
  for (const [name, schedule] of schedules) {
    it(name, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const random = seededRandom(seed);
        const startedAt = 1_000_000;
        const jm = { startedAt, readLagMs: random() * 900, subtasks, refreshes: refreshTimes(schedule, startedAt, startedAt + 400_000, random) };
        // The console's samples: every 10 s, their phase drifting by up to 0.2 s a sample.
        let previous: JobSample | undefined;
        let measured = 0;
        for (let i = 0, t = startedAt + random() * 10_000; i < 35; i++, t += 10_000 + random() * 200) {
          previous = withRates(previous, sampleAt(jm, t));
          const r = rates(previous);
          subtasks.forEach((s, k) => {
            if (!Number.isFinite(r.recordsInPerSecond[k])) return;
            measured++;
            const context = `seed ${seed}, sample ${i}, subtask ${k}`;
            expect(r.busyTimeMsPerSecond[k] + r.backPressuredTimeMsPerSecond[k] + r.idleTimeMsPerSecond[k], context).toBeCloseTo(1000, 1);
            expect(r.busyTimeMsPerSecond[k], context).toBeCloseTo(s.busy, 1);
            expect(r.recordsInPerSecond[k] / s.recordsPerSecond, context).toBeCloseTo(1, 5);
            expect(r.bytesOutPerSecond[k] / (s.recordsPerSecond * 100), context).toBeCloseTo(1, 5);
          });
        }
        // Not vacuous: most samples after the first refreshes had rates.
        expect(measured, `seed ${seed}`).toBeGreaterThan(subtasks.length * 20);
      }
    });
  }
});
