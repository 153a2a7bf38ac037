import { z } from 'zod';

/**
 * Flink's profiler (FLIP-375, Flink 1.19+, behind `rest.profiling.enabled`): `ProfilingInfo` and its list, as
 * `ProfilingInfo.java` writes them (checked on 2.3.0). Not in the official spec this repository holds (1.19-SNAPSHOT).
 */
export const ProfilingInfo = z.looseObject({
  status: z.enum(['RUNNING', 'FINISHED', 'FAILED']),
  mode: z.string().max(32),
  triggerTime: z.number(),
  finishedTime: z.number().nullable().optional(),
  duration: z.number().nonnegative(),
  message: z.string().max(64 * 1024).nullable().optional(),
  outputFile: z.string().max(1024).nullable().optional(),
});

export const ProfilingInfoList = z.object({ profilingList: z.array(ProfilingInfo).max(10_000) });
