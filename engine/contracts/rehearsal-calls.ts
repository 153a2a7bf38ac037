import { z } from 'zod';
import { arg, call, type ServiceCalls } from './call-spec.ts';
import type { RehearsalApi, RehearsalOptions } from './rehearsal.ts';

/** The rehearsal service's calls as the bridge checks them. The figures and the limits are judged by the engine. */

const options: z.ZodType<RehearsalOptions> = z
  .object({
    key: z.string().optional(),
    vertexId: z.string().optional(),
    salt: z.number().optional(),
    parallelism: z.number().optional(),
    keyShares: z.array(z.object({ key: z.string(), share: z.number() }).strict()).optional(),
    inputRecordsPerSecond: z.number().optional(),
    measuredSeconds: z.number().optional(),
  })
  .strict();

export const REHEARSAL_CALLS: ServiceCalls<RehearsalApi> = {
  rehearse: call(arg('clusterId', z.string()), arg('jobId', z.string()), arg('options', options)),
  cancel: call(arg('clusterId', z.string()), arg('jobId', z.string())),
};
