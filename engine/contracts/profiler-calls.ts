import { z } from 'zod';
import { arg, call, type ServiceCalls } from './call-spec.ts';
import { MAX_PROFILE_SECONDS, PROFILING_MODES, type ProfilerApi } from './profiler.ts';

/** The profiler service's calls as the bridge checks them; the engine checks the process id and the file name further. */

const clusterId = arg('clusterId', z.string());
const processId = arg('processId', z.string().max(256));

export const PROFILER_CALLS: ServiceCalls<ProfilerApi> = {
  profiles: call(clusterId, processId),
  start: call(clusterId, processId, arg('request', z.object({ mode: z.enum(PROFILING_MODES), durationSeconds: z.number().int().min(1).max(MAX_PROFILE_SECONDS) }).strict())),
  open: call(clusterId, processId, arg('fileName', z.string().max(256))),
};
