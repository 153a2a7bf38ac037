import { z } from 'zod';
import type { ClusterInput } from '../contracts/clusters.ts';
import { parseClusterUrl } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { MetricsStoreInputSchema, parseMetricsStoreUrl } from './metrics-store-settings.ts';

/** Validates what arrives from the form (through IPC or HTTP): untrusted until it passes here. */
const ClusterInputSchema = z.object({
  id: z.string().min(1).optional(),
  name: z.string().trim().min(1, 'a name is required').max(100),
  url: z.string().min(1, 'a REST URL is required'),
  auth: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('none') }),
    z.object({ kind: z.literal('basic'), username: z.string().min(1, 'a username is required'), password: z.string().optional() }),
    z.object({ kind: z.literal('bearer'), token: z.string().optional() }),
  ]),
  caFile: z.string().trim().optional().transform((v) => (v ? v : undefined)),
  timeoutMs: z.number().int().min(500, 'the timeout must be at least 500 ms').max(300_000, 'the timeout must be at most 300000 ms').optional(),
  metricsStore: MetricsStoreInputSchema.optional(),
});

export type ValidClusterInput = z.infer<typeof ClusterInputSchema> & { url: string; timeoutMs: number };

export const DEFAULT_TIMEOUT_MS = 10_000;

export function validateClusterInput(input: ClusterInput): ValidClusterInput {
  const parsed = ClusterInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join('.') || 'input';
    throw new EngineError('invalid-input', `Cluster ${field}: ${issue.message}.`);
  }
  const { metricsStore } = parsed.data;
  return {
    ...parsed.data,
    url: parseClusterUrl(parsed.data.url),
    timeoutMs: parsed.data.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(metricsStore ? { metricsStore: { ...metricsStore, url: parseMetricsStoreUrl(metricsStore.url) } } : {}),
  };
}
