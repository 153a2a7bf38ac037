import type { ExportedBinary, ExportedFile } from '../contracts/exports.ts';
import type { JobExceptions, JobGraph } from '../contracts/jobs.ts';
import type { JournalEntry } from '../contracts/operations.ts';
import { INCIDENT_BUNDLE } from '../contracts/incident-bundle.ts';
import { MAX_WINDOW_MS, MIN_WINDOW_MS } from '../diagnosis/history-windows.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { collectBundle, encodeBundle } from './incident-bundle.ts';
import { readSkewReport } from './read-skew-report.ts';
import { isReportFormat, renderReport, reportFileStem, REPORT_FORMATS } from './render-report.ts';
import type { ReportCluster, SkewReport } from './skew-report.ts';

/**
 * The app's exports of a shown job (the EngineApi's `exports.skewReport` and `exports.incidentBundle`): from the history
 * the app keeps while the job page is open, the same code as `flink-ops report` and `flink-ops bundle`.
 */
export interface ExportRequest {
  windowMs: number;
  format?: string;
}

export function exportSkewReport(history: HistoryStore, cluster: ReportCluster, jobId: string, request: ExportRequest): ExportedFile {
  const windowMs = checkWindow(request?.windowMs);
  const format = request.format;
  if (!isReportFormat(format)) throw new EngineError('invalid-input', `Unknown report format "${String(format)}": use one of ${REPORT_FORMATS.join(', ')}.`);
  const report = reportOf(history, cluster, jobId, windowMs);
  return { ...renderReport(report, format), rows: report.vertices.reduce((sum, v) => sum + v.subtasks.subtask.length, 0) };
}

export function saveIncidentBundle(
  history: HistoryStore,
  cluster: ReportCluster,
  jobId: string,
  request: ExportRequest,
  extras: { savedBy: string; jobGraph: JobGraph | null; exceptions: JobExceptions | null; journal: JournalEntry[] },
): ExportedBinary {
  const windowMs = checkWindow(request?.windowMs);
  const report = reportOf(history, cluster, jobId, windowMs);
  const bytes = encodeBundle(collectBundle(history, report, windowMs, extras));
  return { suggestedName: `incident-${reportFileStem(report)}.${INCIDENT_BUNDLE.extension}`, contentBase64: bytes.toString('base64'), mime: INCIDENT_BUNDLE.mimeType, bytes: bytes.length };
}

function reportOf(history: HistoryStore, cluster: ReportCluster, jobId: string, windowMs: number): SkewReport {
  if (!history.samples.job(cluster.id, jobId)) {
    throw new EngineError('not-found', 'The console has no samples of this job yet: it samples a shown job at the cluster\'s metrics interval, try again in a few seconds.');
  }
  return readSkewReport(history, cluster, jobId, windowMs);
}

function checkWindow(windowMs: unknown): number {
  if (typeof windowMs !== 'number' || !Number.isInteger(windowMs) || windowMs < MIN_WINDOW_MS || windowMs > MAX_WINDOW_MS) {
    throw new EngineError('invalid-input', `The window must be a whole number of ms from ${MIN_WINDOW_MS} (10 s) to ${MAX_WINDOW_MS} (24 h), got ${String(windowMs)}.`);
  }
  return windowMs;
}
