import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTriggerId, type Operations } from '../../engine/operations/operations.ts';
import { readFlinkCluster } from '../support/flinkCluster.ts';
import { eventually } from './eventually.ts';
import { openRealOperations, type RealOperations } from './real-operations.ts';
import { cancelQuietly, JOB_CLASS, jobDetails, LIGHT_ARGS, runTestJob, TENANTS, tenantsBySubtask, waitRunning, waitState } from './testJobs.ts';

/**
 * The operations against a real Flink (2.3.0 and 2.2.1 on the adaptive scheduler, 1.20.5 on the default one, as
 * test-flink.sh starts them): savepoint and stop-with-savepoint (the folder is on disk with its _metadata), a re-used trigger id,
 * cancel, rescale (in place where the adaptive scheduler runs, else through a savepoint), resubmit from a savepoint
 * at a new parallelism through the jar, and the rescale plan's prediction of where Flink routes each key.
 */
const cluster = readFlinkCluster();
let real: RealOperations;
let work: string;
let operations: Operations;
const started: string[] = [];

/** `file:/a/b` or `file:///a/b` → `/a/b`. */
function localPath(location: string): string {
  return location.replace(/^file:(\/\/)?/, '');
}

beforeAll(async () => {
  real = openRealOperations(cluster, 'test-operations');
  ({ work, operations } = real);
});

afterAll(async () => {
  for (const jobId of started) await cancelQuietly(cluster, jobId);
  await real?.close();
});

describe(`operations on a real Flink ${cluster.version} (${cluster.scheduler ?? 'adaptive'} scheduler)`, () => {
  let jobId: string;

  it('savepoint: the folder is on disk with its _metadata; the same trigger id again starts nothing', async () => {
    jobId = await runTestJob(cluster, 1);
    started.push(jobId);
    const target = path.join(work, 'savepoints');
    const triggerId = newTriggerId();
    const outcome = await (await operations.start({ kind: 'savepoint', clusterId: 'real', jobId, triggerId, targetDirectory: `file://${target}` })).done;
    expect(outcome, outcome.failure ?? '').toMatchObject({ state: 'succeeded', requests: { trigger: 1 } });
    expect(existsSync(path.join(localPath(outcome.resultPath!), '_metadata'))).toBe(true);
    expect(readdirSync(target)).toHaveLength(1);

    // Flink's own answer to a re-used trigger id: the same request id, the same savepoint, nothing new.
    const again = await fetch(`${cluster.restUrl}/jobs/${jobId}/savepoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ triggerId, 'target-directory': `file://${target}` }),
    });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ 'request-id': triggerId });
    const status = (await (await fetch(`${cluster.restUrl}/jobs/${jobId}/savepoints/${triggerId}`)).json()) as { status: { id: string }; operation: { location: string } };
    expect(status).toMatchObject({ status: { id: 'COMPLETED' }, operation: { location: outcome.resultPath } });
    expect(readdirSync(target)).toHaveLength(1);
  }, 240_000);

  it('a savepoint into a folder the JobManager cannot create fails with the cause in words', async () => {
    const file = path.join(work, 'a-file');
    writeFileSync(file, '');
    const outcome = await (await operations.start({ kind: 'savepoint', clusterId: 'real', jobId, triggerId: newTriggerId(), targetDirectory: `file://${file}/savepoints` })).done;
    expect(outcome.state).toBe('failed');
    expect(outcome.failure).toMatch(/^The JobManager could not write the savepoint to the target directory/);
  }, 240_000);

  it('rescale: the plan predicts the subtask Flink routes each key to, and the job reaches the new parallelism', async () => {
    const hotKeys = TENANTS.map((key) => ({ key, recordsPerSecond: key === 'acme' ? 80 : 12 }));
    const plan = await operations.planRescale('real', jobId, { parallelism: 2, hotKeys });
    expect(plan.route).toBe(cluster.scheduler === 'default' ? 'savepoint' : 'adaptive');
    expect(plan.refusals).toEqual([]);
    const throttle = plan.vertices.find((v) => v.vertexName === 'throttle')!;
    expect(throttle).toMatchObject({ from: 1, to: 2, maxParallelism: 128 });
    const predicted = new Map(throttle.hotKeys.map((k) => [k.key, k.subtaskAfter]));

    // Through a savepoint, the job runs again from the jar: with the same light arguments.
    const program = { jarId: cluster.jarId!, entryClass: JOB_CLASS, programArgs: LIGHT_ARGS };
    const outcome = await (
      await operations.start({ kind: 'rescale', clusterId: 'real', jobId, triggerId: newTriggerId(), parallelism: 2, hotKeys, program, targetDirectory: `file://${path.join(work, 'rescale')}` })
    ).done;
    expect(outcome.state, outcome.failure ?? '').toBe('succeeded');
    const rescaled = outcome.newJobId ?? jobId;
    if (outcome.newJobId) started.push(outcome.newJobId);
    // What /jobs/:id shows: every vertex at 3, running.
    const details = await waitRunning(cluster, rescaled, 2);
    expect(details.vertices.map((v) => v.parallelism)).toEqual(details.vertices.map(() => 2));
    if (cluster.scheduler !== 'default') expect(rescaled).toBe(jobId);

    const routed = await eventually(() => tenantsBySubtask(cluster, rescaled), 'every tenant seen by one throttle subtask after the rescale, steadily', 180_000);
    for (const tenant of TENANTS) expect(`${tenant} → ${routed.get(tenant)}`).toBe(`${tenant} → ${predicted.get(tenant)}`);
    expect(new Set(routed.values()).size).toBeGreaterThan(1);
    jobId = rescaled;
  }, 400_000);

  it('stop-with-savepoint ends the job FINISHED; resubmit from it at a new parallelism through the jar restores it', async () => {
    const stop = await (await operations.start({ kind: 'stop', clusterId: 'real', jobId, triggerId: newTriggerId(), drain: false, targetDirectory: `file://${path.join(work, 'stops')}` })).done;
    expect(stop.state, stop.failure ?? '').toBe('succeeded');
    expect(existsSync(path.join(localPath(stop.resultPath!), '_metadata'))).toBe(true);
    await waitState(cluster, jobId, 'FINISHED');

    const context = await operations.operationsContext('real', jobId);
    expect(context.jarSubmissionUnavailable).toBeNull();
    expect(context.resubmitDefaults.program?.jarId).toBe(cluster.jarId);
    const resubmit = await (
      await operations.start({
        kind: 'resubmit',
        clusterId: 'real',
        jobId,
        triggerId: newTriggerId(),
        program: { jarId: cluster.jarId!, entryClass: JOB_CLASS, programArgs: LIGHT_ARGS },
        savepointPath: stop.resultPath!,
        parallelism: 1,
      })
    ).done;
    expect(resubmit.state, resubmit.failure ?? '').toBe('succeeded');
    started.push(resubmit.newJobId!);
    expect(resubmit.newJobId).toBe(resubmit.params.newJobId);
    const details = await waitRunning(cluster, resubmit.newJobId!, 1);
    expect(details.vertices.every((v) => v.parallelism === 1)).toBe(true);
    const restored = (await (await fetch(`${cluster.restUrl}/jobs/${resubmit.newJobId}/checkpoints`)).json()) as { latest: { restored: { external_path: string; is_savepoint: boolean } } };
    expect(restored.latest.restored).toMatchObject({ external_path: stop.resultPath, is_savepoint: true });
    jobId = resubmit.newJobId!;
  }, 400_000);

  it('cancel ends the job CANCELED; a savepoint of it is then refused before anything is sent', async () => {
    const cancel = await (await operations.start({ kind: 'cancel', clusterId: 'real', jobId, triggerId: newTriggerId() })).done;
    expect(cancel.state, cancel.failure ?? '').toBe('succeeded');
    expect(cancel.jobId).toBe(jobId);
    await waitState(cluster, jobId, 'CANCELED');
    const refused = await operations.start({ kind: 'savepoint', clusterId: 'real', jobId, triggerId: newTriggerId(), targetDirectory: `file://${work}` });
    expect(refused.entry).toMatchObject({ state: 'failed', failure: 'Not sent: the job is CANCELED, so there is nothing to take a savepoint of.' });
  }, 240_000);
});

