import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { StateApi, StateOptions } from '../contracts/state.ts';
import { requireId, requireText } from '../flink-rest/input-checks.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { jobState } from './job-state.ts';

/** Where a job's state lives and how fast it grows: the history's checkpoints, with RocksDB's native metrics from the cluster. */
export class StateService implements StateApi {
  constructor(
    private readonly registry: ClusterRegistry,
    private readonly history: HistoryStore,
  ) {}

  async jobState(clusterId: string, jobId: string, windowMs: number, options?: StateOptions) {
    const cluster = requireText(clusterId, 'cluster id');
    this.registry.find(cluster);
    return jobState(this.history, this.registry.connection(cluster).client, cluster, requireId(jobId, 'job'), windowMs, options ?? {});
  }
}
