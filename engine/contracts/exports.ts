/** The exports service: files the engine prepares for the user to save (through ShellApi.saveFile). */

export interface ExportsApi {
  /** Every subtask of every vertex of a job as CSV, one row each (1 + 3V requests). */
  subtaskMetrics(clusterId: string, jobId: string): Promise<ExportedFile>;
  /** A skew report of a job over "the last windowMs" of its history: csv (subtasks), vertices-csv, json or html. */
  skewReport(clusterId: string, jobId: string, request: SkewReportRequest): Promise<ExportedFile>;
  /** An incident bundle of a job's window (.flinkops-bundle: samples, checkpoints, exceptions, journal, report), base64. */
  incidentBundle(clusterId: string, jobId: string, request: { windowMs: number }): Promise<ExportedBinary>;
}

/** `format`: one of SKEW_REPORT_FORMATS (checked by the engine, which names the formats it knows). */
export interface SkewReportRequest {
  windowMs: number;
  format: string;
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
