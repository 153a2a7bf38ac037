import type { CheckpointOutliersAt } from '../../contracts/diagnosis.ts';
import type { CheckpointDetail, CheckpointView, JobCheckpoints, JobWatch } from '../../contracts/history.ts';
import { checkpointFinding, findCheckpointOutliers } from '../../analysis/checkpoint-outliers.ts';
import { explainFailedCheckpoint } from '../../analysis/checkpoint-failure.ts';
import { EngineError } from '../../flink-rest/errors.ts';
import type { CheckpointRecord } from '../checkpoint-history.ts';
import { checkpointSubtaskRows } from '../checkpoint-subtasks.ts';
import type { HistoryStore } from '../history-store.ts';
import { markersOf } from './markers.ts';

/** Statuses whose details come (or came) from the JobManager. */
const KNOWN_OUTCOME = new Set(['COMPLETED', 'FAILED', 'IN_PROGRESS']);

/**
 * A stored record as the UI sees it (plain JSON; no per-vertex details). `around`: the job's checkpoints near it, so
 * a failure a stop or a savepoint caused is said to be so.
 */
export function checkpointView(record: CheckpointRecord, around: readonly CheckpointRecord[] = []): CheckpointView {
  const { vertices, detailsUnavailable, firstSeenAt: _first, updatedAt: _updated, discarded: _discarded, ...figures } = record;
  return {
    ...figures,
    failureExplanation: record.status === 'FAILED' ? explainFailedCheckpoint(record, around) : null,
    details: vertices ? 'stored' : detailsUnavailable !== undefined || !KNOWN_OUTCOME.has(record.status) ? 'unavailable' : 'pending',
    detailsUnavailable: vertices ? null : (detailsUnavailable ?? (KNOWN_OUTCOME.has(record.status) ? null : 'Its outcome is unknown: the JobManager stopped reporting it.')),
  };
}

/** The Checkpoints tab of a job, from the history. */
export function jobCheckpoints(history: HistoryStore, clusterId: string, jobId: string, limit: number, watch: JobWatch | null): JobCheckpoints {
  const recent = history.checkpoints.recent(clusterId, jobId, limit).reverse();
  const views = recent.map((r) => checkpointView(r, recent));
  const inHistory = history.checkpoints.count(clusterId, jobId);
  const newest = (predicate: (r: CheckpointRecord) => boolean) => {
    for (let i = recent.length - 1; i >= 0; i--) if (predicate(recent[i])) return views[i];
    // Older than the list: read further back only when the history holds more than the list shows.
    const all = inHistory > recent.length ? history.checkpoints.recent(clusterId, jobId, inHistory) : [];
    const older = all.find(predicate);
    return older ? checkpointView(older, all) : null;
  };
  const overview = history.checkpoints.overview(clusterId, jobId);
  const sampled = history.samples.job(clusterId, jobId);
  const from = recent[0]?.triggerTimestamp ?? sampled?.firstSampleAt ?? -Infinity;
  let emptyReason: string | null = null;
  if (recent.length === 0) {
    if (overview) emptyReason = 'The JobManager reports no checkpoint of this job yet.';
    else if (sampled) emptyReason = 'The JobManager reports no checkpoint statistics for this job: checkpointing is not enabled.';
    else emptyReason = watch ? 'The console is taking the first sample of this job.' : 'The console has no recording of this job.';
  }
  return {
    clusterId,
    jobId,
    jobName: sampled?.jobName ?? watch?.jobName ?? null,
    checkpoints: views,
    inHistory,
    flink: overview ? { counts: overview.counts, summary: overview.summary, reportedAt: overview.reportedAt } : null,
    latestCompleted: newest((r) => r.status === 'COMPLETED' && !r.isSavepoint),
    latestSavepoint: newest((r) => r.status === 'COMPLETED' && r.isSavepoint),
    latestFailed: newest((r) => r.status === 'FAILED'),
    restored: overview?.restored ?? null,
    markers: markersOf(history.events.list(clusterId, jobId), from),
    emptyReason,
    watch,
  };
}

