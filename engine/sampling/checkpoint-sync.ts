import type { FlinkRestClient, RequestOptions, TrafficStats } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { CheckpointRecord } from '../history/checkpoint-history.ts';
import type { CheckpointSubtaskColumns } from '../history/checkpoint-subtasks.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { JobSample } from '../history/job-sample.ts';
import {
  checkpointsIn,
  isSettled,
  recordChanged,
  toCheckpointOverview,
  toCheckpointRecord,
  toCheckpointSubtaskColumns,
  toCheckpointVertexRecords,
  type CheckpointingStatistics,
} from './checkpoint-records.ts';

export interface CheckpointSyncOptions {
  /**
   * Settled checkpoints whose details are fetched per sample (1 + V requests each), newest first. Bounds the cost
   * when checkpoints settle faster than samples are taken; the rest are fetched in later samples while the
   * JobManager still has them. @default 1
   */
  detailsPerSample?: number;
}

/** What one sync cost and wrote. */
export interface CheckpointSyncOutcome {
  /** Records inserted or updated. */
  written: number;
  /** Checkpoints whose details were fetched, and the requests and bytes that took. */
  detailsFetched: number;
  detailRequests: number;
  detailBytes: number;
}

const key = (c: { triggerTimestamp: number; id: number }) => `${c.triggerTimestamp}/${c.id}`;

/**
 * Keeps one watched job's checkpoints in the history, from the `/checkpoints` response each sample already fetched:
 * every completed, failed and in-progress checkpoint and savepoint with its summary, written when it changed; once a
 * checkpoint settled, its per-vertex and per-subtask details, fetched once (the store remembers that they were).
 * Flink's own statistics start over after a JobManager failover; the history does not (records are keyed by trigger
 * time and id). Also fills each sample's per-subtask state size from the last completed checkpoint's details.
 */
export class CheckpointSync {
  private readonly detailsPerSample: number;
  /** State sizes per vertex of the last completed checkpoint with details: read once per checkpoint, not per sample. */
  private stateBytes: { checkpoint: string; byVertex: Map<string, Float64Array> } | undefined;

  constructor(
    private readonly history: HistoryStore,
    private readonly clusterId: string,
    private readonly jobId: string,
    options: CheckpointSyncOptions = {},
  ) {
    this.detailsPerSample = options.detailsPerSample ?? 1;
  }

  /**
   * `detailsBudget`: settled checkpoints whose details this call may fetch (default `detailsPerSample`); `signal` and
   * `tally`: the sample's deadline and its count of requests.
   */
  async sync(
    client: FlinkRestClient,
    statistics: CheckpointingStatistics,
    sample: JobSample,
    options: { detailsBudget?: number; signal?: AbortSignal; tally?: TrafficStats } = {},
  ): Promise<CheckpointSyncOutcome> {
    const store = this.history.checkpoints;
    const { clusterId, jobId } = this;
    const now = sample.t;
    const { listed, written } = await this.record(statistics, now);

    const outcome: CheckpointSyncOutcome = { written, detailsFetched: 0, detailRequests: 0, detailBytes: 0 };
    const wanting = listed
      .map((record) => store.find(clusterId, jobId, record.triggerTimestamp, record.id) ?? record)
      .filter((record) => isSettled(record.status) && !record.vertices && record.detailsUnavailable === undefined)
      .sort((a, b) => b.triggerTimestamp - a.triggerTimestamp)
      .slice(0, options.detailsBudget ?? this.detailsPerSample);
    const request: RequestOptions = { priority: 'background', signal: options.signal, tally: options.tally };
    for (const record of wanting) {
      const before = { ...client.stats };
      const fetched = await this.fetchDetails(client, record, now, request);
      outcome.detailRequests += client.stats.requests - before.requests;
      outcome.detailBytes += client.stats.bytes - before.bytes;
      if (fetched === 'retry-later') break;
      outcome.detailsFetched += 1;
    }
    this.fillStateBytes(sample);
    return outcome;
  }

  /** The checkpoints and Flink's counts of one `/checkpoints` response, without any details. */
  async record(statistics: CheckpointingStatistics, now: number): Promise<{ listed: CheckpointRecord[]; written: number }> {
    const store = this.history.checkpoints;
    const { clusterId, jobId } = this;
    const listed = checkpointsIn(statistics).map((wire) => toCheckpointRecord(wire, now, store.find(clusterId, jobId, wire.trigger_timestamp, wire.id)));
    const changed = listed.filter((record) => recordChanged(store.find(clusterId, jobId, record.triggerTimestamp, record.id), record));
    if (statistics.history) changed.push(...this.vanished(new Set(listed.map(key)), now));
    await store.putMany(clusterId, jobId, changed);
    await this.syncOverview(statistics, now);
    return { listed, written: changed.length };
  }

  /**
   * A settled checkpoint's details at once, when a page opens it before the sampler's budget fetched them (a page's
   * requests, not the background's): false when there was nothing to fetch or the JobManager did not answer.
   */
  async fetchOpened(client: FlinkRestClient, triggerTimestamp: number, id: number, now: number): Promise<boolean> {
    const record = this.history.checkpoints.find(this.clusterId, this.jobId, triggerTimestamp, id);
    if (!record || !isSettled(record.status) || record.vertices || record.detailsUnavailable !== undefined) return false;
    return (await this.fetchDetails(client, record, now, {})) === 'stored';
  }

