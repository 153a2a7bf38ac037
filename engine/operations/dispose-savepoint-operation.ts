import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import { describeFailure } from './failure-cause.ts';
import { formatMinutes, isRefusal, isTransient, messageOf, pollDelay, Progress, rethrowUnexpected, type DriverContext } from './driver-context.ts';
import { followJob } from './follow-job.ts';
import type { StoredJournalEntry } from './journal.ts';
import { disposalBody } from './request-bodies.ts';

/**
 * Savepoint disposal: `POST /savepoint-disposal` `{savepoint-path}`, then `GET /savepoint-disposal/:triggerid` until
 * COMPLETED. Flink chooses the trigger id, so a request whose answer was lost cannot be asked about: it is sent again,
 * which is safe, since disposing twice deletes nothing more. The second request then finds nothing where the
 * savepoint was (Flink's FileNotFoundException): after a first request that may have reached the cluster, that is the
 * first one's success, not a failure. Phases: `trigger` → `poll` (with Flink's trigger id in the entry) → outcome.
 * The console forgets the savepoint only from a succeeded entry, that is after Flink said COMPLETED.
 */

/** Flink's words when the savepoint is not there (AbstractFsCheckpointStorageAccess.resolveCheckpointPointer). */
const NOT_FOUND = /FileNotFoundException|Cannot find checkpoint or savepoint/;

export async function driveDisposal(entry: StoredJournalEntry, ctx: DriverContext, fresh: boolean): Promise<StoredJournalEntry> {
  const progress = new Progress(entry, ctx);
  // A resumed `trigger` may have been received (the process died before the answer was written): send it again.
  for (;;) {
    if (progress.current.phase === 'trigger') await trigger(progress, ctx, !fresh);
    if (progress.current.phase !== 'poll' || ctx.options.stopWhenAccepted) return progress.current;
    await poll(progress, ctx);
    // A forgotten trigger sends the disposal again (poll set the phase back).
    if ((progress.current.phase as string) !== 'trigger') return progress.current;
    fresh = false;
  }
}

async function trigger(progress: Progress, ctx: DriverContext, mayHaveBeenSent: boolean): Promise<void> {
  const path = progress.current.params.savepointPath!;
  for (let attempt = 0; ; attempt++) {
    const entry = progress.current;
    const requests = { ...entry.requests, trigger: entry.requests.trigger + 1 };
    try {
      const answer = await ctx.client.request(operationEndpoints.disposeSavepoint, {}, undefined, { body: disposalBody(path) });
      await progress.write({
        state: 'in-progress',
        phase: 'poll',
        requests,
        params: { ...entry.params, disposalTriggerId: answer['request-id'], disposalResent: mayHaveBeenSent || entry.params.disposalResent === true },
        progress: `Disposal of ${path} in progress (trigger ${answer['request-id']}).`,
      });
      return;
    } catch (error) {
      rethrowUnexpected(error);
      if (isRefusal(error)) {
        const cause = describeFailure(messageOf(error));
        await progress.write({ state: 'failed', requests, progress: null, failure: `The cluster refused to dispose ${path}: ${cause.words}`, failureDetail: messageOf(error) });
        return;
      }
      mayHaveBeenSent = true;
      if (!isTransient(error) || progress.unreachable()) {
        await progress.write({
          state: 'unknown',
          requests,
          progress: null,
          failure: `Outcome unknown: the disposal of ${path} was sent to ${entry.clusterUrl} but no answer came for ${formatMinutes(progress.unreachableForMs())} (${messageOf(error)}). The savepoint may or may not be deleted: check the folder; the console still lists it.`,
          failureDetail: messageOf(error),
        });
        return;
      }
      await progress.write({ requests, params: { ...entry.params, disposalResent: true }, progress: `No clear answer to the disposal request (${messageOf(error)}): sending it again, which is safe.` });
      await ctx.clock.sleep(pollDelay(attempt, ctx.settings));
    }
  }
}

async function poll(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const path = entry.params.savepointPath!;
  const triggerId = entry.params.disposalTriggerId!;
  const started = ctx.clock.now();
  const followed = await followJob(progress, ctx, {
    read: () => ctx.client.request(operationEndpoints.savepointDisposalStatus, { triggerid: triggerId }),
    reached: (status) => status.status.id === 'COMPLETED',
    deadline: ctx.options.maxWaitMs !== undefined ? started + ctx.options.maxWaitMs : Infinity,
    firstPoll: 'after-delay',
    onlyTransientIsSilence: true,
    waiting: () => progress.maybeWrite({ progress: `Disposal of ${path} in progress (trigger ${triggerId}).` }),
    silent: (error) => progress.maybeWrite({ progress: `The cluster does not answer (${messageOf(error)}); still asking about disposal ${triggerId}.` }),
  });
  switch (followed.outcome) {
    case 'timed-out':
      await progress.write({ progress: `Still disposing after ${formatMinutes(ctx.clock.now() - started)} of waiting; the journal keeps tracking it.` });
      await ctx.journal.release(entry.id);
      return;
    case 'gone':
      // The JobManager forgot the trigger (restarted, or past rest.async.store-duration): ask again, which is safe.
      await progress.write({ phase: 'trigger', params: { ...entry.params, disposalResent: true }, progress: `The JobManager no longer knows disposal ${triggerId}: sending the disposal again.` });
      return;
    case 'unreachable':
      await progress.write({
        state: 'unknown',
        progress: null,
        failure: `Outcome unknown: the cluster at ${entry.clusterUrl} stopped answering about disposal ${triggerId} of ${path} (${messageOf(followed.error)}). The savepoint may or may not be deleted; the console still lists it.`,
        failureDetail: messageOf(followed.error),
      });
      return;
    case 'reached':
      break;
  }
  const trace = followed.answer.operation?.['failure-cause']?.['stack-trace'];
  if (!trace) {
    await progress.write({ state: 'succeeded', resultPath: path, progress: null });
    return;
  }
  if (NOT_FOUND.test(trace) && progress.current.params.disposalResent) {
    await progress.write({ state: 'succeeded', resultPath: path, progress: `${path} is gone: the earlier disposal request, whose answer was lost, deleted it.` });
    return;
  }
  if (NOT_FOUND.test(trace)) {
    const line = trace.split('\n')[0].trim();
    await progress.write({ state: 'failed', progress: null, failure: `Nothing disposed: Flink finds no savepoint at ${path} (it was disposed already, or the path is wrong): ${line}`, failureDetail: trace });
    return;
  }
  const cause = describeFailure(trace);
  await progress.write({ state: 'failed', progress: null, failure: `Flink could not dispose ${path}: ${cause.words}`, failureDetail: cause.detail });
}
