import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localPathOf } from '../local/checkpoint/checkpoint-storage.ts';
import { newTriggerId } from './operations.ts';
import { engineTriggers, startOperationsKit, type OperationsKit } from './testing/operations-kit.ts';

/**
 * The operations end to end against the local engine on a manual clock: what the journal records, what the cluster
 * receives (its trigger log), and what happens to the job.
 */

let kit: OperationsKit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

function savepointOnDisk(location: string): boolean {
  return existsSync(path.join(localPathOf(location), '_metadata'));
}

describe('savepoint', () => {
  it('is journaled before it is sent, polled to its path, and triggered once however often it is asked for', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const triggerId = newTriggerId();
    const request = { kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId, format: 'canonical' } as const;
    const first = await kit.operations.start(request);
    expect(first.entry).toMatchObject({ id: triggerId, kind: 'savepoint', state: 'pending', phase: 'trigger', jobName: 'gatewaymeter', clusterName: 'Local engine', origin: 'app' });
    expect(first.entry.params.targetDirectory).toBe(`file://${path.join(kit.dirs.checkpoints, 'savepoints')}`);
    // A double click, a retry: the same trigger id returns the same entry and sends nothing.
    const again = await kit.operations.start(request);
    expect(again.entry.id).toBe(triggerId);
    const done = await first.done;
    expect(done).toMatchObject({ state: 'succeeded', failure: null, requests: { trigger: 1 } });
    expect(done.requests.poll).toBeGreaterThanOrEqual(1);
    expect(done.resultPath).toMatch(/savepoint-/);
    expect(savepointOnDisk(done.resultPath!)).toBe(true);
    expect((await again.done).state).toBe('succeeded');
    expect(await engineTriggers(kit.handle)).toEqual([{ kind: 'savepoint', jobId: kit.jobId, triggerId, at: expect.any(Number), started: true }]);
    // Once done, the same id still sends nothing.
    await kit.operations.start(request);
    expect(await engineTriggers(kit.handle)).toHaveLength(1);
  }, 60_000);

  it('refuses a second operation of the same job while one is in flight', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const first = await kit.operations.start({ kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() });
    await expect(kit.operations.start({ kind: 'cancel', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() })).rejects.toThrow(
      /A savepoint of this job is in flight \(started \d+ s ago from the app, trigger [0-9a-f]{32}\): wait for its outcome/,
    );
    await first.done;
  }, 60_000);

  it('of a job that is not running is recorded as not sent', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(5_000);
    [...kit.handle.engine.cluster.jobs.values()][0].cancel();
    const { entry } = await kit.operations.start({ kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() });
    expect(entry).toMatchObject({ state: 'failed', failure: 'Not sent: the job is CANCELED, so there is nothing to take a savepoint of.', requests: { trigger: 0, poll: 0 } });
    expect(kit.operations.journal.get(entry.id)?.state).toBe('failed');
    expect(await engineTriggers(kit.handle)).toEqual([]);
  }, 60_000);

  it('needs a target directory when the cluster has no default', async () => {
    kit = await startOperationsKit({ checkpointDir: undefined });
    await expect(kit.operations.start({ kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() })).rejects.toThrow(
      /No target directory: this cluster has no default savepoint folder \(execution.checkpointing.savepoint-dir \/ state.savepoints.dir\)/,
    );
    expect(kit.operations.journal.list()).toEqual([]);
  }, 60_000);

  it('into a folder the JobManager cannot write fails with the cause in words', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    // A folder below a plain file: no file system lets anyone create it.
    const file = path.join(kit.dirs.root, 'a-file');
    writeFileSync(file, 'not a folder');
    const { done } = await kit.operations.start({ kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), targetDirectory: path.join(file, 'savepoints') });
    const outcome = await done;
    expect(outcome.state).toBe('failed');
    expect(outcome.failure).toMatch(/^The JobManager could not write the savepoint to the target directory \(.+\)\. Check that the folder exists/);
    expect(outcome.failureDetail).toBeTruthy();
  }, 60_000);

  it('aborted by a lost TaskManager fails with the cause in words, and the job fails over', async () => {
    let killed = false;
    kit = await startOperationsKit({ restartStrategy: 'fixed-delay', restartAttempts: 3 }, {}, (_ms, handle) => {
      if (killed) return;
      killed = true;
      const job = [...handle.engine.cluster.jobs.values()][0];
      handle.engine.cluster.killTaskManager(job.slots[0].taskManagerId);
    });
    kit.handle.engine.advance(15_000);
    // The trigger only injects barriers; the engine completes the savepoint as time moves, after the kill above.
    const { done } = await kit.operations.start({ kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() });
    const outcome = await done;
    expect(killed).toBe(true);
    expect(outcome.state).toBe('failed');
    expect(outcome.failure).toMatch(/TaskManager was lost during the savepoint|failed over while the savepoint was being taken/);
    expect(kit.handle.engine.cluster.jobs.get(kit.jobId)!.numRestarts).toBe(1);
  }, 60_000);
});

