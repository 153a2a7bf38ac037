import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { HistoryApi, JobWatch } from '../contracts/history.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { requireId, requireText, requireWhole } from '../flink-rest/input-checks.ts';
import type { JobWatcher } from '../sampling/job-watcher.ts';
import type { HistoryStore } from './history-store.ts';
import { checkpointDetail, jobCheckpoints } from './views/checkpoint-views.ts';
import { jobMetricsHistory } from './views/metrics-history.ts';
import { recordedJobGraph, recordedJobs } from './views/recorded-jobs.ts';

/** The longest window the metrics history answers for: a week. */
const MAX_METRICS_WINDOW_MS = 7 * 24 * 3600_000;

/** The watched jobs and what the console recorded of them: read from the store only, so it answers for jobs and clusters that are gone. */
export class HistoryService implements HistoryApi {
  constructor(
    private readonly history: HistoryStore,
    private readonly registry: ClusterRegistry,
    private readonly watcher: JobWatcher,
  ) {}

  async watches() {
    return this.watcher.list().map((w) => ({ ...w }));
  }

  async setPinned(clusterId: string, jobId: string, pinned: boolean) {
    this.registry.find(clusterId);
    if (typeof pinned !== 'boolean') throw new EngineError('invalid-input', 'Pin or unpin: `pinned` must be true or false.');
    const id = requireId(jobId, 'job');
    if (pinned) return { ...(await this.watcher.watch(clusterId, id, { pinned: true })) };
    return this.history.watches.get(clusterId, id) ? { ...(await this.watcher.watch(clusterId, id, { pinned: false })) } : null;
  }

  async checkpoints(clusterId: string, jobId: string, limit?: number) {
    const id = requireId(jobId, 'job');
    return jobCheckpoints(this.history, requireText(clusterId, 'cluster id'), id, requireWhole(limit ?? 60, 'limit', 1, 1000), this.watchOf(clusterId, id));
  }

  async checkpointDetail(clusterId: string, jobId: string, checkpointId: number, triggerTimestamp: number) {
    const id = requireId(jobId, 'job');
    return checkpointDetail(this.history, requireText(clusterId, 'cluster id'), id, requireWhole(checkpointId, 'checkpoint id', 0), requireWhole(triggerTimestamp, 'trigger timestamp', 0));
  }

  async metrics(clusterId: string, jobId: string, windowMs: number, to?: number) {
    const span = requireWhole(windowMs, 'window', 1_000, MAX_METRICS_WINDOW_MS);
    const end = to === undefined || to === null ? Date.now() : requireWhole(to, 'window end', 0);
    return jobMetricsHistory(this.history, requireText(clusterId, 'cluster id'), requireId(jobId, 'job'), end - span, end);
  }

  async recordedJobs(clusterId: string) {
    const cluster = requireText(clusterId, 'cluster id');
    return recordedJobs(this.history, cluster, (jobId) => this.watchOf(cluster, jobId));
  }

  async recordedJob(clusterId: string, jobId: string) {
    const id = requireId(jobId, 'job');
    return recordedJobGraph(this.history, requireText(clusterId, 'cluster id'), id, this.watchOf(clusterId, id));
  }

  private watchOf(clusterId: string, jobId: string): JobWatch | null {
    const watch = this.history.watches.get(clusterId, jobId);
    return watch ? { ...watch } : null;
  }
}
