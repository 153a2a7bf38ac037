import { afterEach, describe, expect, it } from 'vitest';
import type { OperationRequest } from '../contracts/operations.ts';
import { FlinkRestClient, type RequestOptions } from '../flink-rest/client.ts';
import type { EndpointSpec } from '../flink-rest/endpoints.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import { Operations } from './operations.ts';
import { newTriggerId } from './operations.ts';
import { engineTriggers, startOperationsKit, type OperationsKit } from './testing/operations-kit.ts';

/**
 * A console that dies mid-operation, at each point that matters: after the journal write but before the request,
 * after the request reached the cluster but before its answer was recorded, and while polling. The next process
 * resumes the entry with the same trigger id, never sends it again, and records exactly one outcome.
 */

let kit: OperationsKit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

class Killed extends Error {}

/** A client whose process "dies" (throws, as if gone) around the first request matching `spec`. */
class DyingClient extends FlinkRestClient {
  constructor(
    baseUrl: string,
    private readonly at: { spec: EndpointSpec<unknown>; when: 'before' | 'after' },
  ) {
    super({ baseUrl });
  }
  private dead = false;

  override async request<R>(spec: EndpointSpec<R>, params?: Record<string, string>, query?: Record<string, string>, options?: RequestOptions): Promise<R> {
    if (this.dead) throw new Killed('the process is gone');
    if (spec === (this.at.spec as unknown)) {
      if (this.at.when === 'before') {
        this.dead = true;
        throw new Killed('killed before the request');
      }
      const answer = await super.request(spec, params, query, options);
      this.dead = true;
      void answer;
      throw new Killed('killed before the answer was recorded');
    }
    return super.request(spec, params, query, options);
  }
}

/** Starts `request` in a console that dies at `at`, then resumes in a fresh one; returns the settled entry. */
async function dieThenResume(k: OperationsKit, request: OperationRequest, at: { spec: EndpointSpec<unknown>; when: 'before' | 'after' }) {
  const dying = new Operations({
    history: k.history,
    origin: 'cli',
    cluster: () => ({ ...k.cluster, client: new DyingClient(k.handle.url, at) }),
    clusterOfEntry: () => undefined,
    clock: k.clock,
  });
  const { done } = await dying.start(request);
  await expect(done).rejects.toBeInstanceOf(Killed);
  const left = k.operations.journal.get(request.triggerId)!;
  expect(['pending', 'in-progress']).toContain(left.state);
  const resumed = await k.reopen().resumeOrphans();
  expect(resumed.map((e) => e.id)).toContain(request.triggerId);
  return { left, settled: k.operations.journal.get(request.triggerId)! };
}

