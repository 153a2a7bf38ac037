import type { ClusterConfig } from '../contracts/clusters.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { ClusterConnections, type ClusterConnection } from './cluster-connections.ts';
import { toClusterConfig, type ClusterStore, type StoredCluster } from './cluster-store.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { createMetricsStoreClient, metricsStoreSecretKey } from './metrics-store-settings.ts';
import type { SecretStore } from './secret-store.ts';

/** A cluster the app provides itself; its secret (the local engine's per-launch token) lives in memory only. */
export interface BuiltInCluster extends StoredCluster {
  secret?: string;
}

/**
 * The clusters the engine knows (the built-in ones first, then the saved ones) and one open connection to each:
 * what every service asks when it needs to reach a cluster by id.
 */
export class ClusterRegistry {
  private readonly connections: ClusterConnections;
  private readonly metricsStores = new Map<string, FlinkRestClient>();

  constructor(
    readonly store: ClusterStore,
    private readonly secrets: SecretStore,
    private readonly builtIns: readonly BuiltInCluster[] = [],
  ) {
    this.connections = new ClusterConnections(withBuiltInSecrets(secrets, builtIns));
  }

  find(clusterId: string): StoredCluster {
    const cluster = this.builtIns.find((c) => c.id === clusterId) ?? this.store.find(clusterId);
    if (!cluster) throw new EngineError('not-found', `No saved cluster with id "${clusterId}".`);
    return cluster;
  }

  /** Every known cluster, built-in ones first. */
  list(): StoredCluster[] {
    return [...this.builtIns, ...this.store.list()];
  }

  /** As the UI sees them: never a secret, only whether one is kept. */
  views(): ClusterConfig[] {
    return [
      ...this.builtIns.map(({ secret, ...c }) => toClusterConfig(c, secret !== undefined, true)),
      ...this.store.list().map((c) => toClusterConfig(c, this.secrets.get(c.id) !== undefined, false, this.secrets.get(metricsStoreSecretKey(c.id)) !== undefined)),
    ];
  }

  isBuiltIn(clusterId: string): boolean {
    return this.builtIns.some((c) => c.id === clusterId);
  }

  connection(clusterId: string): ClusterConnection {
    return this.connections.get(this.find(clusterId));
  }

  /** A connection to a cluster the registry may not hold (a journal entry the CLI wrote for an unsaved URL). */
  connectionOf(cluster: StoredCluster): ClusterConnection {
    return this.connections.get(cluster);
  }

  /** The client of the cluster's metrics store; null when it names none. One per cluster, as for its JobManager. */
  metricsStore(clusterId: string): FlinkRestClient | null {
    const cluster = this.find(clusterId);
    if (!cluster.metricsStore) return null;
    let client = this.metricsStores.get(clusterId);
    if (!client) {
      client = createMetricsStoreClient(cluster.metricsStore, this.secrets.get(metricsStoreSecretKey(clusterId)), cluster.timeoutMs);
      this.metricsStores.set(clusterId, client);
    }
    return client;
  }

  /** After an edit or removal: the next call builds fresh clients. */
  forgetConnection(clusterId: string): void {
    this.connections.forget(clusterId);
    this.metricsStores.delete(clusterId);
  }
}

/** The secret store, with the built-in clusters' in-memory secrets in front: those never reach a store that persists. */
function withBuiltInSecrets(store: SecretStore, builtIns: readonly BuiltInCluster[]): SecretStore {
  const builtIn = (id: string) => builtIns.find((c) => c.id === id);
  return {
    kind: store.kind,
    get: (id) => (builtIn(id) ? builtIn(id)!.secret : store.get(id)),
    set: (id, secret) => store.set(id, secret),
    delete: (id) => store.delete(id),
  };
}
