import type { StoredCluster } from '../clusters/cluster-store.ts';

/** The bundled local engine as the app's default cluster: listed first, never saved, never edited. */
export function localEngineCluster(url: string): StoredCluster {
  return { id: 'local-engine', name: 'Local engine', url, auth: { kind: 'none' }, timeoutMs: 10_000 };
}
