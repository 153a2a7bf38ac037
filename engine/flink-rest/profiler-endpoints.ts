import type { z } from 'zod';
import type { EndpointSpec } from './endpoints.ts';
import * as schemas from './profiler-schemas.ts';

function spec<S extends z.ZodType>(method: 'GET' | 'POST', path: string, specSchema: string, response: S): EndpointSpec<z.output<S>> {
  return { method, path, specSchema, response: response as unknown as z.ZodType<z.output<S>> };
}

/**
 * The profiler's endpoints (Flink 1.19+), the JobManager's and each TaskManager's: start one (`{mode, duration}` in
 * seconds, 1–300), list them. A cluster without `rest.profiling.enabled` answers 404 to all of them. The result file
 * (async-profiler's HTML) is read as text: see `profileFileEndpoints` (engine/profiler/profile-file.ts).
 */
export const profilerEndpoints = {
  jobManagerProfiles: spec('GET', '/jobmanager/profiler', 'ProfilingInfoList', schemas.ProfilingInfoList),
  startJobManagerProfile: spec('POST', '/jobmanager/profiler', 'ProfilingInfo', schemas.ProfilingInfo),
  taskManagerProfiles: spec('GET', '/taskmanagers/:taskmanagerid/profiler', 'ProfilingInfoList', schemas.ProfilingInfoList),
  startTaskManagerProfile: spec('POST', '/taskmanagers/:taskmanagerid/profiler', 'ProfilingInfo', schemas.ProfilingInfo),
} as const;
