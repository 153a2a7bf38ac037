import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import type { TaskManagerRef } from '../history/job-sample.ts';
import { toJobPlan } from '../sampling/job-graph.ts';
import type { JobLayout } from './to-job-samples.ts';

type JobDetails = ResponseOf<typeof endpoints.jobDetails>;

/**
 * Pure: the REST job details the console has (`GET /jobs/:jobid`) → the layout a metrics store's series are joined
 * to: the vertices as the JobManager names and sizes them now, the plan's edges (as the graph's), and the
 * TaskManagers the REST API lists, whose ids a series' `tm_id` is matched to.
 */
export function jobLayoutOf(clusterId: string, details: JobDetails, taskManagers: TaskManagerRef[] = []): JobLayout {
  return {
    clusterId,
    jobId: details.jid,
    jobName: details.name,
    jobStartTime: details['start-time'],
    vertices: details.vertices.map((v) => ({ id: v.id, name: v.name, parallelism: v.parallelism, maxParallelism: v.maxParallelism ?? details.maxParallelism ?? null, status: v.status })),
    edges: toJobPlan(clusterId, details).edges,
    taskManagers,
  };
}
