import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import { describeFailure } from './failure-cause.ts';
import { formatMinutes, isRefusal, messageOf, Progress, rethrowUnexpected, type DriverContext } from './driver-context.ts';
import { followJob, lostTrack } from './follow-job.ts';
import { newEntry, type StoredJournalEntry } from './journal.ts';
import { resourceRequirementsBody } from './request-bodies.ts';
import { rescaleEndpoints } from '../flink-rest/rescale-endpoints.ts';
import { findOwnRescale, outcomeFromRescaleRecord, type ClusterSlots } from './rescale-record.ts';

/**
 * Rescale, two routes.
 *
 * Adaptive scheduler: `PUT /jobs/:jobid/resource-requirements` (every vertex's bounds, the upper bound at the
 * target), then watch `GET /jobs/:jobid` until each vertex runs at its target. Phases `request` → `watch`; a resumed
 * `request` is resolved by reading the requirements back. Where Flink keeps a rescale history (2.3+), the UUIDs it
 * holds are journaled before the request, and the outcome is then Flink's own record of the rescale (the first new
 * one): COMPLETED, IGNORED or FAILED with its reason, its UUID in the journal (`outcomeSource: 'rescale-history'`).
 *
 * Otherwise, through a savepoint: stop-with-savepoint (no drain), then resubmit the program from that savepoint at
 * the new parallelism. Each step is its own journal entry (ids fixed when the rescale was written), so a resume
 * continues exactly where the steps stand and neither can happen twice. Phases `stop` → `resubmit`.
 */

export async function driveRescale(entry: StoredJournalEntry, ctx: DriverContext, fresh: boolean): Promise<StoredJournalEntry> {
  return entry.params.route === 'savepoint' ? driveSavepointRoute(entry, ctx) : driveAdaptive(entry, ctx, fresh);
}

function describeTarget(target: Record<string, number>): string {
  const values = [...new Set(Object.values(target))];
  return values.length === 1 ? `parallelism ${values[0]}` : `parallelism ${Object.values(target).join('/')}`;
}

async function driveAdaptive(entry: StoredJournalEntry, ctx: DriverContext, fresh: boolean): Promise<StoredJournalEntry> {
  const progress = new Progress(entry, ctx);
  if (progress.current.phase === 'request') {
    if (fresh) await request(progress, ctx);
    else await resolveDelivery(progress, ctx);
  }
  if (progress.current.phase === 'watch' && !ctx.options.stopWhenAccepted) {
    const known = progress.current.knownRescaleUuids;
    if (known) await watchRecord(progress, ctx, known);
    else await watch(progress, ctx);
  }
  return progress.current;
}

/** The rescale UUIDs in Flink's rescale history now; null when the cluster keeps none (404: older Flink, size 0). */
async function rescaleUuidsNow(ctx: DriverContext, jobId: string): Promise<string[] | null> {
  try {
    return (await ctx.client.request(rescaleEndpoints.history, { jobid: jobId })).map((r) => r.rescaleUuid);
  } catch (error) {
    rethrowUnexpected(error);
    return null; // no history, or no answer: the outcome is observed as before
  }
}

async function clusterSlots(ctx: DriverContext): Promise<ClusterSlots | null> {
  try {
    const overview = await ctx.client.request(endpoints.overview);
    return { available: overview['slots-available'], total: overview['slots-total'] };
  } catch (error) {
    rethrowUnexpected(error);
    return null;
  }
}

/**
 * Until Flink's record of this rescale has a terminal state (Flink records the job ending, a newer request, missing
 * slots), then its details (each vertex before/after) decide the outcome. Short of slots Flink may wait without
 * ending the record: the deadline ends the watch as a failure that says what it waits for.
 */
