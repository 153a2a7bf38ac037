import { z } from 'zod';
import { arg, call, optionalArg, type ServiceCalls } from './call-spec.ts';
import { FLAME_GRAPH_TYPES } from './flame-graph.ts';
import type { InspectApi } from './inspect.ts';

/** The inspect service's calls as the bridge checks them. Ids are text here; the engine checks they are Flink ids. */

const clusterId = arg('clusterId', z.string());
const jobId = arg('jobId', z.string());

export const INSPECT_CALLS: ServiceCalls<InspectApi> = {
  configuration: call(clusterId, optionalArg('jobId', z.string())),
  vertex: call(clusterId, jobId, arg('vertexId', z.string())),
  flameGraph: call(
    clusterId,
    jobId,
    arg('vertexId', z.string()),
    arg('options', z.object({ type: z.enum(FLAME_GRAPH_TYPES).optional(), subtask: z.number().int().min(0).max(1 << 15).optional() }).strict()),
  ),
  process: call(clusterId, arg('processId', z.string().max(256))),
};
