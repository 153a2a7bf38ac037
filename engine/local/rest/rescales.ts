import type { JobExecution } from '../runtime/job.ts';
import type { RescaleHistory } from '../runtime/rescale-history.ts';
import { RESCALE_HISTORY_SIZE } from '../engine.ts';
import { RestError, type RouteSpec } from './server.ts';

/**
 * Flink 2.3's rescale history over REST (`JobRescales*Headers`): `/jobs/:jobid/rescales/overview`, `/history`,
 * `/details/:rescaleuuid`, `/summary`, `/config`. Answered only where the engine claims 2.3 or later (an older Flink has
 * no such path: 404); a job without a history (`web.adaptive-scheduler.rescale-history.size` 0, Flink's default) answers
 * 404 on every one of them, as Flink does.
 */

function historyOf(job: JobExecution): RescaleHistory {
  if (!job.rescales) {
    throw new RestError(404, `The rescale history of job ${job.jobId} is not available: ${RESCALE_HISTORY_SIZE} is 0 (rescale history disabled).`);
  }
  return job.rescales;
}

/** `JobRescaleConfigInfo`: the adaptive scheduler's settings as the local engine applies them. */
export function rescaleConfig(job: JobExecution, history: RescaleHistory): Record<string, number | string | null> {
  const interval = job.options.checkpointing?.intervalMs;
  return {
    rescaleHistoryMax: history.size,
    schedulerExecutionMode: null,
    submissionResourceWaitTimeoutInMillis: 300_000,
    submissionResourceStabilizationTimeoutInMillis: 10_000,
    slotIdleTimeoutInMillis: 50_000,
    // The local engine rescales without a cooldown or a resource-stabilization wait (README: where it differs).
    executingCooldownTimeoutInMillis: 0,
    executingResourceStabilizationTimeoutInMillis: 0,
    // FLIP-461: a rescale waits for the next completed checkpoint, at most 3 intervals.
    maximumDelayForTriggeringRescaleInMillis: interval !== undefined ? 3 * interval : null,
    rescaleOnFailedCheckpointCount: 2,
  };
}

/** The routes, given how a handler finds its job (server.ts's `job(ctx)`: 400 / 404 as Flink). */
export function rescaleRoutes(jobOf: (ctx: Parameters<RouteSpec['handler']>[0]) => JobExecution): RouteSpec[] {
  const route = (path: string, answer: (history: RescaleHistory, job: JobExecution, params: Record<string, string>) => unknown): RouteSpec => ({
    method: 'GET',
    path,
    handler: (ctx) => {
      // An engine claiming an older Flink has no such path: 404, as for any path it does not know.
      if (!ctx.engine.emulatesAtLeast('2.3.0')) throw new RestError(404, `Not found: ${path.replace(/:(\w+)/g, (_, name: string) => ctx.params[name] ?? name)}`);
      const job = jobOf(ctx);
      return { body: answer(historyOf(job), job, ctx.params) };
    },
  });
  return [
    route('/jobs/:jobid/rescales/overview', (h) => h.overview()),
    route('/jobs/:jobid/rescales/history', (h) => h.history()),
    route('/jobs/:jobid/rescales/details/:rescaleuuid', (h, job, params) => {
      const details = h.details(params.rescaleuuid);
      if (!details) throw new RestError(404, `Rescale ${params.rescaleuuid} of job ${job.jobId} is not in its rescale history (it keeps the last ${h.size}).`);
      return details;
    }),
    route('/jobs/:jobid/rescales/summary', (h) => h.summary()),
    route('/jobs/:jobid/rescales/config', (h, job) => rescaleConfig(job, h)),
  ];
}