  /** The job is gone from the cluster: its checkpoints still in progress will never report a result. */
  async jobGone(now: number): Promise<void> {
    const unfinished = this.history.checkpoints
      .recent(this.clusterId, this.jobId, 50)
      .filter((record) => record.status === 'IN_PROGRESS')
      .map((record) => ({ ...record, status: 'UNKNOWN', failureMessage: 'The job left the cluster before this checkpoint finished: its outcome is unknown.', updatedAt: now }));
    await this.history.checkpoints.putMany(this.clusterId, this.jobId, unfinished);
  }

  /** In-progress checkpoints the JobManager no longer lists: no result will come (its statistics were reset). */
  private vanished(listed: Set<string>, now: number): CheckpointRecord[] {
    return this.history.checkpoints
      .recent(this.clusterId, this.jobId, 50)
      .filter((record) => record.status === 'IN_PROGRESS' && !listed.has(key(record)))
      .map((record) => ({
        ...record,
        status: 'UNKNOWN',
        failureMessage: 'The JobManager stopped reporting this checkpoint before it finished (a JobManager failover resets its statistics): its outcome is unknown.',
        updatedAt: now,
      }));
  }

  private async syncOverview(statistics: CheckpointingStatistics, now: number): Promise<void> {
    const { clusterId, jobId } = this;
    const before = this.history.checkpoints.overview(clusterId, jobId);
    const overview = toCheckpointOverview(statistics, now);
    await this.history.checkpoints.putOverview(clusterId, jobId, overview);
    const restored = overview.restored;
    if (restored && restored.restoreTimestamp !== before?.restored?.restoreTimestamp) {
      const what = restored.isSavepoint ? 'savepoint' : 'checkpoint';
      await this.history.events.append({
        clusterId,
        jobId,
        t: now,
        kind: 'checkpoint-restored',
        message: `The job restored ${what} ${restored.id} at ${new Date(restored.restoreTimestamp).toISOString()}${restored.externalPath ? ` from ${restored.externalPath}` : ''}.`,
      });
    }
  }

  /**
   * Fetches a settled checkpoint's details (1 request) and its vertices' subtasks (1 each), and stores them.
   * A checkpoint the JobManager no longer has is marked so (never asked again); any other failure is retried later.
   */
  private async fetchDetails(client: FlinkRestClient, record: CheckpointRecord, now: number, request: RequestOptions): Promise<'stored' | 'retry-later'> {
    const { clusterId, jobId } = this;
    const params = { jobid: jobId, checkpointid: String(record.id) };
    let details;
    try {
      details = await client.request(endpoints.checkpointDetails, params, undefined, request);
    } catch (error) {
      if (!isNotFound(error)) return 'retry-later';
      await this.history.checkpoints.put(clusterId, jobId, { ...record, detailsUnavailable: `The JobManager no longer has its details (${messageOf(error)}).`, updatedAt: now });
      return 'stored';
    }
    if (details.trigger_timestamp !== record.triggerTimestamp) {
      // After a JobManager failover the same id can name another run's checkpoint.
      const reason = `The JobManager now reports another checkpoint under id ${record.id}: this one's details are gone.`;
      await this.history.checkpoints.put(clusterId, jobId, { ...record, detailsUnavailable: reason, updatedAt: now });
      return 'stored';
    }
    const vertices = toCheckpointVertexRecords(details);
    const subtasks = new Map<string, CheckpointSubtaskColumns>();
    await Promise.all(
      vertices.map(async (vertex) => {
        try {
          const task = await client.request(endpoints.checkpointSubtaskDetails, { ...params, vertexid: vertex.vertexId }, undefined, request);
          subtasks.set(vertex.vertexId, toCheckpointSubtaskColumns(task));
        } catch (error) {
          vertex.subtasksUnavailable = messageOf(error);
        }
      }),
    );
    // Cut by the sample's deadline: asked again whole later, rather than kept with subtasks missing for good.
    if (request.signal?.aborted) return 'retry-later';
    const settled = toCheckpointRecord(details, now, record);
    await this.history.checkpoints.putDetails(clusterId, jobId, { ...settled, vertices }, subtasks);
    return 'stored';
  }

  /** The sample's per-subtask `checkpointedBytes`: each subtask's full state size in the last completed checkpoint. */
  fillStateBytes(sample: JobSample): void {
    const latest = this.history.checkpoints
      .recent(this.clusterId, this.jobId, 20)
      .find((record) => record.status === 'COMPLETED' && !record.isSavepoint && record.vertices);
    if (!latest) return;
    if (this.stateBytes?.checkpoint !== key(latest)) {
      const byVertex = new Map<string, Float64Array>();
      for (const vertex of latest.vertices ?? []) {
        const columns = this.history.checkpoints.subtasks(this.clusterId, this.jobId, latest.triggerTimestamp, latest.id, vertex.vertexId);
        if (columns) byVertex.set(vertex.vertexId, columns.figures.stateBytes);
      }
      this.stateBytes = { checkpoint: key(latest), byVertex };
    }
    for (const vertex of sample.vertices) {
      const sizes = this.stateBytes.byVertex.get(vertex.id);
      // A rescale since that checkpoint: its subtask indices no longer match the sample's.
      if (vertex.subtasks && sizes && sizes.length === vertex.parallelism) vertex.subtasks.checkpointedBytes.set(sizes);
    }
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof EngineError && error.info.kind === 'not-found';
}

function messageOf(error: unknown): string {
  return error instanceof EngineError ? error.info.message : String(error);
}
