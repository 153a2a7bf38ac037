import { diagnoseWindow } from '../analysis/diagnose-job.ts';
import { readJobWindow } from '../diagnosis/read-window.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { CheckpointRecord } from '../history/checkpoint-history.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { RateColumn } from '../history/job-sample.ts';
import { newestCheckpointOutliers } from '../history/views/checkpoint-views.ts';
import { readReportOperations } from './report-operations.ts';
import { readReportState } from './report-state.ts';
import { buildSkewReport, type ReportCluster, type ReportHotKey, type SkewReport } from './skew-report.ts';

/** The rates whose per-sample maxima a report shows beside the means. */
export const REPORT_MAXIMA: readonly RateColumn[] = ['busyTimeMsPerSecond', 'backPressuredTimeMsPerSecond', 'idleTimeMsPerSecond'];

/**
 * A job's skew report over "the last `windowMs`" of its history, ending at its newest sample (as the diagnosis does)
 * or at `endAt` (the CLI's now, for a job the app recorded but no longer watches: the history has part of the window):
 * the one way a report is made, whether the samples came from the app's watch, the CLI sampling now or a bundle.
 * Reads the window vertex by vertex (see read-window.ts), so a 200 × 1,024 job never holds the whole window.
 */
export function readSkewReport(store: HistoryStore, cluster: ReportCluster, jobId: string, windowMs: number, options: { hotKeys?: ReportHotKey[] | null; endAt?: number } = {}): SkewReport {
  const sampled = store.samples.job(cluster.id, jobId);
  if (!sampled) throw new EngineError('not-found', `The history has no samples of job ${jobId} on ${cluster.name ?? cluster.id}.`);
  const to = options.endAt ?? sampled.lastSampleAt;
  const window = readJobWindow(store, cluster.id, jobId, to - windowMs, to, { maxima: REPORT_MAXIMA });
  const outliers = window.samples > 0 ? newestCheckpointOutliers(store, cluster.id, jobId, window.from, window.to) : null;
  const diagnosis = { ...diagnoseWindow(window, windowMs, outliers), clusterId: cluster.id, jobId };
  const checkpoints = window.samples > 0 ? store.checkpoints.list(cluster.id, jobId, window.from, window.to) : [];
  return buildSkewReport({
    cluster,
    window: { ...window, clusterId: cluster.id, jobId },
    diagnosis,
    events: window.samples > 0 ? store.events.list(cluster.id, jobId, window.from, window.to).map(({ t, kind, message }) => ({ t, kind, message })) : [],
    checkpoints,
    checkpointStartDelays: startDelays(store, cluster.id, jobId, checkpoints),
    hotKeys: options.hotKeys,
    state: window.samples > 0 ? readReportState(store, cluster.id, jobId, windowMs, window.from, window.to) : null,
    operations: window.samples > 0 ? readReportOperations(store, cluster.id, jobId, window.from, window.to) : [],
  });
}

/** Per vertex, each subtask's start delay in the newest completed checkpoint of the list whose details are kept. */
function startDelays(store: HistoryStore, clusterId: string, jobId: string, checkpoints: CheckpointRecord[]): Map<string, Float64Array> {
  const out = new Map<string, Float64Array>();
  const newest = [...checkpoints].reverse().find((c) => c.status === 'COMPLETED' && !c.isSavepoint && c.vertices);
  for (const vertex of newest?.vertices ?? []) {
    const columns = store.checkpoints.subtasks(clusterId, jobId, newest!.triggerTimestamp, newest!.id, vertex.vertexId);
    if (columns) out.set(vertex.vertexId, columns.figures.startDelayMs);
  }
  return out;
}