async function watchRecord(progress: Progress, ctx: DriverContext, known: string[]): Promise<void> {
  const started = ctx.clock.now();
  const entry = progress.current;
  const target = entry.params.parallelism!;
  const followed = await followJob(progress, ctx, {
    read: async () => findOwnRescale(await ctx.client.request(rescaleEndpoints.history, { jobid: entry.jobId! }), known),
    reached: (record) => Boolean(record?.terminalState),
    deadline: started + ctx.settings.watchTimeoutMs,
    waiting: (record) =>
      progress.maybeWrite({
        outcomeSource: 'rescale-history',
        progress: record ? `Flink's rescale ${record.rescaleUuid} is in progress: waiting for ${describeTarget(target)}.` : `Waiting for Flink to record the rescale to ${describeTarget(target)}.`,
      }),
  });
  switch (followed.outcome) {
    case 'reached':
    case 'timed-out': {
      const found = followed.answer;
      if (!found) {
        await progress.write({
          state: 'failed',
          progress: null,
          outcomeSource: 'rescale-history',
          failure: `After ${formatMinutes(ctx.clock.now() - started)} Flink's rescale history shows no rescale for the new requirements (they stay set).`,
        });
        return;
      }
      let details = found;
      try {
        details = await ctx.client.request(rescaleEndpoints.details, { jobid: entry.jobId!, rescaleuuid: found.rescaleUuid });
      } catch (error) {
        rethrowUnexpected(error); // the history's record stands, without the vertices
      }
      const outcome = outcomeFromRescaleRecord(details, target, await clusterSlots(ctx));
      const timedOut = outcome.state === 'in-progress';
      await progress.write({
        state: outcome.state === 'succeeded' ? 'succeeded' : 'failed',
        progress: null,
        outcomeSource: 'rescale-history',
        rescaleRecord: outcome.record,
        failure: timedOut ? `After ${formatMinutes(ctx.clock.now() - started)}: ${outcome.words} The requirements stay set: the adaptive scheduler scales up once the slots are there.` : outcome.words,
        failureDetail: outcome.failureDetail,
      });
      return;
    }
    case 'gone':
    case 'unreachable':
      await progress.write({
        state: 'unknown',
        progress: null,
        outcomeSource: 'rescale-history',
        failure: `Outcome unknown: the requirements were set, then the cluster ${followed.outcome === 'gone' ? 'stopped listing the job' : `stopped answering (${messageOf(followed.error)})`}.`,
      });
      return;
  }
}

async function request(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const target = entry.params.parallelism!;
  // Before the request, so Flink's record of it is the first one after these (a crash after here resumes with them).
  await progress.write({ knownRescaleUuids: await rescaleUuidsNow(ctx, entry.jobId!) });
  let sent = 0;
  try {
    sent++;
    const current = await ctx.client.request(operationEndpoints.resourceRequirements, { jobid: entry.jobId! });
    sent++;
    await ctx.client.request(operationEndpoints.updateResourceRequirements, { jobid: entry.jobId! }, undefined, { body: resourceRequirementsBody(current, target) });
  } catch (error) {
    rethrowUnexpected(error);
    const requests = { ...entry.requests, trigger: entry.requests.trigger + sent };
    if (isRefusal(error)) {
      const cause = describeFailure(messageOf(error));
      await progress.write({
        state: 'failed',
        requests,
        progress: null,
        failure: `The cluster refused the new resource requirements: ${cause.words} (Only the adaptive scheduler, jobmanager.scheduler: adaptive, rescales this way.)`,
        failureDetail: messageOf(error),
      });
      return;
    }
    await progress.write({ requests, progress: `No clear answer (${messageOf(error)}): reading the job's resource requirements back.` });
    await resolveDelivery(progress, ctx);
    return;
  }
  const requests = { ...entry.requests, trigger: entry.requests.trigger + sent };
  await progress.write({ state: 'in-progress', phase: 'watch', requests, progress: `Requirements set: waiting for the job to run at ${describeTarget(target)}.` });
}

