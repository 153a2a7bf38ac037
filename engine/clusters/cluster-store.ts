import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ClusterConfig } from '../contracts/clusters.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { StoredMetricsStore, toMetricsStoreConfig } from './metrics-store-settings.ts';

/** The API both `conf` (web mode, CLI) and `electron-store` (Electron) offer: the same file, `config.json`. */
export interface KeyValueBackend {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** An in-memory key-value backend (settings that need not outlive the process, and tests). */
export function memoryBackend(): KeyValueBackend {
  const values = new Map<string, unknown>();
  return { get: (key) => values.get(key), set: (key, value) => void values.set(key, value) };
}

/** A saved cluster on disk. Secrets are not here: see SecretStore. */
const StoredCluster = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  url: z.string().min(1),
  auth: z.object({ kind: z.enum(['none', 'basic', 'bearer']), username: z.string().optional() }),
  caFile: z.string().optional(),
  timeoutMs: z.number().int().positive(),
  metricsStore: StoredMetricsStore.optional(),
});
export type StoredCluster = z.infer<typeof StoredCluster>;

const KEY = 'clusters';

/** The list of clusters the user added, persisted across restarts. */
export class ClusterStore {
  constructor(private readonly backend: KeyValueBackend) {}

  list(): StoredCluster[] {
    const raw = this.backend.get(KEY) ?? [];
    const parsed = z.array(StoredCluster).safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new EngineError(
        'invalid-input',
        `The saved cluster list is damaged (clusters.${issue.path.join('.')}: ${issue.message}). Fix or delete the config file.`,
      );
    }
    return parsed.data;
  }

  find(id: string): StoredCluster | undefined {
    return this.list().find((c) => c.id === id);
  }

  /** Inserts or replaces by id; a new cluster gets a fresh id. */
  save(cluster: Omit<StoredCluster, 'id'> & { id?: string }): StoredCluster {
    const stored = StoredCluster.parse({ ...cluster, id: cluster.id ?? randomUUID() });
    const others = this.list().filter((c) => c.id !== stored.id);
    this.backend.set(KEY, [...others, stored].sort((a, b) => a.name.localeCompare(b.name)));
    return stored;
  }

  remove(id: string): void {
    this.backend.set(KEY, this.list().filter((c) => c.id !== id));
  }
}

export function toClusterConfig(stored: StoredCluster, hasSecret: boolean, builtIn = false, metricsStoreHasSecret = false): ClusterConfig {
  const { metricsStore, ...rest } = stored;
  return {
    ...rest,
    auth: { ...stored.auth, hasSecret },
    ...(metricsStore ? { metricsStore: toMetricsStoreConfig(metricsStore, metricsStoreHasSecret) } : {}),
    ...(builtIn ? { builtIn } : {}),
  };
}
