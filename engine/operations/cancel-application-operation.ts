import { fetchApplicationState } from '../applications/cluster-applications.ts';
import { applicationEndpoints } from '../flink-rest/application-endpoints.ts';
import type { EngineError } from '../flink-rest/errors.ts';
import { formatMinutes, isRefusal, messageOf, Progress, rethrowUnexpected, type DriverContext } from './driver-context.ts';
import { followJob, lostTrack } from './follow-job.ts';
import type { StoredJournalEntry } from './journal.ts';

/**
 * Cancel an application (Flink 2.3, `POST /applications/:applicationid/cancel`): every job of it is cancelled, then
 * the application reaches CANCELED. Phases: `request` → `watch`. A resumed `request` is resolved from the
 * application's state, never by sending the cancel again. Flink's answers: 202 taken, 404 it does not know the
 * application (or no longer: an ended one is archived), 409 it ended otherwise meanwhile, 408 the cancel timed out.
 */

export async function driveCancelApplication(entry: StoredJournalEntry, ctx: DriverContext, fresh: boolean): Promise<StoredJournalEntry> {
  const progress = new Progress(entry, ctx);
  if (progress.current.phase === 'request') {
    if (fresh) await request(progress, ctx);
    else await resolveDelivery(progress, ctx);
  }
  if (progress.current.phase === 'watch' && !ctx.options.stopWhenAccepted) await watch(progress, ctx);
  return progress.current;
}

function applicationIdOf(entry: StoredJournalEntry): string {
  return entry.params.applicationId!;
}

/** Flink's refusals of a cancel, in words (null: not one of them). */
export function cancelRefusalInWords(error: EngineError, applicationId: string): { state: 'not-started' | 'failed'; failure: string } | null {
  switch (error.info.status) {
    case 404:
      return { state: 'not-started', failure: `Not started: Flink does not know application ${applicationId} (404): it has ended and been archived, or never ran here. Nothing was cancelled.` };
    case 409: {
      const ended = /terminal state \(([A-Z_]+)\)/.exec(error.info.message)?.[1];
      return { state: 'not-started', failure: `Not started: the application had already ended ${ended ?? 'in another state'} on its own (409). Nothing was cancelled.` };
    }
    default:
      return null;
  }
}

async function request(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const applicationId = applicationIdOf(entry);
  const requests = { ...entry.requests, trigger: entry.requests.trigger + 1 };
  try {
    await ctx.client.request(applicationEndpoints.cancelApplication, { applicationid: applicationId });
  } catch (error) {
    rethrowUnexpected(error);
    const engineError = error as EngineError;
    const refusal = cancelRefusalInWords(engineError, applicationId);
    if (refusal) {
      await progress.write({ ...refusal, requests, progress: null, failureDetail: messageOf(error) });
      return;
    }
    if (engineError.info.status === 408) {
      // Flink took the cancel but its jobs did not end within its timeout: they may still be ending.
      await progress.write({ state: 'in-progress', phase: 'watch', requests, progress: 'Flink timed out cancelling the application (408): its jobs may still be ending; watching for CANCELED.' });
      return;
    }
    if (isRefusal(error)) {
      await progress.write({ state: 'failed', requests, progress: null, failure: `The cluster refused to cancel the application: ${messageOf(error)}`, failureDetail: messageOf(error) });
      return;
    }
    await progress.write({ requests, progress: `No clear answer to the cancel (${messageOf(error)}): reading the application's state.` });
    await resolveDelivery(progress, ctx);
    return;
  }
  await progress.write({ state: 'in-progress', phase: 'watch', requests, progress: 'Cancelling the application: waiting for CANCELED.' });
}

/** Did the cancel arrive? The application's state says: CANCELING or CANCELED yes; still RUNNING after the grace, no. */
async function resolveDelivery(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const followed = await followJob(progress, ctx, {
    read: () => fetchApplicationState(ctx.client, applicationIdOf(entry)),
    reached: (state) => state === 'CANCELING' || state === 'CANCELED',
    jobState: (state) => state,
    deadline: entry.createdAt + ctx.settings.deliveryGraceMs,
  });
  switch (followed.outcome) {
    case 'reached':
      await progress.write({ state: 'in-progress', phase: 'watch', progress: 'The cluster got the cancel: waiting for the application to reach CANCELED.' });
      return;
    case 'ended':
      await progress.write({ state: 'not-started', progress: null, failure: `Not started: the application had already ended ${followed.state} on its own.` });
      return;
    case 'timed-out':
      await progress.write({ state: 'not-started', progress: null, failure: `Not started: the cancel never reached the cluster; the application is still ${followed.answer}. Nothing was done.` });
      return;
    case 'gone':
      await progress.write({ state: 'unknown', progress: null, failure: `Outcome unknown: the cluster no longer knows application ${applicationIdOf(entry)}.` });
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
    read: () => fetchApplicationState(ctx.client, applicationIdOf(progress.current)),
    reached: (state) => state === 'CANCELED',
    jobState: (state) => state,
    deadline: started + ctx.settings.watchTimeoutMs,
    deadlineWhileSilent: true,
    waiting: (state) => progress.maybeWrite({ progress: `Cancelling the application: it is ${state}.` }),
    silent: () => progress.maybeWrite({ progress: 'Cancelling the application: the cluster is not answering.' }),
  });
  switch (followed.outcome) {
    case 'reached':
      await progress.write({ state: 'succeeded', progress: null });
      return;
    case 'ended':
      await progress.write({ state: 'failed', progress: null, failure: `The application ended ${followed.state} instead of CANCELED.` });
      return;
    case 'timed-out':
      await progress.write({
        state: 'failed',
        progress: null,
        failure: `The application is still ${followed.answer ?? 'in an unknown state'} ${formatMinutes(ctx.clock.now() - started)} after the cancel was accepted: a task may be stuck (see the TaskManager logs).`,
      });
      return;
    case 'gone':
    case 'unreachable':
      await progress.write({
        state: 'unknown',
        progress: null,
        failure: lostTrack(followed, 'the cancel was accepted', 'stopped listing the application'),
      });
      return;
  }
}
