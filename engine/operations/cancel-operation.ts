import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import { describeFailure } from './failure-cause.ts';
import { formatMinutes, isRefusal, messageOf, Progress, rethrowUnexpected, type DriverContext } from './driver-context.ts';
import { followJob, lostTrack } from './follow-job.ts';
import type { StoredJournalEntry } from './journal.ts';

/**
 * Cancel (`PATCH /jobs/:jobid?mode=cancel`, as the Web UI does), then watch the job reach CANCELED. Phases:
 * `request` → `watch`. A resumed `request` is resolved from the job's state, never by sending the cancel again.
 */

export async function driveCancel(entry: StoredJournalEntry, ctx: DriverContext, fresh: boolean): Promise<StoredJournalEntry> {
  const progress = new Progress(entry, ctx);
  if (progress.current.phase === 'request') {
    if (fresh) await request(progress, ctx);
    else await resolveDelivery(progress, ctx);
  }
  if (progress.current.phase === 'watch' && !ctx.options.stopWhenAccepted) await watch(progress, ctx);
  return progress.current;
}

async function request(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const requests = { ...entry.requests, trigger: entry.requests.trigger + 1 };
  try {
    await ctx.client.request(operationEndpoints.cancelJob, { jobid: entry.jobId! }, { mode: 'cancel' });
  } catch (error) {
    rethrowUnexpected(error);
    if (isRefusal(error)) {
      const cause = describeFailure(messageOf(error));
      await progress.write({ state: 'failed', requests, progress: null, failure: `The cluster refused to cancel the job: ${cause.words}`, failureDetail: messageOf(error) });
      return;
    }
    await progress.write({ requests, progress: `No clear answer to the cancel (${messageOf(error)}): reading the job's state.` });
    await resolveDelivery(progress, ctx);
    return;
  }
  await progress.write({ state: 'in-progress', phase: 'watch', requests, progress: 'Cancelling: waiting for the job to reach CANCELED.' });
}

/** Did the cancel arrive? The job's state says: CANCELLING or CANCELED yes; still RUNNING after the grace, no. */
async function resolveDelivery(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const followed = await followJob(progress, ctx, {
    read: jobState(ctx, entry.jobId!),
    reached: (state) => state === 'CANCELLING' || state === 'CANCELED',
    jobState: (state) => state,
    deadline: entry.createdAt + ctx.settings.deliveryGraceMs,
  });
  switch (followed.outcome) {
    case 'reached':
      await progress.write({ state: 'in-progress', phase: 'watch', progress: 'The cluster got the cancel: waiting for CANCELED.' });
      return;
    case 'ended':
      await progress.write({ state: 'not-started', progress: null, failure: `Not started: the job had already ended ${followed.state} on its own.` });
      return;
    case 'timed-out':
      await progress.write({ state: 'not-started', progress: null, failure: `Not started: the cancel never reached the cluster; the job is still ${followed.answer}. Nothing was done.` });
      return;
    case 'gone':
      await progress.write({ state: 'unknown', progress: null, failure: `Outcome unknown: the cluster no longer knows job ${entry.jobId}.` });
      return;
    case 'unreachable':
      await progress.write({
        state: 'unknown',
        progress: null,
        failure: `Outcome unknown: the cluster at ${entry.clusterUrl} has not answered for ${formatMinutes(followed.silentForMs)} (${messageOf(followed.error)}); the cancel may or may not have reached it.`,
      });
      return;
  }
}

async function watch(progress: Progress, ctx: DriverContext): Promise<void> {
  const started = ctx.clock.now();
  const followed = await followJob(progress, ctx, {
    read: jobState(ctx, progress.current.jobId!),
    reached: (state) => state === 'CANCELED',
    jobState: (state) => state,
    deadline: started + ctx.settings.watchTimeoutMs,
    // The cancel's watch also runs out at a poll the cluster did not answer (the others wait for an answer).
    deadlineWhileSilent: true,
    waiting: (state) => progress.maybeWrite({ progress: `Cancelling: the job is ${state}.` }),
    silent: () => progress.maybeWrite({ progress: 'Cancelling: the job is not answering.' }),
  });
  switch (followed.outcome) {
    case 'reached':
      await progress.write({ state: 'succeeded', progress: null });
      return;
    case 'ended':
      await progress.write({ state: 'failed', progress: null, failure: `The job ended ${followed.state} instead of CANCELED.` });
      return;
    case 'timed-out':
      await progress.write({
        state: 'failed',
        progress: null,
        failure: `The job is still ${followed.answer ?? 'in an unknown state'} ${formatMinutes(ctx.clock.now() - started)} after the cancel was accepted: a task may be stuck (see the TaskManager logs).`,
      });
      return;
    case 'gone':
    case 'unreachable':
      await progress.write({
        state: 'unknown',
        progress: null,
        failure: lostTrack(followed, 'the cancel was accepted'),
      });
      return;
  }
}

function jobState(ctx: DriverContext, jobId: string): () => Promise<string> {
  return async () => (await ctx.client.request(operationEndpoints.jobStatus, { jobid: jobId })).status;
}
