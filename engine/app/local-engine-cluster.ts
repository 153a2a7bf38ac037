import type { BuiltInCluster } from './create-engine.ts';

/**
 * The bundled local engine as the app's default cluster: listed first, never saved, never edited. Its per-launch
 * token is the cluster's bearer secret, held in memory only (never in the secret store, which may persist).
 */
export function localEngineCluster(url: string, token: string): BuiltInCluster {
  return { id: 'local-engine', name: 'Local engine', url, auth: { kind: 'bearer' }, timeoutMs: 10_000, secret: token };
}
