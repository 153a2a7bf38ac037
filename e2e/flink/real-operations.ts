import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { FlinkRestClient } from '../../engine/flink-rest/client.ts';
import { HistoryStore } from '../../engine/history/history-store.ts';
import { Operations, type OperationsCluster } from '../../engine/operations/operations.ts';
import type { OperationSettings } from '../../engine/operations/driver-context.ts';
import type { FlinkCluster } from '../support/flinkCluster.ts';
import { ROOT } from '../support/paths.ts';

/** The engine's operations against the real test cluster, with a journal of their own in a fresh folder under `.cache/`. */
export interface RealOperations {
  /** The run's folder (savepoint targets and scratch files go here), removed by `close`. */
  work: string;
  operations: Operations;
  close(): Promise<void>;
}

export function openRealOperations(cluster: FlinkCluster, name: string, settings?: Partial<OperationSettings>): RealOperations {
  const root = path.join(ROOT, '.cache', name, cluster.version);
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(path.join(root, 'run-'));
  const store = HistoryStore.open(path.join(work, 'history'));
  const client = new FlinkRestClient({ baseUrl: cluster.restUrl, timeoutMs: 30_000 });
  const c: OperationsCluster = { id: 'real', name: `Flink ${cluster.version}`, url: cluster.restUrl, client, metricsFetchIntervalMs: async () => 10_000 };
  const operations = new Operations({ history: store, origin: 'cli', cluster: () => c, clusterOfEntry: () => c, settings });
  return {
    work,
    operations,
    async close() {
      operations.close();
      await store.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
