import { endpoints } from '../flink-rest/endpoints.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import { describeFailure } from './failure-cause.ts';
import { formatMinutes, isNotFound, isRefusal, messageOf, Progress, rethrowUnexpected, type DriverContext } from './driver-context.ts';
import { followJob } from './follow-job.ts';
import type { StoredJournalEntry } from './journal.ts';
import { savepointBody, stopBody } from './request-bodies.ts';
import { describeEvidence, savepointEvidence, type SavepointEvidence } from './savepoint-history.ts';
import { describeProgress } from '../analysis/savepoint-progress.ts';
import { progressChanged, SavepointWatch } from './savepoint-watch.ts';

/**
 * Savepoint and stop-with-savepoint: Flink's trigger-then-poll (`POST …/savepoints` or `POST …/stop` with the
 * journal's trigger id, then `GET …/savepoints/:triggerid` until COMPLETED, which covers failures too).
 *
 * Phases: `trigger` (the request may or may not have reached the cluster) → `poll` → (stop only) `await-end` (the job
 * ends FINISHED). A resumed `trigger` is resolved by asking the cluster with the same trigger id, never by sending
 * the trigger again.
 */

export async function driveSavepoint(entry: StoredJournalEntry, ctx: DriverContext, fresh: boolean): Promise<StoredJournalEntry> {
  const progress = new Progress(entry, ctx);
  if (progress.current.phase === 'trigger') {
    if (fresh) await trigger(progress, ctx);
    else await resolveDelivery(progress, ctx);
  }
  if (ctx.options.stopWhenAccepted) return progress.current;
  if (progress.current.phase === 'poll') await poll(progress, ctx);
  if (progress.current.phase === 'await-end') await awaitJobEnd(progress, ctx);
  return progress.current;
}

function what(entry: StoredJournalEntry): string {
  return entry.kind === 'stop' ? 'stop-with-savepoint' : 'savepoint';
}

async function trigger(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const spec = entry.kind === 'stop' ? operationEndpoints.stopWithSavepoint : operationEndpoints.triggerSavepoint;
  const body = entry.kind === 'stop' ? stopBody(entry.params, entry.id) : savepointBody(entry.params, entry.id);
  try {
    await ctx.client.request(spec, { jobid: entry.jobId! }, undefined, { body });
  } catch (error) {
    rethrowUnexpected(error);
    const requests = { ...entry.requests, trigger: entry.requests.trigger + 1 };
    if (isRefusal(error)) {
      const cause = describeFailure(messageOf(error));
      await progress.write({ state: 'failed', requests, progress: null, failure: `The cluster refused the ${what(entry)}: ${cause.words}`, failureDetail: messageOf(error) });
      return;
    }
    // No answer, or a server error: the trigger may or may not have been registered. Ask with the same id.
    await progress.write({ requests, progress: `No clear answer to the trigger (${messageOf(error)}): asking the cluster about trigger ${entry.id}.` });
    await resolveDelivery(progress, ctx);
    return;
  }
  await progress.write({
    state: 'in-progress',
    phase: 'poll',
    requests: { ...entry.requests, trigger: entry.requests.trigger + 1 },
    progress: entry.kind === 'stop' ? 'Stop-with-savepoint in progress: taking the savepoint.' : 'Savepoint in progress.',
  });
}

/**
 * The trigger's answer was never seen. The JobManager registers an operation as it receives the trigger, and keeps
 * it while it runs and `rest.async.store-duration` after: if it still does not know the id once a request sent
 * then could have arrived, it never received it — unless the job's history shows a savepoint since, or the entry
 * is so old the JobManager may have forgotten it.
 */
async function resolveDelivery(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const followed = await followJob(progress, ctx, {
    read: async () => Boolean(await ctx.client.request(operationEndpoints.savepointStatus, { jobid: entry.jobId!, triggerid: entry.id })),
    notFound: () => false,
    reached: (known) => known,
    deadline: entry.createdAt + ctx.settings.deliveryGraceMs,
    waiting: () => progress.maybeWrite(),
    silent: () => progress.maybeWrite(),
  });
  switch (followed.outcome) {
    case 'reached':
      await progress.write({ state: 'in-progress', phase: 'poll', progress: `The cluster has trigger ${entry.id}: ${what(entry)} in progress.` });
      return;
    case 'timed-out':
      await concludeNeverReceived(progress, ctx);
      return;
    case 'unreachable':
      await progress.write({
        state: 'unknown',
        progress: null,
        failure: `Outcome unknown: the cluster at ${entry.clusterUrl} could not be asked about trigger ${entry.id} for ${formatMinutes(followed.silentForMs)} (${messageOf(followed.error)}). Check the job's checkpoint history for a savepoint taken since ${new Date(entry.createdAt).toISOString()}.`,
        failureDetail: messageOf(followed.error),
      });
      return;
  }
}

