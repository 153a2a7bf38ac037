import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { HistoryApi, JobWatch } from '../contracts/history.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { requireId, requireText, requireWhole } from '../flink-rest/input-checks.ts';
import { checkProcessId } from '../inspect/fetch-process-figures.ts';
import { CheckpointSync } from '../sampling/checkpoint-sync.ts';
import type { JobWatcher } from '../sampling/job-watcher.ts';
import type { HistoryStore } from './history-store.ts';
import { checkpointDetail, jobCheckpoints } from './views/checkpoint-views.ts';
import { jobMetricsHistory } from './views/metrics-history.ts';
import { processMetricsHistory } from './views/process-history.ts';
import { recordedJobGraph, recordedJobs } from './views/recorded-jobs.ts';

/** A page's Checkpoints tab refreshes a watched job's checkpoints this often at most (the metrics fetch interval). */
const CHECKPOINTS_REFRESH_MS = 10_000;

/** The longest window the metrics history answers for: a week. */
const MAX_METRICS_WINDOW_MS = 7 * 24 * 3600_000;

/** The watched jobs and what the console recorded of them: read from the store only, so it answers for jobs and clusters that are gone. */
export class HistoryService implements HistoryApi {
  constructor(
    private readonly history: HistoryStore,
    private readonly registry: ClusterRegistry,
    private readonly watcher: JobWatcher,
  ) {}

  private readonly checkpointsRefreshedAt = new Map<string, number>();

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
    const cluster = requireText(clusterId, 'cluster id');
    const count = requireWhole(limit ?? 60, 'limit', 1, 1000);
    await this.refreshCheckpoints(cluster, id);
    return jobCheckpoints(this.history, cluster, id, count, this.watchOf(cluster, id));
  }

  /**
   * The sampler reads a watched job's `/checkpoints` once a minute: a page showing its Checkpoints tab refreshes them
   * with its own poll (one request, at most every `CHECKPOINTS_REFRESH_MS`), as fresh as the JobManager's. Details stay
   * the sampler's, or the page's when it opens a checkpoint.
   */
  private async refreshCheckpoints(clusterId: string, jobId: string): Promise<void> {
    if (!this.history.watches.get(clusterId, jobId)) return;
    const key = `${clusterId}\u0000${jobId}`;
    const now = Date.now();
    if (now - (this.checkpointsRefreshedAt.get(key) ?? -Infinity) < CHECKPOINTS_REFRESH_MS) return;
    this.checkpointsRefreshedAt.delete(key);
    this.checkpointsRefreshedAt.set(key, now);
    while (this.checkpointsRefreshedAt.size > 64) this.checkpointsRefreshedAt.delete(this.checkpointsRefreshedAt.keys().next().value!);
    try {
      const client = this.registry.connection(clusterId).client;
      const statistics = await client.request(endpoints.jobCheckpoints, { jobid: jobId });
      await new CheckpointSync(this.history, clusterId, jobId).record(statistics, now);
    } catch {
      // Checkpointing off, or the cluster does not answer: the tab shows what the history holds.
    }
  }

  async checkpointDetail(clusterId: string, jobId: string, checkpointId: number, triggerTimestamp: number) {
    const id = requireId(jobId, 'job');
    const cluster = requireText(clusterId, 'cluster id');
    const checkpoint = requireWhole(checkpointId, 'checkpoint id', 0);
    const triggered = requireWhole(triggerTimestamp, 'trigger timestamp', 0);
    // The sampler fetches settled checkpoints' details within a budget: one the operator opens is fetched now.
    try {
      const client = this.registry.connection(cluster).client;
      await new CheckpointSync(this.history, cluster, id).fetchOpened(client, triggered, checkpoint, Date.now());
    } catch {
      // A cluster that is gone or does not answer: the detail says what the history holds.
    }
    return checkpointDetail(this.history, cluster, id, checkpoint, triggered);
  }

  async metrics(clusterId: string, jobId: string, windowMs: number, to?: number) {
    const span = requireWhole(windowMs, 'window', 1_000, MAX_METRICS_WINDOW_MS);
    const end = to === undefined || to === null ? Date.now() : requireWhole(to, 'window end', 0);
    const [cluster, job] = [requireText(clusterId, 'cluster id'), requireId(jobId, 'job')];
    // A window from before the console watched the job: read from the cluster's metrics store, where it has one.
    await this.watcher.reachBack(cluster, job, end - span);
    return jobMetricsHistory(this.history, cluster, job, end - span, end);
  }

  async processMetrics(clusterId: string, processId: string, windowMs: number, to?: number) {
    const cluster = requireText(clusterId, 'cluster id');
    const id = checkProcessId(processId);
    if (id === null) throw new EngineError('invalid-input', 'A process is "jobmanager" or a TaskManager id (up to 256 characters, no "/" or control characters).');
    const span = requireWhole(windowMs, 'window', 1_000, this.history.retention.sampleMaxAgeMs);
    const end = to === undefined || to === null ? Date.now() : requireWhole(to, 'window end', 0);
    // The processes are sampled on the heels of a watched job's samples (see ProcessSampler).
    const recording = this.watcher.list().some((w) => w.clusterId === cluster);
    return processMetricsHistory(this.history, cluster, id, end - span, end, recording);
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
