import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import { describeFailure } from './failure-cause.ts';
import { formatMinutes, isNotFound, isRefusal, messageOf, pollDelay, Progress, rethrowUnexpected, type DriverContext } from './driver-context.ts';
import type { StoredJournalEntry } from './journal.ts';

/**
 * Cancel (`PATCH /jobs/:jobid?mode=cancel`, as the Web UI does), then watch the job reach CANCELED. Phases:
 * `request` → `watch`. A resumed `request` is resolved from the job's state, never by sending the cancel again.
 */

const TERMINAL = new Set(['FINISHED', 'CANCELED', 'FAILED', 'SUSPENDED']);

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
  for (let attempt = 0; ; attempt++) {
    let state: string | undefined;
    try {
      progress.polls++;
      state = (await ctx.client.request(operationEndpoints.jobStatus, { jobid: entry.jobId! })).status;
      progress.reachable();
    } catch (error) {
      rethrowUnexpected(error);
      if (isNotFound(error)) {
        await progress.write({ state: 'unknown', progress: null, failure: `Outcome unknown: the cluster no longer knows job ${entry.jobId}.` });
        return;
      }
      if (progress.unreachable()) {
        await progress.write({
          state: 'unknown',
          progress: null,
          failure: `Outcome unknown: the cluster at ${entry.clusterUrl} has not answered for ${formatMinutes(progress.unreachableForMs())} (${messageOf(error)}); the cancel may or may not have reached it.`,
        });
        return;
      }
    }
    if (state === 'CANCELLING' || state === 'CANCELED') {
      await progress.write({ state: 'in-progress', phase: 'watch', progress: 'The cluster got the cancel: waiting for CANCELED.' });
      return;
    }
    if (state !== undefined && TERMINAL.has(state)) {
      await progress.write({ state: 'not-started', progress: null, failure: `Not started: the job had already ended ${state} on its own.` });
      return;
    }
    if (state !== undefined && ctx.clock.now() >= entry.createdAt + ctx.settings.deliveryGraceMs) {
      await progress.write({ state: 'not-started', progress: null, failure: `Not started: the cancel never reached the cluster; the job is still ${state}. Nothing was done.` });
      return;
    }
    await ctx.clock.sleep(pollDelay(attempt, ctx.settings));
  }
}

async function watch(progress: Progress, ctx: DriverContext): Promise<void> {
  const started = ctx.clock.now();
  for (let attempt = 0; ; attempt++) {
    const entry = progress.current;
    let state: string | undefined;
    try {
      progress.polls++;
      state = (await ctx.client.request(operationEndpoints.jobStatus, { jobid: entry.jobId! })).status;
      progress.reachable();
    } catch (error) {
      rethrowUnexpected(error);
      if (isNotFound(error) || progress.unreachable()) {
        await progress.write({
          state: 'unknown',
          progress: null,
          failure: `Outcome unknown: the cluster accepted the cancel, then ${isNotFound(error) ? 'stopped listing the job' : `stopped answering (${messageOf(error)})`}.`,
        });
        return;
      }
    }
    if (state === 'CANCELED') {
      await progress.write({ state: 'succeeded', progress: null });
      return;
    }
    if (state !== undefined && TERMINAL.has(state)) {
      await progress.write({ state: 'failed', progress: null, failure: `The job ended ${state} instead of CANCELED.` });
      return;
    }
    if (ctx.clock.now() - started >= ctx.settings.watchTimeoutMs) {
      await progress.write({
        state: 'failed',
        progress: null,
        failure: `The job is still ${state ?? 'in an unknown state'} ${formatMinutes(ctx.clock.now() - started)} after the cancel was accepted: a task may be stuck (see the TaskManager logs).`,
      });
      return;
    }
    await progress.maybeWrite({ progress: `Cancelling: the job is ${state ?? 'not answering'}.` });
    await ctx.clock.sleep(pollDelay(attempt, ctx.settings));
  }
}
