import { endpoints } from '../flink-rest/endpoints.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { describeFailure } from './failure-cause.ts';
import { formatMinutes, isRefusal, messageOf, Progress, rethrowUnexpected, type DriverContext } from './driver-context.ts';
import { followJob, lostTrack } from './follow-job.ts';
import type { StoredJournalEntry } from './journal.ts';
import { compareShapes, describeChanges, shapeOfJob } from './job-shape.ts';
import { jarRunBody } from './request-bodies.ts';

/**
 * Resubmit: `POST /jars/:jarid/run` (from a savepoint, at a parallelism) with a job id chosen before the request,
 * then follow the new job until every task runs. Phases: `submit` → `watch`. A resumed `submit` is resolved by
 * asking for that job id: Flink never runs two jobs with one id, so nothing can start twice. Once the new job runs,
 * its vertices are compared with the stopped run's (kept in the entry before the request) and any change reported.
 */

/** Running a jar builds the job graph on the JobManager, which can take far longer than a request timeout. */
const RUN_DELIVERY_GRACE_MS = 120_000;

export async function driveResubmit(entry: StoredJournalEntry, ctx: DriverContext, fresh: boolean): Promise<StoredJournalEntry> {
  const progress = new Progress(entry, ctx);
  if (progress.current.phase === 'submit') {
    if (fresh) await submit(progress, ctx);
    else await resolveDelivery(progress, ctx, null);
  }
  if (progress.current.phase === 'watch' && !ctx.options.stopWhenAccepted) await watch(progress, ctx);
  return progress.current;
}

async function submit(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const program = entry.params.program!;
  const requests = { ...entry.requests, trigger: entry.requests.trigger + 1 };
  try {
    const { jobid } = await ctx.client.request(operationEndpoints.runJar, { jarid: program.jarId }, undefined, { body: jarRunBody(program, entry.params) });
    await progress.write({ state: 'in-progress', phase: 'watch', requests, newJobId: jobid, progress: `Job ${jobid} submitted: waiting for its tasks to run.` });
  } catch (error) {
    rethrowUnexpected(error);
    if (isRefusal(error)) {
      const cause = describeFailure(messageOf(error));
      await progress.write({ state: 'failed', requests, progress: null, failure: `The cluster refused to run the jar: ${cause.words}`, failureDetail: messageOf(error) });
      return;
    }
    await progress.write({ requests, progress: `No clear answer to the run request (${messageOf(error)}): asking for job ${entry.params.newJobId}.` });
    await resolveDelivery(progress, ctx, messageOf(error));
  }
}

/** Is the job with our id there? Yes: it was submitted. Still not after the grace: it never was. */
async function resolveDelivery(progress: Progress, ctx: DriverContext, submitError: string | null): Promise<void> {
  const entry = progress.current;
  const jobId = entry.params.newJobId!;
  const followed = await followJob(progress, ctx, {
    read: async () => Boolean(await ctx.client.request(operationEndpoints.jobStatus, { jobid: jobId })),
    notFound: () => false,
    reached: (exists) => exists,
    deadline: entry.createdAt + Math.max(ctx.settings.deliveryGraceMs, RUN_DELIVERY_GRACE_MS),
  });
  switch (followed.outcome) {
    case 'reached':
      await progress.write({ state: 'in-progress', phase: 'watch', newJobId: jobId, progress: `Job ${jobId} was submitted: waiting for its tasks to run.` });
      return;
    case 'timed-out':
      await progress.write(
        submitError
          ? { state: 'failed', progress: null, failure: `The jar run failed (${submitError}) and no job ${jobId} exists.`, failureDetail: submitError }
          : { state: 'not-started', progress: null, failure: `Not started: the run request never reached the cluster (it has no job ${jobId}). Nothing was submitted.` },
      );
      return;
    case 'unreachable':
      await progress.write({
        state: 'unknown',
        progress: null,
        failure: `Outcome unknown: the cluster at ${entry.clusterUrl} could not be asked about job ${jobId} for ${formatMinutes(followed.silentForMs)} (${messageOf(followed.error)}).`,
      });
      return;
  }
}

/** The reason a job failed, from its exception history or (a failed restore leaves that empty) its execution result. */
export async function jobFailureCause(client: FlinkRestClient, jobId: string): Promise<{ words: string; detail: string }> {
  try {
    const result = await client.request(operationEndpoints.jobExecutionResult, { jobid: jobId });
    const trace = result['job-execution-result']?.['failure-cause']?.['stack-trace'];
    if (trace) return describeFailure(trace);
  } catch {
    // fall through to the exception history
  }
  try {
    const exceptions = await client.request(operationEndpoints.jobExceptions, { jobid: jobId }, { maxExceptions: '1' });
    const trace = exceptions.exceptionHistory?.entries[0]?.stacktrace ?? exceptions['root-exception'] ?? undefined;
    if (trace) return describeFailure(trace);
  } catch {
    // no cause available
  }
  return { words: 'The cluster gives no reason.', detail: '' };
}

async function watch(progress: Progress, ctx: DriverContext): Promise<void> {
  const started = ctx.clock.now();
  const jobId = progress.current.newJobId ?? progress.current.params.newJobId!;
  const followed = await followJob(progress, ctx, {
    read: () => ctx.client.request(endpoints.jobDetails, { jobid: jobId }),
    reached: (details) => details.state === 'RUNNING' && details.vertices.every((v) => v.status === 'RUNNING'),
    jobState: (details) => details.state,
    deadline: started + ctx.settings.watchTimeoutMs,
    waiting: (details) => progress.maybeWrite({ progress: `Job ${jobId} is ${details.state}: waiting for its tasks to run.` }),
  });
  switch (followed.outcome) {
    case 'reached': {
      // The new job beside the stopped run: any vertex whose parallelism or max parallelism changed is reported.
      const stopped = progress.current.params.stoppedShape;
      const shapeChanges = stopped ? compareShapes(stopped, shapeOfJob(followed.answer)) : undefined;
      await progress.write({ state: 'succeeded', newJobId: jobId, progress: shapeChanges ? describeChanges(shapeChanges) : null, ...(shapeChanges ? { shapeChanges } : {}) });
      return;
    }
    case 'ended': {
      const cause = followed.state === 'FAILED' ? await jobFailureCause(ctx.client, jobId) : { words: '', detail: '' };
      await progress.write({
        state: 'failed',
        newJobId: jobId,
        progress: null,
        failure: `Job ${jobId} was submitted but ended ${followed.state}${cause.words ? `: ${cause.words}` : '.'}`,
        failureDetail: cause.detail || null,
      });
      return;
    }
    case 'timed-out':
      await progress.write({
        state: 'failed',
        newJobId: jobId,
        progress: null,
        failure: `Job ${jobId} was submitted but is still ${followed.answer!.state} after ${formatMinutes(ctx.clock.now() - started)} (not every task runs: the cluster may lack slots).`,
      });
      return;
    case 'gone':
    case 'unreachable':
      await progress.write({
        state: 'unknown',
        progress: null,
        failure: lostTrack(followed, `job ${jobId} was submitted`, 'stopped listing it'),
      });
      return;
  }
}
