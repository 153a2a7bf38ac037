import { describe, expect, it } from 'vitest';
import { emptySubtaskColumns, stateCode, type JobSample, type VertexSample } from '../history/job-sample.ts';
import { withRates } from '../sampling/sample-rates.ts';
import { refreshTimes, sampleAt, seededRandom, type Schedule, type SimulatedSubtask } from '../sampling/testing/refreshing-jobmanager.ts';
import { buildWindow, uniform } from './testing/window-builder.ts';
import { jobWindowStats, vertexWindowStats, type VertexAt } from './window-stats.ts';

/**
 * One subtask of one vertex with the given counters (records, busy ms) first seen at `since`, in a job watched for a
 * while (its samples have rates); `first: true` is the first sample of a watch (no rate yet).
 */
function at(t: number, c: { records: number; busy: number; since?: number; attempt?: number; rate?: number; first?: boolean }): VertexAt {
  const subtasks = emptySubtaskColumns(1);
  subtasks.counters.recordsIn[0] = c.records;
  subtasks.counters.accumulatedBusyMs[0] = c.busy;
  subtasks.countersSince[0] = c.since ?? t;
  subtasks.attempt[0] = c.attempt ?? 0;
  subtasks.state[0] = stateCode('RUNNING');
  const rate = c.first ? Number.NaN : (c.rate ?? 1);
  subtasks.rates.busyTimeMsPerSecond[0] = rate;
  subtasks.rates.recordsInPerSecond[0] = rate;
  const vertex: VertexSample = { id: 'v', name: 'v', parallelism: 1, maxParallelism: 128, status: 'RUNNING', subtasks };
  return { t, vertex };
}

