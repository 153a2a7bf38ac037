import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { StoredCluster } from '../clusters/cluster-store.ts';
import type { OperationsDeps, OperationsCluster } from './operations.ts';

/** How the operations reach the clusters the registry knows, and those of journal entries another process wrote. */
export function operationsClusters(registry: ClusterRegistry): Pick<OperationsDeps, 'cluster' | 'clusterOfEntry'> {
  const reach = (cluster: StoredCluster): OperationsCluster => {
    const connection = registry.connectionOf(cluster);
    return { id: cluster.id, name: cluster.name, url: cluster.url, client: connection.client, metricsFetchIntervalMs: async () => (await connection.check()).metricsFetchIntervalMs };
  };
  return {
    cluster: (clusterId) => reach(registry.find(clusterId)),
    clusterOfEntry: (entry) => {
      const known = registry.list().find((c) => c.id === entry.clusterId) ?? registry.list().find((c) => c.url === entry.clusterUrl);
      if (known) return reach(known);
      // An entry the CLI wrote for a URL the app has not saved: reach it as the CLI did, without credentials.
      try {
        return reach({ id: entry.clusterId, name: entry.clusterName, url: entry.clusterUrl, auth: { kind: 'none' }, timeoutMs: 10_000 });
      } catch {
        return undefined;
      }
    },
  };
}
