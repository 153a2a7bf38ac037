import { describeFailover } from '../analysis/restart-strategy.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints, localEngineEndpoints } from '../flink-rest/endpoints.ts';
import { fetchNumRestarts, fetchRestartStrategy } from '../sampling/job-restart-strategy.ts';

/** Jobs that gave up: their restart strategy said no. */
const GIVEN_UP = new Set(['FAILING', 'FAILED']);

/**
 * Kills a TaskManager of the bundled local engine (its own `POST /local-engine/v1/taskmanagers/:id/kill`) and says
 * what happens to each job that ran on it, from that job's restart strategy as the cluster reports it: "restarts in
 * 5 s (…)" or "fails for good (…)". `formatTime` renders the moment the TaskManager comes back.
 */
export async function killTaskManagerAndReport(
  client: FlinkRestClient,
  taskManagerId: string,
  formatTime: (epochMs: number) => string,
): Promise<{ message: string }> {
  const result = await client.request(localEngineEndpoints.killTaskManager, { taskmanagerid: taskManagerId });
  const back = result.restartsAt !== null ? ` A new TaskManager registers at ${formatTime(result.restartsAt)}.` : '';
  if (result.failedJobs.length === 0) return { message: `TaskManager ${result.killed} killed; it ran no task.${back}` };
  const { jobs } = await client.request(endpoints.jobsOverview);
  const fates = await Promise.all(
    result.failedJobs.map(async (jobId) => {
      const [strategy, numRestarts] = await Promise.all([fetchRestartStrategy(client, jobId), fetchNumRestarts(client, jobId)]);
      const job = jobs.find((j) => j.jid === jobId);
      const fate = describeFailover(strategy, { failed: job !== undefined && GIVEN_UP.has(job.state), numRestarts });
      return `Job ${job ? `${job.name} (${jobId})` : jobId} ${fate}.`;
    }),
  );
  return { message: `TaskManager ${result.killed} killed. ${fates.join(' ')}${back}` };
}