/** Are the requirements ours? Then the PUT arrived. Still the old ones after the grace: it never did. */
async function resolveDelivery(progress: Progress, ctx: DriverContext): Promise<void> {
  const entry = progress.current;
  const target = entry.params.parallelism!;
  const followed = await followJob(progress, ctx, {
    read: () => ctx.client.request(operationEndpoints.resourceRequirements, { jobid: entry.jobId! }),
    reached: (current) => Object.entries(target).every(([id, p]) => current[id]?.parallelism.upperBound === p),
    deadline: entry.createdAt + ctx.settings.deliveryGraceMs,
  });
  switch (followed.outcome) {
    case 'reached':
      await progress.write({ state: 'in-progress', phase: 'watch', progress: `The cluster has the new requirements: waiting for ${describeTarget(target)}.` });
      return;
    case 'timed-out':
      await progress.write({ state: 'not-started', progress: null, failure: 'Not started: the new resource requirements never reached the cluster (it still has the old ones). Nothing changed.' });
      return;
    case 'gone':
      await progress.write({ state: 'unknown', progress: null, failure: `Outcome unknown: the cluster no longer knows job ${entry.jobId}.` });
      return;
    case 'unreachable':
      await progress.write({ state: 'unknown', progress: null, failure: `Outcome unknown: the cluster at ${entry.clusterUrl} has not answered for ${formatMinutes(followed.silentForMs)} (${messageOf(followed.error)}).` });
      return;
  }
}

/**
 * Until every vertex runs at its target with all tasks RUNNING. The adaptive scheduler rescales when it has the
 * slots (and, from Flink 1.20, at a checkpoint): short of slots the job runs lower, which ends the watch as a
 * failure that says so (the requirements stay, and the job scales up when slots free up).
 */
async function watch(progress: Progress, ctx: DriverContext): Promise<void> {
  const started = ctx.clock.now();
  const entry = progress.current;
  const target = entry.params.parallelism!;
  const parallelisms = (details: ResponseOf<typeof endpoints.jobDetails>) => details.vertices.map((v) => v.parallelism).join('/');
  const followed = await followJob(progress, ctx, {
    read: () => ctx.client.request(endpoints.jobDetails, { jobid: entry.jobId! }),
    reached: (details) => details.state === 'RUNNING' && details.vertices.every((v) => v.parallelism === (target[v.id] ?? v.parallelism) && v.status === 'RUNNING'),
    jobState: (details) => details.state,
    deadline: started + ctx.settings.watchTimeoutMs,
    waiting: (details) => progress.maybeWrite({ progress: `The job is ${details.state} at ${parallelisms(details)}: waiting for ${describeTarget(target)}.` }),
  });
  switch (followed.outcome) {
    case 'reached':
      await progress.write({ state: 'succeeded', progress: null, outcomeSource: 'observed' });
      return;
    case 'ended':
      await progress.write({ state: 'failed', progress: null, outcomeSource: 'observed', failure: `The job ended ${followed.state} while rescaling.` });
      return;
    case 'timed-out': {
      const details = followed.answer!;
      let slots = '';
      try {
        const overview = await ctx.client.request(endpoints.overview);
        slots = ` The cluster has ${overview['slots-available']} free slot${overview['slots-available'] === 1 ? '' : 's'} of ${overview['slots-total']}.`;
      } catch {
        // the reason stays without the slot count
      }
      await progress.write({
        state: 'failed',
        progress: null,
        outcomeSource: 'observed',
        failure:
          `After ${formatMinutes(ctx.clock.now() - started)} the job runs at ${parallelisms(details)} (${details.state}), not the requested ${describeTarget(target)}.${slots} ` +
          'The requirements stay set: the adaptive scheduler scales up once the slots are there.',
      });
      return;
    }
    case 'gone':
    case 'unreachable':
      await progress.write({
        state: 'unknown',
        progress: null,
        failure: lostTrack(followed, 'the requirements were set'),
      });
      return;
  }
}

