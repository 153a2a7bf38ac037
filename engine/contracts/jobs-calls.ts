import { z } from 'zod';
import { arg, call, type ServiceCalls } from './call-spec.ts';
import type { JobsApi } from './jobs.ts';

/** The jobs service's calls as the bridge checks them. Ids are text here; the engine checks they are Flink ids. */

const clusterId = arg('clusterId', z.string());
const jobId = arg('jobId', z.string());

export const JOBS_CALLS: ServiceCalls<JobsApi> = {
  list: call(clusterId),
  graph: call(clusterId, jobId),
  plan: call(clusterId, jobId),
  subtasks: call(clusterId, jobId, arg('vertexId', z.string())),
  exceptions: call(clusterId, jobId),
  rescales: call(clusterId, jobId),
};
