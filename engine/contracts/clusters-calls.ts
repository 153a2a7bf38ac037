import { z } from 'zod';
import { arg, call, type ServiceCalls } from './call-spec.ts';
import type { ClusterInput, ClustersApi } from './clusters.ts';

/** The clusters service's calls as the bridge checks them. The URL, name and timeout are judged by the engine. */

const clusterId = arg('clusterId', z.string());

const auth = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('basic'), username: z.string(), password: z.string().optional() }),
  z.object({ kind: z.literal('bearer'), token: z.string().optional() }),
]);

const clusterInput: z.ZodType<ClusterInput> = z.object({
  id: z.string().optional(),
  name: z.string(),
  url: z.string(),
  auth,
  caFile: z.string().optional(),
  timeoutMs: z.number().optional(),
  metricsStore: z.object({ url: z.string(), auth, caFile: z.string().optional() }).optional(),
});

export const CLUSTERS_CALLS: ServiceCalls<ClustersApi> = {
  list: call(),
  check: call(arg('input', clusterInput)),
  save: call(arg('input', clusterInput)),
  remove: call(clusterId),
  overview: call(clusterId),
  taskManagers: call(clusterId),
  killTaskManager: call(clusterId, arg('taskManagerId', z.string())),
};
