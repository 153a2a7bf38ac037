import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localPathOf } from '../local/checkpoint/checkpoint-storage.ts';
import { buildJar } from '../local/jars/jar-file.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import { deleteJar, listJars, uploadJar } from './jar-files.ts';
import { newTriggerId } from './operations.ts';
import { listSavepoints } from './savepoint-listing.ts';
import { startOperationsKit, type OperationsKit } from './testing/operations-kit.ts';

/**
 * Jars and savepoint disposal end to end on the local engine: a jar uploaded, planned and run from a savepoint with
 * the resubmit's journal; a savepoint disposed (its folder gone) and only then forgotten by the listing.
 */

let kit: OperationsKit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const ARGS = ['--scenario', 'exactly-once', '--rate', '1000'];

async function stopWithSavepoint(k: OperationsKit): Promise<string> {
  k.handle.engine.advance(15_000);
  const { done } = await k.operations.start({ kind: 'stop', clusterId: 'local', jobId: k.jobId, triggerId: newTriggerId(), drain: false });
  const entry = await done;
  expect(entry.state).toBe('succeeded');
  return entry.resultPath!;
}

async function savepoint(k: OperationsKit): Promise<string> {
  k.handle.engine.advance(15_000);
  const { done } = await k.operations.start({ kind: 'savepoint', clusterId: 'local', jobId: k.jobId, triggerId: newTriggerId() });
  return (await done).resultPath!;
}

function listing(k: OperationsKit) {
  return listSavepoints({ journal: k.operations.journal, history: k.history, client: k.client, clusterId: 'local', jobId: k.jobId });
}

describe('jars', () => {
  it('uploaded, listed, planned against the savepoint\'s job, run from the savepoint (journaled), then deleted', async () => {
    kit = await startOperationsKit();
    const savepointPath = await stopWithSavepoint(kit);

    const jar = await uploadJar(kit.client, 'gatewaymeter-job.jar', buildJar('org.flinkops.local.GatewayMeterJob'));
    expect(jar).toMatchObject({ name: 'gatewaymeter-job.jar', entryClasses: ['org.flinkops.local.GatewayMeterJob'] });
    expect(jar.id).toMatch(/^[0-9a-f-]{36}_gatewaymeter-job\.jar$/);
    expect(kit.handle.engine.uploadedJars.files()).toEqual([jar.id]);
    const listed = await listJars(kit.client);
    expect(listed.unavailable).toBeNull();
    expect(listed.jars[0]).toEqual(jar);

    // No job named: the plan is compared with the job the journal took the savepoint of.
    const request = { clusterId: 'local', program: { jarId: jar.id, programArgs: ARGS }, savepointPath };
    const plan = await kit.operations.planResubmit(request);
    expect(plan.stoppedJob).toEqual({ jobId: kit.jobId, source: 'savepoint' });
    expect(plan.changes).toEqual([]);
    expect(plan.graph!.nodes.map((n) => n.id)).toEqual(plan.planned.map((v) => v.id));
    const wider = await kit.operations.planResubmit({ ...request, parallelism: 6 });
    expect(wider.changes.length).toBeGreaterThan(0);

    const triggerId = newTriggerId();
    const started = await kit.operations.start({ kind: 'resubmit', triggerId, ...request });
    // In the journal before the run request, with the job id chosen up front and the shape it was compared with.
    expect(started.entry).toMatchObject({ id: triggerId, kind: 'resubmit', state: 'pending', phase: 'submit' });
    expect(started.entry.params.stoppedShape).toEqual(plan.stopped);
    // The run replaces the savepoint's job: the new job's savepoints list its earlier run's.
    expect(started.entry.jobId).toBe(kit.jobId);
    const done = await started.done;
    expect(done).toMatchObject({ state: 'succeeded', newJobId: started.entry.params.newJobId, requests: { trigger: 1 }, shapeChanges: [] });
    const checkpoints = await kit.client.request(operationEndpoints.savepointHistory, { jobid: done.newJobId! });
    expect((await kit.client.request(operationEndpoints.jobStatus, { jobid: done.newJobId! })).status).toBe('RUNNING');
    expect(checkpoints.latest?.restored?.external_path).toBe(savepointPath);
    // The same intent again runs nothing.
    await kit.operations.start({ kind: 'resubmit', triggerId, ...request });
    expect([...kit.handle.engine.cluster.jobs.values()].filter((j) => j.status === 'RUNNING')).toHaveLength(1);

    await deleteJar(kit.client, jar.id);
    expect((await listJars(kit.client)).jars.some((j) => j.id === jar.id)).toBe(false);
    expect(kit.handle.engine.uploadedJars.files()).toEqual([]);
    await expect(deleteJar(kit.client, jar.id)).rejects.toThrow(/does not exist/);
  }, 60_000);

  it('a jar whose main class the engine cannot run is refused by the plan in Flink\'s words', async () => {
    kit = await startOperationsKit();
    const jar = await uploadJar(kit.client, 'other.jar', buildJar('com.example.Other'));
    await expect(kit.operations.planResubmit({ clusterId: 'local', program: { jarId: jar.id } })).rejects.toThrow(/entry point class 'com\.example\.Other' was not found/);
  }, 60_000);
});

