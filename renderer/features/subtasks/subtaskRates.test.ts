import { describe, expect, it } from 'vitest';
import type { SubtaskRow, VertexSubtasks } from '../../../engine/contracts/jobs';
import { INITIAL_RATE_STATE, matchByIndex, nextRateState, ratesBetween } from './subtaskRates';

function row(index: number, patch: Partial<SubtaskRow> = {}): SubtaskRow {
  return {
    index,
    attempt: 0,
    status: 'RUNNING',
    endpoint: '127.0.0.1:41000',
    taskManagerId: 'tm',
    recordsIn: 1000,
    recordsOut: 900,
    bytesIn: 50_000,
    bytesOut: 40_000,
    clockMs: null,
    busyTimeMsPerSecond: 100,
    backPressuredTimeMsPerSecond: 0,
    idleTimeMsPerSecond: 900,
    backpressureLevel: 'ok',
    watermark: null,
    ...patch,
  };
}

function sample(fetchedAt: number, subtasks: SubtaskRow[], vertexId = 'v'): VertexSubtasks {
  return { clusterId: 'c', jobId: 'j', vertexId, name: 'n', parallelism: subtasks.length, subtasks, backpressureLevel: 'ok', fetchedAt, requestCount: 3 };
}

describe('subtask rates from two consecutive refreshes', () => {
  it('per second over the time between the refreshes, matched by subtask index', () => {
    const before = sample(10_000, [row(0), row(1)]);
    const after = sample(20_000, [row(1, { recordsIn: 6000, recordsOut: 900, bytesIn: 150_000, bytesOut: 40_000 }), row(0, { recordsIn: 1500 })]);
    const rates = ratesBetween(before, after);
    expect(rates.get(1)).toEqual({ recordsInPerSecond: 500, recordsOutPerSecond: 0, bytesInPerSecond: 10_000, bytesOutPerSecond: 0 });
    expect(rates.get(0)?.recordsInPerSecond).toBe(50);
  });

  it("over the subtask's own clock where Flink reports it: the JobManager refreshed 12 s of it between requests 10 s apart", () => {
    const before = sample(10_000, [row(0, { clockMs: 60_000 })]);
    const after = sample(20_000, [row(0, { recordsIn: 1000 + 6000, clockMs: 72_000 })]);
    expect(ratesBetween(before, after).get(0)?.recordsInPerSecond).toBe(500);
    // The counters did not move because the JobManager did not refresh (the clock stood still too): the rate stands,
    // however many refreshes repeat it; once the clock moves without records, 0/s is real.
    let state = nextRateState(nextRateState(INITIAL_RATE_STATE, before), after);
    for (const t of [30_000, 40_000, 50_000]) state = nextRateState(state, sample(t, [row(0, { recordsIn: 7000, clockMs: 72_000 })]));
    expect(state.rates.get(0)?.recordsInPerSecond).toBe(500);
    state = nextRateState(state, sample(60_000, [row(0, { recordsIn: 7000, clockMs: 82_000 })]));
    expect(state.rates.get(0)?.recordsInPerSecond).toBe(0);
    // A JobManager that stops refreshing: after a minute of standing clocks, no rate is current.
    for (const t of [90_000, 121_000]) state = nextRateState(state, sample(t, [row(0, { recordsIn: 7000, clockMs: 82_000 })]));
    expect(state.rates.get(0)).toBeUndefined();
  });

  it('no rate for a subtask that restarted (counters reset), is not running, or is new', () => {
    const before = sample(0, [row(0), row(1), row(2)]);
    const after = sample(10_000, [row(0, { attempt: 1, recordsIn: 10 }), row(1, { status: 'FAILED', recordsIn: 2000 }), row(2, { recordsIn: 500 }), row(3)]);
    const rates = ratesBetween(before, after);
    expect(rates.get(0)?.recordsInPerSecond).toBeNull();
    expect(rates.get(1)?.recordsInPerSecond).toBeNull();
    expect(rates.get(2)?.recordsInPerSecond).toBeNull(); // went down: not the same counter any more
    expect(rates.get(3)?.recordsInPerSecond).toBeNull();
  });

  it('the first refresh has no rates; a repeated sample (the JobManager\'s metric cache) keeps the last ones once', () => {
    let state = nextRateState(INITIAL_RATE_STATE, sample(0, [row(0)]));
    expect(state.rates.size).toBe(0);
    state = nextRateState(state, sample(10_000, [row(0, { recordsIn: 2000 })]));
    expect(state.rates.get(0)?.recordsInPerSecond).toBe(100);
    // Same totals again: the cache was not refreshed yet; the rate of the last real step stays.
    state = nextRateState(state, sample(20_000, [row(0, { recordsIn: 2000 })]));
    expect(state.rates.get(0)?.recordsInPerSecond).toBe(100);
    // The same sample computed twice (React) changes nothing.
    expect(nextRateState(state, sample(20_000, [row(0, { recordsIn: 2000 })]))).toBe(state);
    // Still the same on the next refresh: the traffic really stopped.
    state = nextRateState(state, sample(30_000, [row(0, { recordsIn: 2000 })]));
    expect(state.rates.get(0)?.recordsInPerSecond).toBe(0);
    // Moving again: measured from the last sample.
    state = nextRateState(state, sample(40_000, [row(0, { recordsIn: 2300 })]));
    expect(state.rates.get(0)?.recordsInPerSecond).toBe(30);
  });

  it('starts over for another vertex', () => {
    const state = nextRateState(nextRateState(INITIAL_RATE_STATE, sample(0, [row(0)], 'a')), sample(10_000, [row(0, { recordsIn: 9000 })], 'b'));
    expect(state.rates.size).toBe(0);
  });
});

describe('matchByIndex', () => {
  it('finds a subtask at its place, or wherever it moved to, or nowhere', () => {
    const earlier = [row(0), row(1), row(2)];
    const find = matchByIndex(earlier);
    expect(find(1, 1)).toBe(earlier[1]);
    expect(find(2, 0)).toBe(earlier[2]);
    expect(find(0, 5)).toBe(earlier[0]);
    expect(find(7, 0)).toBeUndefined();
  });
});