describe('stop-with-savepoint, cancel and resubmit', () => {
  it('stop ends the job FINISHED with its savepoint; resubmit runs the jar from it under a job id chosen beforehand', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const stop = await (await kit.operations.start({ kind: 'stop', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), drain: false })).done;
    expect(stop).toMatchObject({ state: 'succeeded', kind: 'stop', params: { drain: false } });
    expect(savepointOnDisk(stop.resultPath!)).toBe(true);
    expect(kit.handle.engine.cluster.jobs.get(kit.jobId)!.status).toBe('FINISHED');

    const context = await kit.operations.operationsContext('local', kit.jobId);
    expect(context.resubmitDefaults.program).toMatchObject({ jarId: 'local-engine_gatewaymeter.jar', programArgs: expect.arrayContaining(['--scenario', 'exactly-once', '--seed', '42']) });
    const resubmit = await (
      await kit.operations.start({ kind: 'resubmit', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), program: context.resubmitDefaults.program!, savepointPath: stop.resultPath!, parallelism: 3 })
    ).done;
    expect(resubmit).toMatchObject({ state: 'succeeded', kind: 'resubmit', newJobId: resubmit.params.newJobId });
    const next = kit.handle.engine.cluster.jobs.get(resubmit.newJobId!)!;
    expect(next.status).toBe('RUNNING');
    expect(next.jobGraph.vertices.map((v) => v.parallelism)).toContain(3);
    // The savepoints of the new run include the one it was restored from, labelled with the run it came from.
    const { listSavepoints } = await import('./savepoint-listing.ts');
    const listed = await listSavepoints({ journal: kit.operations.journal, history: kit.history, client: kit.client, clusterId: 'local', jobId: resubmit.newJobId! });
    expect(listed).toContainEqual(expect.objectContaining({ path: stop.resultPath, jobId: kit.jobId, kind: 'stop', format: 'canonical', source: 'journal' }));
  }, 60_000);

  it('resubmit: the plan Flink will run beside the stopped run, every difference named; the new job compared once it runs', async () => {
    kit = await startOperationsKit({ scenario: 'hot-tenant', rate: 300 });
    kit.handle.engine.advance(15_000);
    const stop = await (await kit.operations.start({ kind: 'stop', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), drain: false })).done;
    expect(stop.state, stop.failure ?? '').toBe('succeeded');
    const context = await kit.operations.operationsContext('local', kit.jobId);
    // The stopped run's default (4): tenant-cost sets its own 32, which a job parallelism does not override.
    expect(context.resubmitDefaults.parallelism).toBe(4);
    const request = { clusterId: 'local', jobId: kit.jobId, program: context.resubmitDefaults.program!, savepointPath: stop.resultPath! };
    const same = await kit.operations.planResubmit({ ...request, parallelism: 4 });
    expect(same.stopped!.map((v) => [v.name, v.parallelism, v.maxParallelism])).toEqual([
      ['Source: gateway-events -> parse', 4, 128],
      ['assemble', 4, 128],
      ['tenant-cost -> Sink: usd-sink', 32, 128],
    ]);
    expect(same.planned.map((v) => [v.name, v.parallelism])).toEqual(same.stopped!.map((v) => [v.name, v.parallelism]));
    expect(same.changes).toEqual([]);
    // Other arguments make another job: the scenario without its own tenant-cost parallelism.
    const otherArgs = context.resubmitDefaults.program!.programArgs!.map((a) => (a === 'hot-tenant' ? 'exactly-once' : a));
    const other = await kit.operations.planResubmit({ ...request, program: { ...request.program, programArgs: otherArgs }, parallelism: 4 });
    expect(other.changes.map((c) => c.words)).toEqual(['tenant-cost -> Sink: usd-sink: 32 → 4']);
    expect(kit.handle.engine.cluster.jobs.size).toBe(1);

    const outcome = await (await kit.operations.start({ kind: 'resubmit', triggerId: newTriggerId(), ...request, parallelism: 2 })).done;
    expect(outcome.state, outcome.failure ?? '').toBe('succeeded');
    expect(outcome.params.plannedShape!.map((v) => v.parallelism)).toEqual([2, 2, 32]);
    expect(kit.handle.engine.cluster.jobs.get(outcome.newJobId!)!.jobGraph.vertices.map((v) => v.parallelism)).toEqual([2, 2, 32]);
    expect(outcome.shapeChanges!.map((c) => c.words)).toEqual(['Source: gateway-events -> parse: 4 → 2', 'assemble: 4 → 2']);
    expect(outcome.progress).toBe('Differs from the stopped run: Source: gateway-events -> parse: 4 → 2; assemble: 4 → 2.');
    expect(kit.operations.journal.get(outcome.id)!.shapeChanges).toEqual(outcome.shapeChanges);
  }, 120_000);

  it('resubmit whose plan fails (bad arguments, a parallelism above the max) is refused with the cause: nothing journaled, nothing sent', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(5_000);
    const program = { jarId: 'local-engine_gatewaymeter.jar', programArgs: ['--speed', 'fast'] };
    const request = { kind: 'resubmit', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), program, savepointPath: '/tmp/x' } as const;
    await expect(kit.operations.planResubmit(request)).rejects.toThrow(
      /^Not sent: Flink could not plan local-engine_gatewaymeter\.jar with these arguments \(.*Unknown program argument "--speed".*\)\. Check the jar, the entry class and the program arguments\.$/,
    );
    await expect(kit.operations.start(request)).rejects.toThrow(/^Not sent: Flink could not plan/);
    await expect(kit.operations.start({ ...request, program: { jarId: program.jarId }, parallelism: 129 })).rejects.toThrow(/^Not sent: .*is higher than its maximum parallelism \(128\)/);
    expect(kit.operations.journal.list()).toEqual([]);
    expect(kit.handle.engine.cluster.jobs.size).toBe(1);
  }, 60_000);

  it('cancel ends the job CANCELED', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(5_000);
    const outcome = await (await kit.operations.start({ kind: 'cancel', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() })).done;
    expect(outcome).toMatchObject({ state: 'succeeded', kind: 'cancel', failure: null });
    expect(kit.handle.engine.cluster.jobs.get(kit.jobId)!.status).toBe('CANCELED');
  }, 60_000);

  it('resubmit refuses a jar the cluster does not have, naming the ones it has', async () => {
    kit = await startOperationsKit();
    await expect(
      kit.operations.start({ kind: 'resubmit', clusterId: 'local', triggerId: newTriggerId(), program: { jarId: 'nope.jar' }, savepointPath: '/tmp/x' }),
    ).rejects.toThrow('The cluster has no jar "nope.jar". Uploaded jars: local-engine_gatewaymeter.jar (gatewaymeter.jar), local-engine_gatewaymeter-salted.jar (gatewaymeter-salted.jar), local-engine_failed-logins.jar (failed-logins.jar).');
  }, 60_000);

  it('resubmit from a savepoint that does not exist fails with the cause', async () => {
    kit = await startOperationsKit();
    const outcome = await (
      await kit.operations.start({ kind: 'resubmit', clusterId: 'local', triggerId: newTriggerId(), program: { jarId: 'local-engine_gatewaymeter.jar' }, savepointPath: '/tmp/flink-ops-no-such-savepoint' })
    ).done;
    expect(outcome.state).toBe('failed');
    expect(outcome.failure).toMatch(/^The cluster refused to run the jar: The savepoint to restore from does not exist or has no _metadata/);
  }, 60_000);
});

