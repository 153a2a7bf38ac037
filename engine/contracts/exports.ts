/** The exports service: files the engine prepares for the user to save (through ShellApi.saveFile). */

export interface ExportsApi {
  /** Every subtask of every vertex of a job as CSV, one row each (1 + 3V requests). */
  subtaskMetrics(clusterId: string, jobId: string): Promise<ExportedFile>;
  /** A skew report of a job over "the last windowMs" of its history: csv (subtasks), vertices-csv, json or html. */
  skewReport(clusterId: string, jobId: string, request: SkewReportRequest): Promise<ExportedFile>;
  /** An incident bundle of a job's window (.flinkops-bundle: samples, checkpoints, exceptions, journal, report), base64. */
  incidentBundle(clusterId: string, jobId: string, request: IncidentBundleRequest): Promise<ExportedBinary>;
}

/**
 * What an export may carry beside the history, about the subtask the finding names: read from the cluster when the
 * export is made, each opt-in and size-capped; where the cluster cannot give one, the export says why instead.
 */
export interface ExportAttachmentsRequest {
  /** Flink's flame graph of the subtask (Flink samples it for about 5 s; off where `rest.flamegraph.enabled` is). */
  flameGraph?: boolean;
  /** The subtask's lines in its TaskManager's log. */
  logExcerpt?: boolean;
}

/** `format`: one of SKEW_REPORT_FORMATS (checked by the engine, which names the formats it knows); attachments: HTML only. */
export interface SkewReportRequest extends ExportAttachmentsRequest {
  windowMs: number;
  format: string;
}

export interface IncidentBundleRequest extends ExportAttachmentsRequest {
  windowMs: number;
}

/** A file the engine prepared for the user to save (ShellApi.saveFile): text, with a name to suggest. */
/** A binary export (the incident bundle): base64 across the bridge, saved as bytes by the shell. */
export interface ExportedBinary {
  suggestedName: string;
  contentBase64: string;
  mime: string;
  bytes: number;
}

export interface ExportedFile {
  suggestedName: string;
  content: string;
  mime: string;
  /** Data rows, for the message that says it is done. */
  rows: number;
}
