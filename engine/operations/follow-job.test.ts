import { afterEach, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import { DEFAULT_OPERATION_SETTINGS, Progress, type DriverContext, type OperationSettings } from './driver-context.ts';
import { followJob, lostTrack } from './follow-job.ts';
import type { StoredJournalEntry } from './journal.ts';
import { startOperationsKit, type OperationsKit } from './testing/operations-kit.ts';

/**
 * Following a job against the local engine on a manual clock (every sleep of the follow moves the engine's time);
 * the faults a running engine cannot produce (refused connections, an error answer) from a closed port and a scripted
 * server.
 */

let kit: OperationsKit | undefined;
let server: HostileServer | undefined;
afterEach(async () => {
  await kit?.close();
  await server?.close();
  kit = server = undefined;
});

const UNKNOWN_JOB = 'e'.repeat(32);

function followerOn(k: OperationsKit, client: FlinkRestClient = k.client, settings: Partial<OperationSettings> = {}): { ctx: DriverContext; progress: Progress } {
  const ctx: DriverContext = {
    journal: k.operations.journal,
    client,
    clock: k.clock,
    settings: { ...DEFAULT_OPERATION_SETTINGS, ...settings },
    options: {},
    drive: () => Promise.reject(new Error('no steps here')),
  };
  const entry = { id: 'f'.repeat(32), jobId: k.jobId, createdAt: k.clock.now(), requests: { trigger: 0, poll: 0 } } as StoredJournalEntry;
  return { ctx, progress: new Progress(entry, ctx) };
}

function jobState(ctx: DriverContext, jobId: string): () => Promise<string> {
  return async () => (await ctx.client.request(operationEndpoints.jobStatus, { jobid: jobId })).status;
}

async function cancelJob(k: OperationsKit): Promise<void> {
  await k.client.request(operationEndpoints.cancelJob, { jobid: k.jobId }, { mode: 'cancel' });
}

describe('following a job', () => {
  it('reached: polls with the operation\'s delays until the answer is the one waited for', async () => {
    kit = await startOperationsKit();
    const { ctx, progress } = followerOn(kit);
    const started = kit.clock.now();
    const ranAtStart = (await kit.client.request(endpoints.jobDetails, { jobid: kit.jobId })).duration;
    const seen: string[] = [];
    const followed = await followJob(progress, ctx, {
      read: () => ctx.client.request(endpoints.jobDetails, { jobid: kit!.jobId }),
      reached: (details) => details.duration >= ranAtStart + 3_000,
      jobState: (details) => details.state,
      deadline: started + 60_000,
      waiting: async (details) => void seen.push(details.state),
    });
    expect(followed.outcome).toBe('reached');
    // Asked at 0, 250, 750, 1750, then 3750 ms: four answers short of it, one after each the next delay.
    expect(seen).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING']);
    expect(progress.polls).toBe(5);
    expect(kit.clock.now() - started).toBe(250 + 500 + 1_000 + 2_000);
  });

  it('ended: the job ended in another state than the one waited for', async () => {
    kit = await startOperationsKit();
    const { ctx, progress } = followerOn(kit);
    await cancelJob(kit);
    const followed = await followJob(progress, ctx, { read: jobState(ctx, kit.jobId), reached: (state) => state === 'FINISHED', jobState: (state) => state, deadline: kit.clock.now() + 60_000 });
    expect(followed).toEqual({ outcome: 'ended', answer: 'CANCELED', state: 'CANCELED' });
  });

  it('gone: the JobManager does not know the job (404)', async () => {
    kit = await startOperationsKit();
    const { ctx, progress } = followerOn(kit);
    const followed = await followJob(progress, ctx, { read: jobState(ctx, UNKNOWN_JOB), reached: () => true, jobState: (state) => state, deadline: kit.clock.now() + 60_000 });
    expect(followed.outcome).toBe('gone');
    expect(followed.outcome === 'gone' && followed.error.info.status).toBe(404);
    expect(progress.polls).toBe(1);
  });

  it('a 404 read as an answer (not there yet) is asked again until the deadline, and the cluster counts as answering', async () => {
    kit = await startOperationsKit();
    const { ctx, progress } = followerOn(kit);
    const deadline = kit.clock.now() + 10_000;
    const followed = await followJob(progress, ctx, {
      read: async () => Boolean(await jobState(ctx, UNKNOWN_JOB)()),
      notFound: () => false,
      reached: (exists) => exists,
      deadline,
    });
    expect(followed).toEqual({ outcome: 'timed-out', answer: false });
    expect(kit.clock.now()).toBeGreaterThanOrEqual(deadline);
    expect(progress.unreachableForMs()).toBe(0);
  });

  it('unreachable: the cluster did not answer for the give-up time; each silent poll is reported, the deadline only counts answers', async () => {
    kit = await startOperationsKit();
    const closed = new FlinkRestClient({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 1_000 });
    const { ctx, progress } = followerOn(kit, closed, { unreachableGiveUpMs: 30_000 });
    const silences: string[] = [];
    const followed = await followJob(progress, ctx, {
      read: jobState(ctx, kit.jobId),
      reached: () => true,
      jobState: (state) => state,
      deadline: kit.clock.now() + 5_000,
      silent: async (error) => void silences.push(error.info.kind),
    });
    expect(followed.outcome).toBe('unreachable');
    if (followed.outcome !== 'unreachable') return;
    expect(followed.error.info.kind).toBe('refused');
    expect(followed.silentForMs).toBeGreaterThanOrEqual(30_000);
    expect(silences.length).toBe(progress.polls - 1);
    expect(new Set(silences)).toEqual(new Set(['refused']));
  });

  it('unreachable at once: with onlyTransientIsSilence, an error not worth asking again about (a 4xx) ends the follow', async () => {
    kit = await startOperationsKit();
    server = await startHostileServer((_req, res) => json(res, 403, { errors: ['Forbidden by the proxy.'] }));
    const forbidding = new FlinkRestClient({ baseUrl: server.url });
    const { ctx, progress } = followerOn(kit, forbidding);
    const followed = await followJob(progress, ctx, { read: jobState(ctx, kit.jobId), reached: () => true, jobState: (s) => s, deadline: Infinity, onlyTransientIsSilence: true });
    expect(followed).toMatchObject({ outcome: 'unreachable', silentForMs: 0 });
    expect(followed.outcome === 'unreachable' && followed.error).toBeInstanceOf(EngineError);
    expect(progress.polls).toBe(1);
  });

  it('timed-out: the deadline passed at an answer that is no outcome; the last answer is given', async () => {
    kit = await startOperationsKit();
    const { ctx, progress } = followerOn(kit);
    const deadline = kit.clock.now() + 20_000;
    const followed = await followJob(progress, ctx, { read: jobState(ctx, kit.jobId), reached: (state) => state === 'CANCELED', jobState: (state) => state, deadline });
    expect(followed).toEqual({ outcome: 'timed-out', answer: 'RUNNING' });
    expect(kit.clock.now()).toBeGreaterThanOrEqual(deadline);
    expect(kit.clock.now()).toBeLessThan(deadline + DEFAULT_OPERATION_SETTINGS.maxPollMs);
  });

  it('timed-out while silent: with deadlineWhileSilent, the deadline ends the follow before the give-up, with no answer', async () => {
    kit = await startOperationsKit();
    const closed = new FlinkRestClient({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 1_000 });
    const { ctx, progress } = followerOn(kit, closed, { unreachableGiveUpMs: 60_000 });
    const followed = await followJob(progress, ctx, { read: jobState(ctx, kit.jobId), reached: () => true, jobState: (s) => s, deadline: kit.clock.now() + 5_000, deadlineWhileSilent: true });
    expect(followed).toEqual({ outcome: 'timed-out', answer: undefined });
    expect(progress.unreachableForMs()).toBeGreaterThanOrEqual(5_000);
  });

  it('first poll after a delay: each poll waits first, and a deadline already passed ends the follow before any poll', async () => {
    kit = await startOperationsKit();
    const { ctx, progress } = followerOn(kit);
    const now = kit.clock.now();
    const none = await followJob(progress, ctx, { read: jobState(ctx, kit.jobId), reached: () => true, jobState: (s) => s, deadline: now, firstPoll: 'after-delay' });
    expect(none).toEqual({ outcome: 'timed-out', answer: undefined });
    expect(progress.polls).toBe(0);
    expect(kit.clock.now()).toBe(now);

    const reached = await followJob(progress, ctx, { read: jobState(ctx, kit.jobId), reached: (state) => state === 'RUNNING', jobState: (s) => s, deadline: Infinity, firstPoll: 'after-delay' });
    expect(reached).toEqual({ outcome: 'reached', answer: 'RUNNING' });
    expect(progress.polls).toBe(1);
    expect(kit.clock.now()).toBe(now + DEFAULT_OPERATION_SETTINGS.firstPollMs);
  });

  it('a fault of the console itself (not an answer of the cluster) is thrown, never read as silence', async () => {
    kit = await startOperationsKit();
    const { ctx, progress } = followerOn(kit);
    const bug = new TypeError('a bug');
    await expect(followJob(progress, ctx, { read: () => Promise.reject(bug), reached: () => true, deadline: Infinity })).rejects.toBe(bug);
  });
});

describe('lostTrack', () => {
  it('says the outcome is unknown, what had happened, and how the cluster lost the job', () => {
    expect(lostTrack({ outcome: 'gone' }, 'the cancel was accepted')).toBe('Outcome unknown: the cancel was accepted, then the cluster stopped listing the job.');
    const silence = new EngineError('refused', 'Nothing listens at http://127.0.0.1:1.');
    expect(lostTrack({ outcome: 'unreachable', error: silence }, 'job 42 was submitted', 'stopped listing it')).toBe(
      'Outcome unknown: job 42 was submitted, then the cluster stopped answering (Nothing listens at http://127.0.0.1:1.).',
    );
  });
});