async function concludeNeverReceived(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const jobKnown = await jobState(ctx, entry.jobId!);
  if (jobKnown === 'unknown-job') {
    await progress.write({
      state: 'unknown',
      progress: null,
      failure: `Outcome unknown: the JobManager knows neither trigger ${entry.id} nor job ${entry.jobId} any more (it was restarted without high availability, the job was archived, or the URL now points to another cluster).`,
    });
    return;
  }
  const evidence = await evidenceFor(ctx, entry);
  const recent = ctx.clock.now() - entry.createdAt < ctx.settings.storeDurationMs;
  if (evidence?.since) {
    await progress.write({
      state: 'unknown',
      progress: null,
      failure: `Outcome unknown: the JobManager does not know trigger ${entry.id}, but ${describeEvidence(evidence.since)}: it may be this one.`,
      resultPath: null,
    });
  } else if (recent || evidence?.covers) {
    const stillRunning = entry.kind === 'stop' && jobKnown === 'RUNNING' ? ' The job keeps running.' : '';
    await progress.write({
      state: 'not-started',
      progress: null,
      failure: `Not started: the request never reached the cluster (the JobManager does not know trigger ${entry.id}${evidence ? ' and the job\'s checkpoint history shows no savepoint since' : ''}). Nothing was done.${stillRunning}`,
    });
  } else {
    await progress.write({
      state: 'unknown',
      progress: null,
      failure: `Outcome unknown: the JobManager does not know trigger ${entry.id}, and it was sent more than ${formatMinutes(ctx.settings.storeDurationMs)} ago (longer than the JobManager keeps results), with no checkpoint history reaching back that far.`,
    });
  }
}

/**
 * The job's savepoints since this operation was created, leaving out those the journal's other operations on the job
 * ended with (each is theirs, not evidence for this one): the one way both the resume and the poll read the evidence.
 */
function evidenceFor(ctx: DriverContext, entry: StoredJournalEntry): Promise<SavepointEvidence | null> {
  const others = ctx.journal.list({ jobId: entry.jobId! }).filter((e) => e.id !== entry.id && e.resultPath);
  return savepointEvidence(ctx.client, entry.jobId!, entry.createdAt, new Set(others.map((e) => e.resultPath!)));
}

/** The job's state, or `unknown-job` when the cluster does not know it, or null when it could not tell. */
async function jobState(ctx: DriverContext, jobId: string): Promise<string | 'unknown-job' | null> {
  try {
    return (await ctx.client.request(operationEndpoints.jobStatus, { jobid: jobId })).status;
  } catch (error) {
    rethrowUnexpected(error);
    return isNotFound(error) ? 'unknown-job' : null;
  }
}