describe('vertexWindowStats', () => {
  it('takes means from the counters (first and last sighting), not from averaging rates', () => {
    // 100 records/s for 10 s, then 1,000 records/s for 50 s: the mean over 60 s is 850, whatever the sample spacing.
    const stats = vertexWindowStats([at(0, { records: 0, busy: 0 }), at(10_000, { records: 1_000, busy: 1_000 }), at(60_000, { records: 51_000, busy: 46_000 })]);
    expect(stats.mean.recordsInPerSecond[0]).toBeCloseTo(850, 9);
    expect(stats.mean.busyTimeMsPerSecond[0]).toBeCloseTo(766.67, 1);
    expect(stats.coveredMs[0]).toBe(60_000);
  });

  it('times the counters by when their values were first seen (the JobManager refreshes them on its own schedule)', () => {
    // The last two samples show the same counters: the values were first seen at 20 s, not at 30 s.
    const stats = vertexWindowStats([at(0, { records: 0, busy: 0 }), at(20_000, { records: 2_000, busy: 4_000 }), at(30_000, { records: 2_000, busy: 4_000, since: 20_000 })]);
    expect(stats.mean.recordsInPerSecond[0]).toBe(100);
    expect(stats.mean.busyTimeMsPerSecond[0]).toBe(200);
  });

  it('starts the count at the first change after a watch began: the first values are of unknown age', () => {
    // 100 records/s. The JobManager fetches on demand, at most every 10 s: samples at 0 and 10 s show values it
    // fetched at −9 s, the sample at 20 s values from 10 s, the one at 40 s values from 30 s.
    const c = (m: number) => 10_000 + 100 * m;
    const stats = vertexWindowStats([
      at(0, { records: c(-9), busy: 0, first: true }),
      at(10_000, { records: c(-9), busy: 0, since: 0, first: true }),
      at(20_000, { records: c(10), busy: 0 }),
      at(30_000, { records: c(10), busy: 0, since: 20_000 }),
      at(40_000, { records: c(30), busy: 0 }),
    ]);
    expect(stats.mean.recordsInPerSecond[0]).toBe(100);
  });

  it('measures a subtask that restarted inside the window from its new attempt on, and says so', () => {
    const stats = vertexWindowStats([
      at(0, { records: 0, busy: 0 }),
      at(10_000, { records: 50_000, busy: 9_000 }),
      at(20_000, { records: 10, busy: 10, attempt: 1 }),
      at(40_000, { records: 4_010, busy: 8_010, attempt: 1 }),
    ]);
    expect(stats.restarted[0]).toBe(1);
    expect(stats.mean.recordsInPerSecond[0]).toBe(200);
    expect(stats.mean.busyTimeMsPerSecond[0]).toBe(400);
    expect(stats.attempt[0]).toBe(1);
  });

  it('restarts the count where a counter went backwards without a new attempt (a JobManager that recovered the job)', () => {
    const stats = vertexWindowStats([at(0, { records: 5_000, busy: 0 }), at(10_000, { records: 6_000, busy: 0 }), at(20_000, { records: 100, busy: 0 }), at(30_000, { records: 1_100, busy: 0 })]);
    expect(stats.restarted[0]).toBe(1);
    expect(stats.mean.recordsInPerSecond[0]).toBe(100);
  });

  it('keeps missing figures NaN, never 0, and falls back to the carried rate when the counters did not move', () => {
    const missing = vertexWindowStats([at(0, { records: Number.NaN, busy: Number.NaN, first: true }), at(10_000, { records: Number.NaN, busy: Number.NaN, first: true })], {
      maxima: ['busyTimeMsPerSecond'],
    });
    expect(Number.isNaN(missing.mean.recordsInPerSecond[0])).toBe(true);
    expect(Number.isNaN(missing.max.busyTimeMsPerSecond![0])).toBe(true);
    const frozen = vertexWindowStats([at(0, { records: 10, busy: 10, rate: 640 }), at(5_000, { records: 10, busy: 10, since: 0, rate: 640 })]);
    expect(frozen.mean.busyTimeMsPerSecond[0]).toBe(640);
  });

  it('takes maxima from the per-sample rates, for the rates asked for', () => {
    const samples = [at(0, { records: 0, busy: 0, rate: 100 }), at(10_000, { records: 0, busy: 9_000, rate: 900 }), at(20_000, { records: 0, busy: 10_000, rate: 100 })];
    const stats = vertexWindowStats(samples, { maxima: ['busyTimeMsPerSecond'] });
    expect(stats.max.busyTimeMsPerSecond![0]).toBeCloseTo(900, 3);
    expect(stats.max.recordsInPerSecond).toBeUndefined();
    expect(stats.mean.busyTimeMsPerSecond[0]).toBe(500);
  });

  it('says why there are no figures for a vertex the cluster gave none of', () => {
    const unavailable: VertexSample = { id: 'v', name: 'v', parallelism: 2, maxParallelism: 128, status: 'FINISHED', subtasks: null, unavailable: 'the vertex is FINISHED' };
    const stats = vertexWindowStats([{ t: 0, vertex: unavailable }]);
    expect(stats.unavailable).toBe('the vertex is FINISHED');
    expect(stats.samples).toBe(0);
    expect(vertexWindowStats([]).unavailable).toBe('no samples in the window');
  });
});

describe('jobWindowStats', () => {
  it('aggregates every vertex of a built window exactly: the rates the builder was given come back', () => {
    const samples = buildWindow({
      vertices: [
        { id: 'a', name: 'Source: a', subtasks: uniform(2, { busy: 300, bp: 600, recordsOut: 500 }) },
        { id: 'b', name: 'b', subtasks: [{ busy: 1000, recordsIn: 700 }, { busy: 120, recordsIn: 300 }] },
      ],
      edges: [['a', 'b']],
    });
    const window = jobWindowStats(samples);
    expect(window.samples).toBe(7);
    expect(window.to - window.from).toBe(60_000);
    const [a, b] = window.vertices;
    expect(Array.from(a.mean.backPressuredTimeMsPerSecond)).toEqual([600, 600]);
    expect(Array.from(a.mean.recordsOutPerSecond)).toEqual([500, 500]);
    expect(Array.from(b.mean.busyTimeMsPerSecond)).toEqual([1000, 120]);
    expect(Array.from(b.mean.bytesInPerSecond)).toEqual([70_000, 30_000]);
    expect(window.taskManagers.map((tm) => tm.id)).toEqual(['tm-0', 'tm-1']);
    expect(Array.from(b.taskManager)).toEqual([0, 1]);
  });

  it('flags a JobManager failover inside the window', () => {
    const samples = buildWindow({ vertices: [{ id: 'a', name: 'a', subtasks: uniform(1, { busy: 10 }) }] });
    samples[4] = { ...samples[4], jobStartTime: samples[4].jobStartTime + 1 };
    expect(jobWindowStats(samples).jobRecovered).toBe(true);
  });
});