/** A vertex of a checkpoint's detail, before the analysis: its figures, name and subtask rows. */
export type CheckpointDetailVertex = CheckpointDetail['vertices'][number];

/** One checkpoint's details and outliers, from the history. */
export function checkpointDetail(history: HistoryStore, clusterId: string, jobId: string, checkpointId: number, triggerTimestamp: number): CheckpointDetail {
  const record = history.checkpoints.find(clusterId, jobId, triggerTimestamp, checkpointId);
  if (!record) {
    throw new EngineError('not-found', `The history has no checkpoint ${checkpointId} triggered at ${new Date(triggerTimestamp).toISOString()} for job ${jobId}.`);
  }
  const head = history.samples.latestHead(clusterId, jobId);
  const vertices = (record.vertices ?? []).map((vertex): CheckpointDetailVertex => {
    const columns = history.checkpoints.subtasks(clusterId, jobId, record.triggerTimestamp, record.id, vertex.vertexId);
    const { subtasksUnavailable, ...figures } = vertex;
    return {
      ...figures,
      name: vertex.vertexId,
      subtasks: columns ? checkpointSubtaskRows(columns) : null,
      subtasksUnavailable: columns ? null : (subtasksUnavailable ?? 'Not kept: per-subtask details are kept for the newest checkpoints only.'),
    };
  });
  // A savepoint that made it fail was triggered after it, at the latest just after it failed.
  const around = record.status === 'FAILED' ? history.checkpoints.list(clusterId, jobId, record.triggerTimestamp, (record.failureTimestamp ?? record.triggerTimestamp) + 2_000) : [];
  return detailView(clusterId, jobId, record, vertices, head?.vertices ?? [], around);
}

/**
 * Pure: a checkpoint's record and vertices → its detail, vertices named and in the job's order (sources first) from
 * `jobVertices` (a sample's or the job details'), with the subtasks that stood out and the one-sentence finding.
 */
export function detailView(
  clusterId: string,
  jobId: string,
  record: CheckpointRecord,
  vertices: CheckpointDetailVertex[],
  jobVertices: Array<{ id: string; name: string }>,
  around: readonly CheckpointRecord[] = [],
): CheckpointDetail {
  const names = new Map(jobVertices.map((v) => [v.id, v.name]));
  const order = new Map(jobVertices.map((v, i) => [v.id, i]));
  const named = vertices
    .map((v) => ({ ...v, name: names.get(v.vertexId) ?? v.name }))
    .sort((a, b) => (order.get(a.vertexId) ?? Infinity) - (order.get(b.vertexId) ?? Infinity));
  const analysed = named.map((v) => ({ vertexId: v.vertexId, name: v.name, subtasks: v.subtasks ?? [] }));
  const outliers = findCheckpointOutliers(analysed);
  const finding = record.vertices
    ? checkpointFinding(outliers, analysed)
    : (record.detailsUnavailable ?? (record.status === 'IN_PROGRESS' ? 'The checkpoint is still running: its details are fetched once it settles.' : 'Its details have not been fetched yet.'));
  return { clusterId, jobId, checkpoint: checkpointView(record, around), vertices: named, outliers, finding };
}

/**
 * The outliers of the newest completed checkpoint triggered in `[from, to]` whose details the history holds (what the
 * diagnosis reports), or null when there is none.
 */
export function newestCheckpointOutliers(history: HistoryStore, clusterId: string, jobId: string, from: number, to: number): CheckpointOutliersAt | null {
  const candidates = history.checkpoints.list(clusterId, jobId, from, to);
  for (let i = candidates.length - 1; i >= 0; i--) {
    const record = candidates[i];
    if (record.status !== 'COMPLETED' || !record.vertices) continue;
    const detail = checkpointDetail(history, clusterId, jobId, record.id, record.triggerTimestamp);
    return { checkpointId: record.id, triggerTimestamp: record.triggerTimestamp, outliers: detail.outliers };
  }
  return null;
}
