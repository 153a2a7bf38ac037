import { z } from 'zod';
import type { AuthInput, MetricsStoreConfig, MetricsStoreInput } from '../contracts/clusters.ts';
import { FlinkRestClient, parseClusterUrl, type ClientAuth } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { readCaFile } from './cluster-connections.ts';

/**
 * A cluster's metrics store as the cluster form gives it, as it is kept (beside the cluster, its secret in the
 * SecretStore under its own key) and as it is reached: the same HTTP client as a JobManager's — deadlines, body caps,
 * TLS verification with the extra CA, auth — pointed at the store's query API.
 */

export function metricsStoreSecretKey(clusterId: string): string {
  return `metrics-store:${clusterId}`;
}

const AuthSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('basic'), username: z.string().trim().min(1, 'a username is required'), password: z.string().optional() }),
  z.object({ kind: z.literal('bearer'), token: z.string().optional() }),
]);

export const MetricsStoreInputSchema = z.object({
  url: z.string().trim().min(1, 'a query API URL is required'),
  auth: AuthSchema,
  caFile: z.string().trim().optional().transform((v) => (v ? v : undefined)),
});

/** On disk, beside the cluster: never a secret. */
export const StoredMetricsStore = z.object({
  url: z.string().min(1),
  auth: z.object({ kind: z.enum(['none', 'basic', 'bearer']), username: z.string().optional() }),
  caFile: z.string().optional(),
});
export type StoredMetricsStore = z.infer<typeof StoredMetricsStore>;

/** The store's URL as the client will use it; its own words when it is not one. */
export function parseMetricsStoreUrl(raw: string): string {
  try {
    return parseClusterUrl(raw, { example: 'http://prometheus:9090', base: "the query API's base URL (before /api/v1)" });
  } catch (error) {
    throw error instanceof EngineError ? new EngineError('invalid-url', `Metrics store: ${error.info.message}`) : error;
  }
}

export function toStoredMetricsStore(input: MetricsStoreInput & { url: string }): StoredMetricsStore {
  return {
    url: input.url,
    auth: input.auth.kind === 'basic' ? { kind: 'basic', username: input.auth.username } : { kind: input.auth.kind },
    ...(input.caFile ? { caFile: input.caFile } : {}),
  };
}

export function toMetricsStoreConfig(stored: StoredMetricsStore, hasSecret: boolean): MetricsStoreConfig {
  return { ...stored, auth: { ...stored.auth, hasSecret } };
}

/** The secret the form sent, or on edit the one already kept. */
export function metricsStoreSecretOf({ auth }: { auth: AuthInput }, kept: string | undefined): string | undefined {
  if (auth.kind === 'basic') return auth.password || kept;
  if (auth.kind === 'bearer') return auth.token || kept;
  return undefined;
}

export function createMetricsStoreClient(store: StoredMetricsStore, secret: string | undefined, timeoutMs: number): FlinkRestClient {
  let auth: ClientAuth = { kind: 'none' };
  if (store.auth.kind !== 'none') {
    if (secret === undefined) {
      throw new EngineError('unauthorized', `No ${store.auth.kind === 'basic' ? 'password' : 'token'} for the metrics store ${store.url} in this session: edit the cluster to enter it again.`);
    }
    auth = store.auth.kind === 'basic' ? { kind: 'basic', username: store.auth.username ?? '', password: secret } : { kind: 'bearer', token: secret };
  }
  return new FlinkRestClient({ baseUrl: store.url, auth, caPem: store.caFile ? readCaFile(store.caFile) : undefined, timeoutMs });
}
