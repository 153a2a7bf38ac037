import type { JobPlan } from '../../../engine/contracts/jobs';
import { usePolling } from '../../components/usePolling';
import { useJobsApi } from '../jobs/api';

/**
 * The job's plan, asked for once when the graph tab opens: one request that answers before the graph's per-vertex
 * metrics do, so the layout (hundreds of ms for a big job) runs while they are fetched. Null until it comes, or
 * when it fails: the graph's own refresh then brings the structure, and says what went wrong.
 */
export function useJobPlan(clusterId: string, jobId: string): JobPlan | null {
  const jobsApi = useJobsApi();
  return usePolling<JobPlan>(() => jobsApi.plan(clusterId, jobId), null, { key: `${clusterId}/${jobId}`, paused: false }).data ?? null;
}