/** The steps, each an entry of its own; the parent follows them and ends with the last step's outcome. */
async function driveSavepointRoute(entry: StoredJournalEntry, ctx: DriverContext): Promise<StoredJournalEntry> {
  const progress = new Progress(entry, ctx);
  const params = entry.params;
  if (progress.current.phase === 'stop') {
    const stop = await ctx.drive(
      ctx.journal.get(params.stopTriggerId!) ??
        stepEntry(progress.current, params.stopTriggerId!, 'stop', 'trigger', { targetDirectory: params.targetDirectory, format: params.format, drain: false }),
    );
    if (stop.state === 'pending' || stop.state === 'in-progress') return progress.current; // still running elsewhere or --no-wait
    if (stop.state !== 'succeeded' || !stop.resultPath) {
      await progress.write({
        state: stop.state === 'unknown' ? 'unknown' : 'failed',
        progress: null,
        failure: `The stop-with-savepoint did not succeed, so nothing was resubmitted: ${stop.failure ?? stop.state}`,
        failureDetail: stop.failureDetail,
      });
      return progress.current;
    }
    await progress.write({
      phase: 'resubmit',
      state: 'in-progress',
      resultPath: stop.resultPath,
      progress: `Stopped with savepoint ${stop.resultPath}: resubmitting at parallelism ${params.jobParallelism}.`,
    });
  }
  if (progress.current.phase === 'resubmit') {
    const current = progress.current;
    const resubmit = await ctx.drive(
      ctx.journal.get(params.resubmitTriggerId!) ??
        stepEntry(current, params.resubmitTriggerId!, 'resubmit', 'submit', {
          program: params.program,
          savepointPath: current.resultPath!,
          jobParallelism: params.jobParallelism,
          allowNonRestoredState: false,
          newJobId: params.newJobId,
        }),
    );
    if (resubmit.state === 'pending' || resubmit.state === 'in-progress') return progress.current;
    await progress.write({
      state: resubmit.state,
      newJobId: resubmit.newJobId,
      progress: resubmit.state === 'succeeded' && resubmit.newJobId ? await shortOfTarget(resubmit.newJobId, params.parallelism ?? {}, ctx) : null,
      failure:
        resubmit.state === 'succeeded'
          ? null
          : `Stopped with savepoint ${current.resultPath}, but the resubmit did not succeed: ${resubmit.failure ?? resubmit.state} Resubmit from that savepoint by hand.`,
      failureDetail: resubmit.failureDetail,
    });
  }
  return progress.current;
}

/**
 * The vertices of the resubmitted job that do not run at the rescale's target, in words: an operator that sets its own
 * parallelism keeps it whatever the job parallelism (as Flink does), so the job's shape is never changed, or left
 * unchanged, without a word. null when every vertex reached its target (or the new job could not be read: the
 * resubmit's own comparison with the stopped run stands).
 */
async function shortOfTarget(newJobId: string, target: Record<string, number>, ctx: DriverContext): Promise<string | null> {
  try {
    const details = await ctx.client.request(endpoints.jobDetails, { jobid: newJobId });
    const short = details.vertices.filter((v) => target[v.id] !== undefined && v.parallelism !== target[v.id]);
    if (short.length === 0) return null;
    const words = short.map((v) => `${v.name} runs at ${v.parallelism}, not ${target[v.id]}`).join('; ');
    return `Rescaled, but not every vertex: ${words} (an operator that sets its own parallelism keeps it; change it in the job to rescale it).`;
  } catch (error) {
    rethrowUnexpected(error);
    return null;
  }
}

/** A step of a rescale: a journal entry of its own, with the parent's cluster and job. */
function stepEntry(
  parent: StoredJournalEntry,
  id: string,
  kind: 'stop' | 'resubmit',
  phase: string,
  params: StoredJournalEntry['params'],
): NewStep {
  return {
    ...newEntry(id, 0, {
      clusterId: parent.clusterId,
      clusterName: parent.clusterName,
      clusterUrl: parent.clusterUrl,
      jobId: parent.jobId,
      jobName: parent.jobName,
      origin: parent.origin,
      parentId: parent.id,
    }),
    kind,
    phase,
    params,
    lease: null,
    isNewStep: true,
  };
}

/** A step not yet in the journal: the driver writes it (stamped with the time) before running it. */
export type NewStep = Omit<StoredJournalEntry, 'lease'> & { lease: null; isNewStep: true };

export function isNewStep(entry: StoredJournalEntry | NewStep): entry is NewStep {
  return (entry as NewStep).isNewStep === true;
}