/** Window means on a real JobManager's refresh schedule (see refreshing-jobmanager.ts): exact, and adding up. */
describe('vertexWindowStats on a JobManager that refreshes on its own schedule', () => {
  const subtasks: SimulatedSubtask[] = [
    { busy: 1000, backPressured: 0, idle: 0, recordsPerSecond: 410 },
    { busy: 299, backPressured: 644, idle: 57, recordsPerSecond: 120 },
    { busy: 8, backPressured: 0, idle: 992, recordsPerSecond: 2.5 },
  ];
  const schedules: Schedule[] = [
    { periodMs: 25_000, phaseMs: 1_300 },
    { periodMs: 3_000, phaseMs: 700 },
    { periodMs: 10_000, phaseMs: 4_900 },
    { periodMs: 10_000, phaseMs: 2_000, jitterMs: 4_000 },
    { periodMs: 7_000, phaseMs: 300, skipShare: 0.33 },
  ];
  it('busy + back-pressured + idle means are 1000 ms/s and the record rates exact, on every schedule and sampling phase', () => {
    for (const [i, schedule] of schedules.entries()) {
      for (let seed = 1; seed <= 20; seed++) {
        const random = seededRandom(seed * 31 + i);
        const startedAt = 5_000_000;
        const jm = { startedAt, readLagMs: random() * 900, subtasks, refreshes: refreshTimes(schedule, startedAt, startedAt + 200_000, random) };
        let previous: JobSample | undefined;
        const window: VertexAt[] = [];
        // A 1-minute window (the default), sampled every 10 s from a random phase, ending 2 minutes in.
        for (let t = startedAt + 60_000 + random() * 10_000; t < startedAt + 130_000; t += 10_000 + random() * 200) {
          previous = withRates(previous, sampleAt(jm, t));
          window.push({ t, vertex: previous.vertices[0], jobStartTime: startedAt });
        }
        const { mean } = vertexWindowStats(window);
        subtasks.forEach((s, k) => {
          const context = `schedule ${i}, seed ${seed}, subtask ${k}`;
          expect(mean.busyTimeMsPerSecond[k] + mean.backPressuredTimeMsPerSecond[k] + mean.idleTimeMsPerSecond[k], context).toBeCloseTo(1000, 6);
          expect(mean.backPressuredTimeMsPerSecond[k], context).toBeCloseTo(s.backPressured, 6);
          expect(mean.recordsInPerSecond[k] / s.recordsPerSecond, context).toBeCloseTo(1, 9);
        });
      }
    }
  });
});

describe('vertexWindowStats when Flink\'s derived busy time steps back', () => {
  it('adds up to 1000 and calls it no restart', () => {
    const at = (t: number, busy: number, idle: number, previous?: JobSample): JobSample => {
      const sample = sampleAt({ startedAt: 0, subtasks: [{ busy: 0, backPressured: 0, idle: 1000, recordsPerSecond: 1 }], refreshes: [t - 1] }, t);
      const c = sample.vertices[0].subtasks!.counters;
      c.accumulatedBusyMs[0] = busy;
      c.accumulatedIdleMs[0] = idle;
      return withRates(previous, sample);
    };
    const s0 = at(100_000, 1_500, 98_499);
    const s1 = at(110_000, 1_560, 108_439, s0);
    const s2 = at(120_000, 1_400, 118_599, s1);
    const stats = vertexWindowStats([s0, s1, s2].map((s) => ({ t: s.t, vertex: s.vertices[0], jobStartTime: 0 })));
    expect(stats.mean.busyTimeMsPerSecond[0] + stats.mean.backPressuredTimeMsPerSecond[0] + stats.mean.idleTimeMsPerSecond[0]).toBeCloseTo(1000, 9);
    expect(stats.restarted[0]).toBe(0);
  });
});