async function poll(progress: Progress, ctx: DriverContext): Promise<void> {
  const started = ctx.clock.now();
  const watch = new SavepointWatch(progress, ctx);
  const kind = progress.current.kind === 'stop' ? 'stop' : 'savepoint';
  const followed = await followJob(progress, ctx, {
    read: () => ctx.client.request(operationEndpoints.savepointStatus, { jobid: progress.current.jobId!, triggerid: progress.current.id }),
    reached: (status) => status.status.id !== 'IN_PROGRESS',
    // The caller's patience (the CLI's --max-wait), counted before each poll; a savepoint is never done at once.
    deadline: ctx.options.maxWaitMs !== undefined ? started + ctx.options.maxWaitMs : Infinity,
    firstPoll: 'after-delay',
    // A trigger the cluster refuses to tell about (a 4xx) will not be told about by asking again.
    onlyTransientIsSilence: true,
    waiting: async () => {
      // What Flink is doing: the savepoint's acknowledged subtasks, journaled as they change.
      const entry = progress.current;
      const seen = await watch.readWhenDue();
      const words = (p: typeof seen) => (p ? describeProgress(p, kind) : `${entry.kind === 'stop' ? 'Stop-with-savepoint' : 'Savepoint'} in progress.`);
      if (seen && progressChanged(entry.checkpoint, seen)) await progress.write({ checkpoint: seen, progress: words(seen) });
      else await progress.maybeWrite({ progress: words(entry.checkpoint) });
    },
    silent: (error) => progress.maybeWrite({ progress: `The cluster does not answer (${messageOf(error)}); still asking about trigger ${progress.current.id}.` }),
  });
  const entry = progress.current;
  switch (followed.outcome) {
    case 'timed-out':
      await progress.write({ progress: `Still in progress after ${formatMinutes(ctx.clock.now() - started)} of waiting; the journal keeps tracking it.` });
      await ctx.journal.release(entry.id);
      return;
    case 'gone': {
      const evidence = await evidenceFor(ctx, entry);
      await progress.write({
        state: 'unknown',
        progress: null,
        failure:
          `Outcome unknown: the JobManager no longer knows trigger ${entry.id} (it forgets finished operations after rest.async.store-duration, and all of them when it restarts).` +
          (evidence?.since ? ` Note: ${describeEvidence(evidence.since)}.` : ''),
        failureDetail: messageOf(followed.error),
      });
      return;
    }
    case 'unreachable':
      await progress.write({
        state: 'unknown',
        progress: null,
        failure: `Outcome unknown: the cluster at ${entry.clusterUrl} stopped answering about trigger ${entry.id} (${messageOf(followed.error)}) for ${formatMinutes(followed.silentForMs)}. The ${what(entry)} may still complete: check the job's checkpoint history.`,
        failureDetail: messageOf(followed.error),
      });
      return;
    case 'reached':
      break;
  }
  const status = followed.answer;
  const location = status.operation?.location;
  if (location) {
    const checkpointNote = await watch.abandonedNote(location);
    if (entry.kind === 'stop') {
      await progress.write({ phase: 'await-end', resultPath: location, checkpoint: null, checkpointNote, progress: 'Savepoint taken; waiting for the job to finish.' });
    } else {
      await progress.write({ state: 'succeeded', resultPath: location, checkpoint: null, checkpointNote, progress: null });
    }
    return;
  }
  const cause = describeFailure(status.operation?.['failure-cause']?.['stack-trace']);
  const keepsRunning = entry.kind === 'stop' && (await jobState(ctx, entry.jobId!)) === 'RUNNING' ? ' The job keeps running.' : '';
  await progress.write({ state: 'failed', progress: null, checkpoint: null, failure: `${cause.words}${keepsRunning}`, failureDetail: cause.detail });
}

/** Stop-with-savepoint: the savepoint is there; the job drains and ends FINISHED. */
async function awaitJobEnd(progress: Progress, ctx: DriverContext): Promise<void> {
  const started = ctx.clock.now();
  const followed = await followJob(progress, ctx, {
    read: async () => (await ctx.client.request(endpoints.jobDetails, { jobid: progress.current.jobId! })).state,
    reached: (state) => state === 'FINISHED',
    jobState: (state) => state,
    deadline: started + ctx.settings.watchTimeoutMs,
    waiting: (state) => progress.maybeWrite({ progress: `Savepoint taken; the job is ${state}, waiting for it to finish.` }),
  });
  switch (followed.outcome) {
    case 'reached':
      await progress.write({ state: 'succeeded', progress: null });
      return;
    case 'ended':
      await progress.write({ state: 'succeeded', progress: `The savepoint was taken, but the job then ended ${followed.state}, not FINISHED.` });
      return;
    case 'gone':
    case 'unreachable':
    case 'timed-out': {
      // The savepoint is there whatever the job does next: the operation succeeded, the job's end is not known.
      const why =
        followed.outcome === 'gone'
          ? 'the cluster no longer lists the job'
          : followed.outcome === 'unreachable'
            ? 'the cluster stopped answering'
            : `after ${formatMinutes(ctx.clock.now() - started)} the job is still ${followed.answer}`;
      await progress.write({ state: 'succeeded', progress: `The savepoint was taken; whether the job finished is not known: ${why}.` });
      return;
    }
  }
}