describe(`resubmit of a job whose operator sets its own parallelism, on a real Flink ${cluster.version}`, () => {
  it('Flink keeps tenant-cost at its own parallelism; the plan shows it beside the stopped run, names what other arguments change, and the new job is compared', async () => {
    // tenant-cost at its own 2, the rest at the job parallelism 1: 2 slots.
    const ownArgs = [...LIGHT_ARGS, '--tenant-cost-parallelism', '2'];
    const jobId = await runTestJob(cluster, 1, { programArgs: ownArgs });
    started.push(jobId);
    const shape = (d: { vertices: Array<{ name: string; parallelism: number }> }) => d.vertices.map((v) => `${v.name} ${v.parallelism}`);
    const before = shape(await jobDetails(cluster, jobId));
    expect(before).toContain('tenant-cost 2');
    expect(before).toContain('throttle 1');

    const stop = await (await operations.start({ kind: 'stop', clusterId: 'real', jobId, triggerId: newTriggerId(), drain: false, targetDirectory: `file://${path.join(work, 'own-parallelism')}` })).done;
    expect(stop.state, stop.failure ?? '').toBe('succeeded');
    await waitState(cluster, jobId, 'FINISHED');
    const context = await operations.operationsContext('real', jobId);
    // The stopped run's job parallelism, where the cluster reports it (`job-parallelism` of its execution config).
    expect([1, null]).toContain(context.resubmitDefaults.parallelism);
    const request = { clusterId: 'real', jobId, program: { jarId: cluster.jarId!, entryClass: JOB_CLASS, programArgs: ownArgs }, savepointPath: stop.resultPath!, parallelism: 1 };

    // Flink's own plan (POST /jars/:jarid/plan) at the stopped run's default: the same shape, vertex by vertex.
    const same = await operations.planResubmit(request);
    expect(same.planned.map((v) => `${v.name} ${v.parallelism}`).sort()).toEqual([...before].sort());
    expect(same.changes).toEqual([]);
    // Without the argument, tenant-cost runs at the job parallelism: named before anything is sent.
    const other = await operations.planResubmit({ ...request, program: { ...request.program, programArgs: LIGHT_ARGS } });
    expect(other.changes.map((c) => c.words)).toContain('tenant-cost: 2 → 1');
    // Arguments the program refuses: Flink's plan fails with the program's own message.
    await expect(operations.planResubmit({ ...request, program: { ...request.program, programArgs: ['--speed', '1'] } })).rejects.toThrow(
      /^Not sent: Flink could not plan .* \(.*unknown argument: --speed\)\./,
    );

    const resubmit = await (await operations.start({ kind: 'resubmit', triggerId: newTriggerId(), ...request })).done;
    expect(resubmit.state, resubmit.failure ?? '').toBe('succeeded');
    started.push(resubmit.newJobId!);
    expect(resubmit.shapeChanges).toEqual([]);
    expect(shape(await jobDetails(cluster, resubmit.newJobId!))).toEqual(before);
  }, 400_000);
});
