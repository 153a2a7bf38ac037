import { afterEach, describe, expect, it } from 'vitest';
import { newTriggerId } from './operations.ts';
import { startOperationsKit, type OperationsKit } from './testing/operations-kit.ts';

/**
 * The console's in-place rescale against a local engine that keeps Flink 2.3's rescale history: the outcome is the
 * engine's record of the rescale (its UUID in the journal), not what the console observes of the job.
 */
let kit: OperationsKit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const HISTORY_ON = { flinkVersion: '2.3.0' as const, flinkConfiguration: { 'web.adaptive-scheduler.rescale-history.size': '20' } };

describe('adaptive rescale with the local engine\'s rescale history', () => {
  it('COMPLETED: the outcome and the journal carry the engine\'s record, each vertex 4 → 6', async () => {
    kit = await startOperationsKit(HISTORY_ON);
    kit.handle.engine.advance(15_000);
    const outcome = await (await kit.operations.start({ kind: 'rescale', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), parallelism: 6 })).done;
    const job = kit.handle.engine.cluster.jobs.get(kit.jobId)!;
    const own = job.rescales!.history().find((r) => r.triggerCause === 'UPDATE_REQUIREMENT')!;
    expect(outcome).toMatchObject({ state: 'succeeded', outcomeSource: 'rescale-history', rescaleRecord: { rescaleUuid: own.rescaleUuid, terminalState: 'COMPLETED', terminatedReason: 'SUCCEEDED' } });
    expect(outcome.rescaleRecord!.vertices.length).toBe(job.jobGraph.vertices.length);
    expect(outcome.rescaleRecord!.vertices.every((v) => v.after === 6)).toBe(true);
    expect(kit.operations.journal.list().find((e) => e.id === outcome.id)?.rescaleRecord?.rescaleUuid).toBe(own.rescaleUuid);
  }, 60_000);

  it('more than the cluster\'s slots: failed with Flink\'s IGNORED reason in words and the slots there are', async () => {
    kit = await startOperationsKit({ ...HISTORY_ON, taskManagers: 2, slotsPerTaskManager: 2 });
    kit.handle.engine.advance(15_000);
    const total = kit.handle.engine.cluster.slotsTotal;
    const job = kit.handle.engine.cluster.jobs.get(kit.jobId)!;
    const current = Math.max(...job.jobGraph.vertices.map((v) => v.parallelism));
    expect(total).toBe(current); // the job holds every slot: nothing to grow into
    const outcome = await (await kit.operations.start({ kind: 'rescale', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), parallelism: total + 4 })).done;
    expect(outcome).toMatchObject({ state: 'failed', outcomeSource: 'rescale-history', rescaleRecord: { terminalState: 'IGNORED', terminatedReason: 'NO_RESOURCES_OR_PARALLELISMS_CHANGE' } });
    expect(outcome.failure).toMatch(/not enough slots to change the parallelism/);
  }, 60_000);

  it('without the history (size 0) the outcome is observed, as on an older Flink', async () => {
    kit = await startOperationsKit({ flinkVersion: '2.3.0' });
    kit.handle.engine.advance(15_000);
    const outcome = await (await kit.operations.start({ kind: 'rescale', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), parallelism: 6 })).done;
    expect(outcome).toMatchObject({ state: 'succeeded', outcomeSource: 'observed' });
    expect(outcome.rescaleRecord ?? null).toBeNull();
  }, 60_000);
});
