import type { Finding } from '../contracts/diagnosis.ts';
import type { ExportAttachmentsRequest, ExportedBinary, ExportedFile } from '../contracts/exports.ts';
import type { JobExceptions, JobGraph } from '../contracts/jobs.ts';
import type { JournalEntry } from '../contracts/operations.ts';
import { INCIDENT_BUNDLE } from '../contracts/incident-bundle.ts';
import { checkWindow } from '../diagnosis/history-windows.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { IncidentAttachments } from './incident-attachments.ts';
import { collectBundle, encodeBundle } from './incident-bundle.ts';
import { readSkewReport } from './read-skew-report.ts';
import { isReportFormat, renderReport, reportFileStem, REPORT_FORMATS } from './render-report.ts';
import type { ReportCluster, SkewReport } from './skew-report.ts';

/**
 * The app's exports of a shown job (the EngineApi's `exports.skewReport` and `exports.incidentBundle`): from the history
 * the app keeps while the job page is open, the same code as `flink-ops report` and `flink-ops bundle`.
 */
export interface ExportRequest extends ExportAttachmentsRequest {
  windowMs: number;
  format?: string;
}

/** The attachments asked for about a finding (read from the cluster, or from a bundle's). */
export type AttachmentsOf = (finding: Finding) => Promise<IncidentAttachments>;

export async function exportSkewReport(history: HistoryStore, cluster: ReportCluster, jobId: string, request: ExportRequest, attachmentsOf?: AttachmentsOf): Promise<ExportedFile> {
  const windowMs = checkWindow(request?.windowMs);
  const format = request.format;
  if (!isReportFormat(format)) throw new EngineError('invalid-input', `Unknown report format "${String(format)}": use one of ${REPORT_FORMATS.join(', ')}.`);
  if (attachmentsAsked(request) && format !== 'html') {
    throw new EngineError('invalid-input', 'The flame graph and the log excerpt go into the HTML report (or the incident bundle), not into CSV or JSON.');
  }
  const report = reportOf(history, cluster, jobId, windowMs);
  const attachments = attachmentsAsked(request) && attachmentsOf ? await attachmentsOf(report.finding) : undefined;
  return { ...renderReport(report, format, attachments), rows: report.vertices.reduce((sum, v) => sum + v.subtasks.subtask.length, 0) };
}

export async function saveIncidentBundle(
  history: HistoryStore,
  cluster: ReportCluster,
  jobId: string,
  request: ExportRequest,
  extras: { savedBy: string; jobGraph: JobGraph | null; exceptions: JobExceptions | null; journal: JournalEntry[] },
  attachmentsOf?: AttachmentsOf,
): Promise<ExportedBinary> {
  const windowMs = checkWindow(request?.windowMs);
  const report = reportOf(history, cluster, jobId, windowMs);
  const attachments = attachmentsAsked(request) && attachmentsOf ? await attachmentsOf(report.finding) : undefined;
  const bytes = encodeBundle(collectBundle(history, report, windowMs, { ...extras, attachments }));
  return { suggestedName: `incident-${reportFileStem(report)}.${INCIDENT_BUNDLE.extension}`, contentBase64: bytes.toString('base64'), mime: INCIDENT_BUNDLE.mimeType, bytes: bytes.length };
}

/** An export asked for the flame graph or the log excerpt. */
export function attachmentsAsked(request: ExportAttachmentsRequest): boolean {
  return request.flameGraph === true || request.logExcerpt === true;
}

/** Of what a bundle holds, the attachments a request asks for. */
export function attachmentsAskedOf(attachments: IncidentAttachments | undefined, request: ExportAttachmentsRequest): IncidentAttachments {
  return { ...(request.flameGraph && attachments?.flameGraph ? { flameGraph: attachments.flameGraph } : {}), ...(request.logExcerpt && attachments?.logExcerpt ? { logExcerpt: attachments.logExcerpt } : {}) };
}

function reportOf(history: HistoryStore, cluster: ReportCluster, jobId: string, windowMs: number): SkewReport {
  if (!history.samples.job(cluster.id, jobId)) {
    throw new EngineError('not-found', 'The console has no samples of this job yet: it samples a shown job at the cluster\'s metrics interval, try again in a few seconds.');
  }
  return readSkewReport(history, cluster, jobId, windowMs);
}