describe('resuming an operation whose console died', () => {
  it('savepoint, died before the trigger was sent: resolved as not started once a sent request would have arrived; nothing is sent', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const request = { kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() } as const;
    const { left, settled } = await dieThenResume(kit, request, { spec: operationEndpoints.triggerSavepoint, when: 'before' });
    expect(left.state).toBe('pending');
    expect(settled.state).toBe('not-started');
    expect(settled.failure).toBe(
      `Not started: the request never reached the cluster (the JobManager does not know trigger ${request.triggerId} and the job's checkpoint history shows no savepoint since). Nothing was done.`,
    );
    expect(kit.handle.engine.now() - settled.createdAt).toBeGreaterThanOrEqual(10_000);
    expect(await engineTriggers(kit.handle)).toEqual([]);
  }, 60_000);

  it('savepoint, died before the trigger was sent right after another savepoint: that one is accounted for, this one not started', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const first = { kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() } as const;
    const done = await (await kit.operations.start(first)).done;
    expect(done).toMatchObject({ state: 'succeeded', resultPath: expect.stringMatching(/savepoint-/) });
    // Within the 2 s of clock skew the evidence tolerates: the first savepoint's trigger time is "since" this one.
    const second = { kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() } as const;
    const { settled } = await dieThenResume(kit, second, { spec: operationEndpoints.triggerSavepoint, when: 'before' });
    expect(settled).toMatchObject({ state: 'not-started', failure: expect.stringMatching(/^Not started: the request never reached the cluster/) });
    expect((await engineTriggers(kit.handle)).map((t) => t.triggerId)).toEqual([first.triggerId]);
  }, 60_000);

  it('savepoint, died after the trigger reached the cluster: resumed with the same trigger id to its path; one trigger', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const request = { kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() } as const;
    const { left, settled } = await dieThenResume(kit, request, { spec: operationEndpoints.triggerSavepoint, when: 'after' });
    expect(left.state).toBe('pending');
    expect(settled).toMatchObject({ state: 'succeeded', resultPath: expect.stringMatching(/savepoint-/) });
    expect((await engineTriggers(kit.handle)).map((t) => [t.triggerId, t.started])).toEqual([[request.triggerId, true]]);
  }, 60_000);

  it('savepoint, died while polling: resumed to its path', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const request = { kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() } as const;
    const { left, settled } = await dieThenResume(kit, request, { spec: operationEndpoints.savepointStatus, when: 'before' });
    expect(left.state).toBe('in-progress');
    expect(settled.state).toBe('succeeded');
    expect(await engineTriggers(kit.handle)).toHaveLength(1);
  }, 60_000);

  it('savepoint, resumed after the JobManager forgot the trigger: outcome unknown, never a success', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const request = { kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() } as const;
    const dying = new Operations({
      history: kit.history,
      origin: 'cli',
      cluster: () => ({ ...kit!.cluster, client: new DyingClient(kit!.handle.url, { spec: operationEndpoints.savepointStatus, when: 'before' }) }),
      clusterOfEntry: () => undefined,
      clock: kit.clock,
    });
    await expect((await dying.start(request)).done).rejects.toBeInstanceOf(Killed);
    // The console stays closed for longer than rest.async.store-duration (5 min).
    kit.handle.engine.advance(6 * 60_000);
    await kit.reopen().resumeOrphans();
    const settled = kit.operations.journal.get(request.triggerId)!;
    expect(settled.state).toBe('unknown');
    expect(settled.failure).toMatch(new RegExp(`^Outcome unknown: the JobManager no longer knows trigger ${request.triggerId} \\(it forgets finished operations after rest.async.store-duration`));
    expect(settled.failure).toMatch(/Note: the job's checkpoint history shows savepoint \d+ completed at .* at file:.*savepoint-/);
    expect(settled.resultPath).toBeNull();
  }, 60_000);

  it('stop, died after the trigger reached the cluster: resumed; the job is FINISHED and the journal has the savepoint', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const request = { kind: 'stop', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), drain: false } as const;
    const { settled } = await dieThenResume(kit, request, { spec: operationEndpoints.stopWithSavepoint, when: 'after' });
    expect(settled).toMatchObject({ state: 'succeeded', resultPath: expect.stringMatching(/savepoint-/) });
    expect(kit.handle.engine.cluster.jobs.get(kit.jobId)!.status).toBe('FINISHED');
    expect(await engineTriggers(kit.handle)).toHaveLength(1);
  }, 60_000);

  it('cancel, died before or after the request: not started while the job runs on, else resumed to CANCELED', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(5_000);
    const before = await dieThenResume(kit, { kind: 'cancel', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() }, { spec: operationEndpoints.cancelJob, when: 'before' });
    expect(before.settled).toMatchObject({ state: 'not-started', failure: 'Not started: the cancel never reached the cluster; the job is still RUNNING. Nothing was done.' });
    const after = await dieThenResume(kit, { kind: 'cancel', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId() }, { spec: operationEndpoints.cancelJob, when: 'after' });
    expect(after.settled.state).toBe('succeeded');
    expect(kit.handle.engine.cluster.jobs.get(kit.jobId)!.status).toBe('CANCELED');
  }, 60_000);

  it('resubmit, died after the run request: the job id chosen beforehand finds the job; exactly one job was started', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const stop = await (await kit.operations.start({ kind: 'stop', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), drain: false })).done;
    const jobsBefore = kit.handle.engine.cluster.jobs.size;
    const request: OperationRequest = { kind: 'resubmit', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), program: { jarId: 'local-engine_gatewaymeter.jar', programArgs: ['--scenario', 'exactly-once'] }, savepointPath: stop.resultPath!, parallelism: 2 };
    const { settled } = await dieThenResume(kit, request, { spec: operationEndpoints.runJar, when: 'after' });
    expect(settled).toMatchObject({ state: 'succeeded', newJobId: settled.params.newJobId });
    expect(kit.handle.engine.cluster.jobs.size).toBe(jobsBefore + 1);
    expect(kit.handle.engine.cluster.jobs.get(settled.newJobId!)!.status).toBe('RUNNING');
  }, 60_000);

  it('adaptive rescale, died after the new requirements were sent: resumed and watched to the target', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    const request = { kind: 'rescale', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), parallelism: 3 } as const;
    const { settled } = await dieThenResume(kit, request, { spec: operationEndpoints.updateResourceRequirements, when: 'after' });
    expect(settled.state).toBe('succeeded');
    expect(kit.handle.engine.cluster.jobs.get(kit.jobId)!.jobGraph.vertices.every((v) => v.parallelism === 3)).toBe(true);
  }, 60_000);
});
