import type { IncidentAttachments } from './incident-attachments.ts';
import { reportHtml } from './report-html.ts';
import { subtasksCsvChunks, verticesCsv } from './report-csv.ts';
import { jsonVertex, type SkewReport } from './skew-report.ts';

/**
 * The formats a skew report is written in. `csv` is one row per subtask; `vertices-csv` one row per vertex (a CSV
 * holds one table, so the vertices are their own file); `json` the whole report (schema: resources/schemas);
 * `html` a self-contained page to read and print.
 */
export const REPORT_FORMATS = ['csv', 'vertices-csv', 'json', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const MIME: Record<ReportFormat, string> = {
  csv: 'text/csv',
  'vertices-csv': 'text/csv',
  json: 'application/json',
  html: 'text/html',
};

const SUFFIX: Record<ReportFormat, string> = {
  csv: 'subtasks.csv',
  'vertices-csv': 'vertices.csv',
  json: 'json',
  html: 'html',
};

export function isReportFormat(value: unknown): value is ReportFormat {
  return (REPORT_FORMATS as readonly unknown[]).includes(value);
}

/**
 * Pure: the report's text in a format (UTF-8), its MIME type and a file name that sorts by the window's time. The
 * attachments (the finding's subtask's flame graph and log lines) go into the HTML only.
 */
export function renderReport(report: SkewReport, format: ReportFormat, attachments?: IncidentAttachments): { content: string; mime: string; suggestedName: string } {
  return { content: [...renderReportChunks(report, format, attachments)].join(''), mime: MIME[format], suggestedName: reportFileName(report, format) };
}

export function reportFileName(report: SkewReport, format: ReportFormat): string {
  return `skew-report-${reportFileStem(report)}.${SUFFIX[format]}`;
}

/**
 * The same text in pieces (a vertex at a time for CSV and JSON), for a writer that streams it to a file: a big job's
 * report is tens of MB, and the memory it takes to write stays that of one vertex.
 */
export function renderReportChunks(report: SkewReport, format: ReportFormat, attachments?: IncidentAttachments): Iterable<string> {
  if (format === 'csv') return subtasksCsvChunks(report);
  if (format === 'vertices-csv') return [verticesCsv(report)];
  if (format === 'json') return jsonChunks(report);
  return [reportHtml(report, attachments)];
}

/**
 * JSON.stringify of the report with its vertices as `jsonVertex` writes them, + newline, byte for byte: the vertices
 * (nearly all of it) stringified one at a time.
 */
function* jsonChunks(report: SkewReport): Generator<string> {
  // A stand-in no job or operator name contains, found where the vertices go.
  const standIn = '\u0000vertices\u0000';
  const marker = JSON.stringify(standIn);
  const outline = JSON.stringify({ ...report, vertices: standIn });
  const at = outline.indexOf(marker);
  yield `${outline.slice(0, at)}[`;
  for (let i = 0; i < report.vertices.length; i++) yield `${i === 0 ? '' : ','}${JSON.stringify(jsonVertex(report.vertices[i]))}`;
  yield `]${outline.slice(at + marker.length)}\n`;
}

/** `<job name>-<job id prefix>-<UTC time of the window's end>`: what every export of one report is named after. */
export function reportFileStem(report: Pick<SkewReport, 'job' | 'asOf'>): string {
  const name =
    report.job.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'job';
  const at = report.asOf ? report.asOf.replace(/[-:]/g, '').replace('T', '-').slice(0, 15) : 'no-samples';
  return `${name}-${report.job.id.slice(0, 8)}-${at}`;
}
