import { z } from 'zod';
import { arg, call, type ServiceCalls } from './call-spec.ts';
import type { AdviceApi, AdviceOptions } from './advice.ts';

/** The advice service's calls as the bridge checks them. The key, the format and the figures are judged by the engine. */

const options: z.ZodType<AdviceOptions> = z
  .object({
    key: z.string().optional(),
    vertexId: z.string().optional(),
    format: z.string().optional(),
    keyRecordsPerSecond: z.number().optional(),
    buckets: z.number().optional(),
  })
  .strict();

export const ADVICE_CALLS: ServiceCalls<AdviceApi> = {
  advise: call(arg('clusterId', z.string()), arg('jobId', z.string()), arg('options', options)),
};
