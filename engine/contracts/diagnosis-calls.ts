import { z } from 'zod';
import { arg, call, type ServiceCalls } from './call-spec.ts';
import { KEY_TYPES, SKEW_METRICS, type DiagnosisApi, type KeyLookup } from './diagnosis.ts';

/** The diagnosis service's calls as the bridge checks them. Windows and parallelisms are judged by the engine. */

const clusterId = arg('clusterId', z.string());
const jobId = arg('jobId', z.string());
const windowMs = arg('windowMs', z.number());

const keyLookup: z.ZodType<KeyLookup> = z.object({
  key: z.string(),
  keyType: z.enum(KEY_TYPES),
  maxParallelism: z.number(),
  parallelism: z.number(),
  rescaleTo: z.array(z.number()).optional(),
});

export const DIAGNOSIS_CALLS: ServiceCalls<DiagnosisApi> = {
  diagnose: call(clusterId, jobId, windowMs),
  skewHeatmap: call(clusterId, jobId, windowMs, arg('metric', z.enum(SKEW_METRICS)), arg('aggregate', z.enum(['mean', 'max']))),
  locateKey: call(arg('lookup', keyLookup)),
  keyGroupRanges: call(arg('maxParallelism', z.number()), arg('parallelism', z.number())),
};
