import { z } from 'zod';
import { arg, call, optionalArg, type ServiceCalls } from './call-spec.ts';
import type { HistoryApi } from './history.ts';

/** The history service's calls as the bridge checks them. Ranges (limits, windows) are judged by the engine. */

const clusterId = arg('clusterId', z.string());
const jobId = arg('jobId', z.string());

export const HISTORY_CALLS: ServiceCalls<HistoryApi> = {
  watches: call(),
  setPinned: call(clusterId, jobId, arg('pinned', z.boolean())),
  checkpoints: call(clusterId, jobId, optionalArg('limit', z.number())),
  checkpointDetail: call(clusterId, jobId, arg('checkpointId', z.number()), arg('triggerTimestamp', z.number())),
  metrics: call(clusterId, jobId, arg('windowMs', z.number()), optionalArg('to', z.number())),
  processMetrics: call(clusterId, arg('processId', z.string().max(256)), arg('windowMs', z.number()), optionalArg('to', z.number())),
  recordedJobs: call(clusterId),
  recordedJob: call(clusterId, jobId),
};
