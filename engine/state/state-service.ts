import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { StateApi, StateOptions } from '../contracts/state.ts';
import { requireId, requireText } from '../flink-rest/input-checks.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { jobState } from './job-state.ts';
import { syncCheckpointsForView } from './sync-checkpoints-for-view.ts';

/** Where a job's state lives and how fast it grows: the history's checkpoints, with RocksDB's native metrics from the cluster. */
export class StateService implements StateApi {
  constructor(
    private readonly registry: ClusterRegistry,
    private readonly history: HistoryStore,
  ) {}

  async jobState(clusterId: string, jobId: string, windowMs: number, options?: StateOptions) {
    const cluster = requireText(clusterId, 'cluster id');
    this.registry.find(cluster);
    const id = requireId(jobId, 'job');
    const client = this.registry.connection(cluster).client;
    try {
      await syncCheckpointsForView(client, this.history, cluster, id, Date.now());
    } catch (error) {
      // The cluster did not answer, or has checkpointing off: the history's checkpoints, if it kept any, are what there is.
      if (this.history.checkpoints.recent(cluster, id, 1).length === 0) throw error;
    }
    return jobState(this.history, client, cluster, id, windowMs, options ?? {});
  }
}