describe('rescale', () => {
  it('on the adaptive scheduler: resource requirements, watched until every vertex runs at the target, with the plan kept', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(30_000);
    const job = kit.handle.engine.cluster.jobs.get(kit.jobId)!;
    const plan = await kit.operations.planRescale('local', kit.jobId, { parallelism: 6, hotKeys: [{ key: 'umbrella', recordsPerSecond: 50 }] });
    expect(plan.route).toBe('adaptive');
    expect(plan.refusals).toEqual([]);
    expect(plan.vertices.length).toBeGreaterThan(0);
    expect(plan.load.source).toBe('live');
    const outcome = await (await kit.operations.start({ kind: 'rescale', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), parallelism: 6, hotKeys: [{ key: 'umbrella', recordsPerSecond: 50 }] })).done;
    expect(outcome).toMatchObject({ state: 'succeeded', params: { route: 'adaptive' } });
    expect(outcome.plan?.createdAt).toBe(plan.createdAt); // the plan the user saw, not a new one
    expect(job.jobGraph.vertices.every((v) => v.parallelism === 6)).toBe(true);
    expect(job.status).toBe('RUNNING');
  }, 60_000);

  it('refuses a parallelism above the max parallelism', async () => {
    kit = await startOperationsKit();
    await expect(kit.operations.start({ kind: 'rescale', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), parallelism: 129 })).rejects.toThrow(
      /Parallelism 129 is above the max parallelism of .* \(128\)/,
    );
  }, 60_000);

  it('through a savepoint: stop, then resubmit at the new parallelism, each step its own journal entry', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const context = await kit.operations.operationsContext('local', kit.jobId);
    const outcome = await (
      await kit.operations.start({ kind: 'rescale', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), parallelism: 2, route: 'savepoint', program: context.resubmitDefaults.program! })
    ).done;
    expect(outcome).toMatchObject({ state: 'succeeded', params: { route: 'savepoint', jobParallelism: 2 } });
    const steps = kit.operations.journal.list().filter((e) => e.parentId === outcome.id);
    expect(steps.map((s) => [s.kind, s.state]).sort()).toEqual([['resubmit', 'succeeded'], ['stop', 'succeeded']]);
    expect(outcome.resultPath).toBe(steps.find((s) => s.kind === 'stop')!.resultPath);
    expect(outcome.newJobId).toBe(steps.find((s) => s.kind === 'resubmit')!.newJobId);
    expect(kit.handle.engine.cluster.jobs.get(outcome.newJobId!)!.jobGraph.vertices.every((v) => v.parallelism === 2)).toBe(true);
  }, 60_000);

  it('through a savepoint, says which vertices an operator\'s own parallelism kept off the target', async () => {
    // hot-tenant's tenant-cost sets its own parallelism (32): a job parallelism of 8 leaves it there, as on Flink.
    kit = await startOperationsKit({ scenario: 'hot-tenant', rate: 500 });
    kit.handle.engine.advance(15_000);
    const context = await kit.operations.operationsContext('local', kit.jobId);
    const outcome = await (
      await kit.operations.start({ kind: 'rescale', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), parallelism: 8, route: 'savepoint', program: context.resubmitDefaults.program! })
    ).done;
    expect(outcome.state).toBe('succeeded');
    expect(outcome.progress).toMatch(/^Rescaled, but not every vertex: tenant-cost.* runs at 32, not 8 \(an operator that sets its own parallelism keeps it/);
    // Said before the stop too, in the plan the confirmation shows.
    const plan = await kit.operations.planRescale('local', outcome.newJobId!, { parallelism: 8, route: 'savepoint' });
    expect(plan.warnings.join(' ')).toMatch(/tenant-cost.* runs at 32 unlike the others: if its operator sets that itself, it stays there/);
  }, 60_000);
});

