import type { ClusterOverview } from '../contracts/clusters.ts';
import type { JobSummary } from '../contracts/jobs.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';

export async function fetchClusterOverview(
  client: FlinkRestClient,
  clusterId: string,
  minRefreshIntervalMs: number,
): Promise<ClusterOverview> {
  const overview = await client.request(endpoints.overview);
  return {
    clusterId,
    flinkVersion: overview['flink-version'] ?? 'unknown',
    taskManagers: overview.taskmanagers,
    slotsTotal: overview['slots-total'],
    slotsAvailable: overview['slots-available'],
    jobs: {
      running: overview['jobs-running'],
      finished: overview['jobs-finished'],
      cancelled: overview['jobs-cancelled'],
      failed: overview['jobs-failed'],
    },
    minRefreshIntervalMs,
    fetchedAt: Date.now(),
  };
}

/** Running jobs first, then the most recent. */
export async function fetchJobs(client: FlinkRestClient): Promise<JobSummary[]> {
  const { jobs } = await client.request(endpoints.jobsOverview);
  return jobs
    .map((job) => ({
      id: job.jid,
      name: job.name,
      state: job.state,
      startTime: job['start-time'],
      endTime: job['end-time'] > 0 ? job['end-time'] : null,
      durationMs: job.duration,
      tasks: withoutTotal(job.tasks),
    }))
    .sort((a, b) => Number(b.state === 'RUNNING') - Number(a.state === 'RUNNING') || b.startTime - a.startTime);
}

/** Flink adds `total` beside the per-state counts; the sum is the consumer's to compute. */
function withoutTotal(tasks: Record<string, number>): Record<string, number> {
  const { total: _total, ...byState } = tasks;
  return byState;
}
