import path from 'node:path';
import { openClusterStore } from '../../cli/data-dir.ts';
import { watchedHotTenant } from '../../cli/testing/watched-hot-tenant.ts';
import { MemorySecretStore } from '../../clusters/secret-store.ts';
import { HistoryStore } from '../../history/history-store.ts';
import type { LocalEngineHandle } from '../../local/start-local-engine.ts';
import { createEngine, type Engine } from '../create-engine.ts';

export interface EngineOverWatchedHotTenant {
  local: LocalEngineHandle;
  history: HistoryStore;
  /** The app's engine, the watched local engine built in as `local-engine`. */
  engine: Engine;
  jobId: string;
  close(): Promise<void>;
}

/** The app's engine over the history of hot-tenant the app watched: the services as the UI calls them. */
export async function engineOverWatchedHotTenant(dirs: { make(): string }): Promise<EngineOverWatchedHotTenant> {
  const watched = await watchedHotTenant(dirs);
  const local = watched.engine;
  const jobId = [...local.engine.cluster.jobs.values()][0].jobId;
  const history = HistoryStore.open(path.join(watched.dataDir, 'history'));
  const engine = createEngine({
    clusterStore: openClusterStore(dirs.make()),
    secretStore: new MemorySecretStore(),
    history,
    mode: 'web',
    version: 'test',
    builtInClusters: [{ id: 'local-engine', name: 'local engine', url: local.url, auth: { kind: 'none' }, timeoutMs: 10_000 }],
  });
  return {
    local,
    history,
    engine,
    jobId,
    close: async () => {
      await engine.close();
      await history.close();
      await local.close();
    },
  };
}
