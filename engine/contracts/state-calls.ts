import { z } from 'zod';
import { arg, call, optionalArg, type ServiceCalls } from './call-spec.ts';
import type { StateApi, StateOptions } from './state.ts';

/** The state service's calls as the bridge checks them. The window and the figures are judged by the engine. */

const options: z.ZodType<StateOptions> = z
  .object({ capacityBytes: z.number().nullable().optional(), keyCount: z.number().nullable().optional() })
  .strict();

export const STATE_CALLS: ServiceCalls<StateApi> = {
  jobState: call(arg('clusterId', z.string()), arg('jobId', z.string()), arg('windowMs', z.number()), optionalArg('options', options)),
};