describe('savepoint disposal', () => {
  it('is journaled before it is sent, deletes the folder, and only then is the savepoint forgotten', async () => {
    kit = await startOperationsKit();
    const location = await savepoint(kit);
    expect((await listing(kit)).map((s) => s.path)).toContain(location);
    const impact = await kit.operations.disposalImpact('local', location);
    expect(impact).toMatchObject({ path: location, jobId: kit.jobId, jobName: 'gatewaymeter', inFlight: null });
    expect(impact.sentence).toContain(location);

    const triggerId = newTriggerId();
    const started = await kit.operations.start({ kind: 'dispose-savepoint', clusterId: 'local', triggerId, savepointPath: location });
    expect(started.entry).toMatchObject({ id: triggerId, kind: 'dispose-savepoint', state: 'pending', phase: 'trigger', jobId: kit.jobId });
    // Not yet done: still listed.
    expect((await listing(kit)).map((s) => s.path)).toContain(location);
    const done = await started.done;
    expect(done).toMatchObject({ state: 'succeeded', resultPath: location, requests: { trigger: 1 } });
    expect(done.params.disposalTriggerId).toMatch(/^[0-9a-f]{32}$/);
    expect(existsSync(localPathOf(location))).toBe(false);
    expect((await listing(kit)).map((s) => s.path)).not.toContain(location);
    expect(kit.handle.engine.disposals.log).toHaveLength(1);
  }, 60_000);

  it('of a path that holds no savepoint fails with Flink\'s words and forgets nothing', async () => {
    kit = await startOperationsKit();
    const location = await savepoint(kit);
    const missing = `file:${path.join(kit.dirs.checkpoints, 'savepoints', 'savepoint-000000-000000000000')}`;
    const { done } = await kit.operations.start({ kind: 'dispose-savepoint', clusterId: 'local', triggerId: newTriggerId(), savepointPath: missing });
    expect(await done).toMatchObject({ state: 'failed', failure: expect.stringMatching(/Cannot find checkpoint or savepoint/) });
    expect((await listing(kit)).map((s) => s.path)).toContain(location);
  }, 60_000);

  it('resumed in its trigger phase (the answer never journaled) sends it again, and the savepoint already gone is its success', async () => {
    kit = await startOperationsKit();
    const location = await savepoint(kit);
    // As if the process died after the request reached the engine but before its answer was written.
    kit.handle.engine.disposals.trigger(location);
    kit.handle.engine.advance(1_000);
    expect(kit.handle.engine.disposals.status(kit.handle.engine.disposals.log[0].triggerId)?.status.id).toBe('COMPLETED');
    expect(existsSync(localPathOf(location))).toBe(false);
    const triggerId = newTriggerId();
    const { entry, done } = await kit.operations.start({ kind: 'dispose-savepoint', clusterId: 'local', triggerId, savepointPath: location }, { stopWhenAccepted: true });
    expect(entry.state).toBe('pending');
    await done;
    // Rewind the entry to the trigger phase and let a new process resume it.
    await kit.operations.journal.update(triggerId, { phase: 'trigger', state: 'pending', params: { savepointPath: location } });
    await kit.operations.journal.release(triggerId);
    const [resumed] = await kit.reopen().resumeOrphans();
    expect(resumed).toMatchObject({ id: triggerId, state: 'succeeded', progress: expect.stringMatching(/earlier disposal request/) });
    expect((await listing(kit)).map((s) => s.path)).not.toContain(location);
  }, 60_000);
});
