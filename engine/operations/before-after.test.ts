import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../clusters/cluster-connections.ts';
import { readJobWindow } from '../diagnosis/read-window.ts';
import { ManualClock } from '../local/time/clock.ts';
import { JobWatcher } from '../sampling/job-watcher.ts';
import type { RehearsedPrediction } from '../contracts/before-after.ts';
import { predictionFor, BEFORE_AFTER_WINDOW_MS } from './before-after.ts';
import { newTriggerId } from './operations.ts';
import { startOperationsKit, type OperationsKit } from './testing/operations-kit.ts';

/**
 * Before vs after a rescale of hot-tenant on the local engine (manual clock), from the history the console sampled:
 * acme saturates tenant-cost subtask 12 at parallelism 32; the rescale moves tenant-cost to 16.
 */
let kit: OperationsKit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

describe('before/after an operation', () => {
  it('a rescale of hot-tenant: the figures before and once the job runs again, as the history\u2019s samples give them, kept in the journal once complete', async () => {
    // The history keeps samples of the last days (its retention runs on the real clock): the engine's clock ends near now.
    kit = await startOperationsKit({ scenario: 'hot-tenant', rate: 6500, clock: new ManualClock(Date.now() - 10 * 60_000) });
    const k = kit;
    const watcher = new JobWatcher({ history: k.history, connection: () => connect(k.client), now: () => k.handle.engine.now() });
    const sample = async (count: number) => {
      for (let i = 0; i < count; i++) {
        k.handle.engine.advance(10_000);
        await watcher.sampleNow('local', k.jobId);
      }
    };
    // Past acme's shift (30 s) and the saturation, then two minutes of samples.
    await sample(18);
    const tenantCost = k.handle.engine.cluster.jobs.get(k.jobId)!.jobGraph.vertices.find((v) => v.name.startsWith('tenant-cost'))!;
    // Two rehearsals kept before it (as the rehearsal service keeps a prediction): of this change and of another one.
    const rehearsed = (parallelism: number, at: number): RehearsedPrediction => ({
      rehearsedAt: at,
      proposal: { kind: 'parallelism', parallelism },
      vertexId: tenantCost.id,
      vertexName: tenantCost.name,
      baseline: { busyMaxOverMean: 23, throughputRecordsPerSecond: 625 },
      predicted: { busyMaxOverMean: parallelism === 16 ? 12 : 40, throughputRecordsPerSecond: 630 },
      sentence: `parallelism ${parallelism}`,
    });
    await k.history.rehearsals.append('local', k.jobId, rehearsed(16, k.handle.engine.now() - 60_000));
    await k.history.rehearsals.append('local', k.jobId, rehearsed(64, k.handle.engine.now() - 30_000));
    const entry = await (await k.operations.start({ kind: 'rescale', clusterId: 'local', jobId: k.jobId, triggerId: newTriggerId(), parallelism: { [tenantCost.id]: 16 }, route: 'adaptive' })).done;
    expect(entry.state).toBe('succeeded');

    // Just finished: the before side is there, the after side waits for samples and says so.
    const early = await k.operations.beforeAfter(entry.id);
    expect(early.after).toBeNull();
    expect(early.complete).toBe(false);
    expect(early.notes.join(' ')).toMatch(/No samples of job [0-9a-f]{32} running again yet/);

    await sample(14);
    const result = await k.operations.beforeAfter(entry.id);
    expect(result).toMatchObject({ entryId: entry.id, kind: 'rescale', clusterId: 'local', complete: true, startedAt: entry.createdAt });
    expect(result.runningAgainAt).toBeGreaterThan(entry.createdAt);
    // The rehearsal of this change (parallelism 16, not the newer one of 64) beside what happened.
    expect(result.prediction).toMatchObject({ proposal: { kind: 'parallelism', parallelism: 16 }, predicted: { busyMaxOverMean: 12 } });
    const before = result.before!;
    const after = result.after!;

    // Each side is the history's samples of its window: counted, and the figures its per-subtask means give.
    for (const [side, from, to] of [
      [before, entry.createdAt - BEFORE_AFTER_WINDOW_MS, entry.createdAt],
      [after, result.runningAgainAt!, result.runningAgainAt! + BEFORE_AFTER_WINDOW_MS],
    ] as const) {
      const heads = k.history.samples.heads('local', k.jobId, from, to);
      expect(side.samples).toBe(heads.length);
      expect(side.samples).toBeGreaterThanOrEqual(10);
      const window = readJobWindow(k.history, 'local', k.jobId, from, to);
      const cost = window.vertices.find((v) => v.id === tenantCost.id)!;
      const busy = Array.from(cost.mean.busyTimeMsPerSecond);
      expect(side.skew).toMatchObject({ vertexId: tenantCost.id, maxBusyMsPerSecond: Math.max(...busy) });
      expect(side.skew!.maxOverMean).toBeCloseTo(Math.max(...busy) / (busy.reduce((a, b) => a + b, 0) / busy.length), 9);
      const source = window.vertices.find((v) => v.name.startsWith('Source'))!;
      expect(side.throughputRecordsPerSecond).toBeCloseTo(Array.from(source.mean.recordsOutPerSecond).reduce((a, b) => a + b, 0), 6);
      const completed = k.history.checkpoints.list('local', k.jobId, side.from, side.to).filter((c) => c.status === 'COMPLETED' && !c.isSavepoint);
      expect(side.checkpoints?.count).toBe(completed.length);
      expect(side.stateBytes).toBe(completed.at(-1)?.stateBytes ?? null);
    }
    // Before: subtask 12 saturated at 32 subtasks (about 23× the mean). After, at 16: acme still on one subtask.
    expect(before.busiest).toMatchObject({ vertexId: tenantCost.id, subtask: 12 });
    expect(before.busiest!.busyTimeMsPerSecond).toBeGreaterThan(900);
    expect(before.skew!.maxOverMean).toBeGreaterThan(15);
    expect(readJobWindow(k.history, 'local', k.jobId, after.from, after.to).vertices.find((v) => v.id === tenantCost.id)!.parallelism).toBe(16);
    expect(after.skew!.maxOverMean).toBeLessThan(before.skew!.maxOverMean);
    expect(after.checkpoints!.count).toBeGreaterThan(0);

    expect(result.rows.map((r) => [r.figure, r.before, r.after])).toEqual([
      ['skew', before.skew!.maxOverMean, after.skew!.maxOverMean],
      ['busiest', before.busiest!.busyTimeMsPerSecond, after.busiest!.busyTimeMsPerSecond],
      ['throughput', before.throughputRecordsPerSecond, after.throughputRecordsPerSecond],
      ['checkpointDuration', before.checkpoints?.meanDurationMs ?? null, after.checkpoints!.meanDurationMs],
      ['stateSize', before.stateBytes, after.stateBytes],
    ]);
    // Complete: the journal entry keeps it.
    expect(k.operations.journal.get(entry.id)?.beforeAfter).toEqual(result);
  }, 120_000);

  it('through a savepoint (a new job, as a salted job deployed by a resubmit is): before is the old job’s samples, after the new one’s', async () => {
    kit = await startOperationsKit({ scenario: 'hot-tenant', rate: 1000, clock: new ManualClock(Date.now() - 10 * 60_000) });
    const k = kit;
    const watcher = new JobWatcher({ history: k.history, connection: () => connect(k.client), now: () => k.handle.engine.now() });
    const sample = async (jobId: string, count: number) => {
      for (let i = 0; i < count; i++) {
        k.handle.engine.advance(10_000);
        await watcher.sampleNow('local', jobId);
      }
    };
    await sample(k.jobId, 6);
    const context = await k.operations.operationsContext('local', k.jobId);
    const entry = await (await k.operations.start({ kind: 'rescale', clusterId: 'local', jobId: k.jobId, triggerId: newTriggerId(), parallelism: 2, route: 'savepoint', program: context.resubmitDefaults.program! })).done;
    expect(entry.state).toBe('succeeded');
    await sample(entry.newJobId!, 4);
    const result = await k.operations.beforeAfter(entry.id);
    expect(result.before).toMatchObject({ jobId: k.jobId, samples: k.history.samples.heads('local', k.jobId, entry.createdAt - BEFORE_AFTER_WINDOW_MS, entry.createdAt).length });
    expect(result.after).toMatchObject({ jobId: entry.newJobId, samples: 4 });
    expect(result.runningAgainAt).toBe(k.history.samples.heads('local', entry.newJobId!, entry.createdAt, k.handle.engine.now())[0].t);
    expect(result.complete).toBe(false);
    expect(result.notes).toEqual([`The after window is still filling: ${(result.after!.to - result.after!.from) / 1000} s of 120 s so far.`]);
    // Not complete: nothing kept in the journal yet.
    expect(k.operations.journal.get(entry.id)?.beforeAfter).toBeUndefined();
  }, 120_000);

  it('refuses what has nothing to compare', async () => {
    kit = await startOperationsKit();
    const savepoint = await (await kit.operations.start({ kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() })).done;
    await expect(kit.operations.beforeAfter(savepoint.id)).rejects.toThrow('A savepoint changes no figures of the job: before/after compares a rescale or a resubmit.');
    await expect(kit.operations.beforeAfter('f'.repeat(32))).rejects.toThrow(/^No operation with trigger id f{32} in the journal\.$/);
  }, 60_000);
});

