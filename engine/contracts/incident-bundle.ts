/**
 * The incident bundle: one file with what an operator exports about an incident (the export itself comes
 * later). Named here only: the installers' file association, the save dialog's filter and the export read it.
 */
export const INCIDENT_BUNDLE = {
  /** Without the dot. */
  extension: 'flinkops-bundle',
  description: 'Flink Ops incident bundle',
  mimeType: 'application/x-flinkops-bundle',
} as const;
