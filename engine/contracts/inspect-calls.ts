import { z } from 'zod';
import { arg, call, optionalArg, type ServiceCalls } from './call-spec.ts';
import type { InspectApi } from './inspect.ts';

/** The inspect service's calls as the bridge checks them. Ids are text here; the engine checks they are Flink ids. */

const clusterId = arg('clusterId', z.string());
const jobId = arg('jobId', z.string());

export const INSPECT_CALLS: ServiceCalls<InspectApi> = {
  configuration: call(clusterId, optionalArg('jobId', z.string())),
  vertex: call(clusterId, jobId, arg('vertexId', z.string())),
  process: call(clusterId, arg('processId', z.string().max(256))),
};