describe('predictionFor', () => {
  const prediction = (proposal: RehearsedPrediction['proposal'], at: number): RehearsedPrediction => ({
    rehearsedAt: at,
    proposal,
    vertexId: 'v',
    vertexName: 'tenant-cost',
    baseline: { busyMaxOverMean: 23, throughputRecordsPerSecond: 625 },
    predicted: { busyMaxOverMean: 2, throughputRecordsPerSecond: 1000 },
    sentence: '',
  });
  const newestFirst = [prediction({ kind: 'parallelism', parallelism: 64 }, 3), prediction({ kind: 'salt', buckets: 8 }, 2), prediction({ kind: 'parallelism', parallelism: 16 }, 1)];

  it('takes the rehearsal of the same change: the vertex at the parallelism, or salting for a resubmit that added a stage', () => {
    expect(predictionFor({ kind: 'rescale', params: { parallelism: { v: 16 } } }, false, newestFirst)?.rehearsedAt).toBe(1);
    expect(predictionFor({ kind: 'rescale', params: { parallelism: { v: 32 } } }, false, newestFirst)).toBeNull();
    expect(predictionFor({ kind: 'resubmit', params: {} }, true, newestFirst)?.proposal).toEqual({ kind: 'salt', buckets: 8 });
    // A resubmit of the same shape (a config change, a jar upgrade) is not the salting.
    expect(predictionFor({ kind: 'resubmit', params: {} }, false, newestFirst)).toBeNull();
  });
});
