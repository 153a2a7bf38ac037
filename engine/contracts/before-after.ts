/**
 * Before vs after an operation (rescale, resubmit — a salted job deployed as a resubmit is one): the job's figures over
 * the history's samples before the operation and once the job runs again. Plain JSON, for the journal entry, the job
 * page and the skew report.
 */

/** The job's figures over one window of the history. null where the samples give none. */
export interface OperationWindowFigures {
  jobId: string;
  /** First and last sample of the window. */
  from: number;
  to: number;
  samples: number;
  /** The most skewed vertex (highest max/mean busy among those with more than one subtask). */
  skew: { vertexId: string; vertexName: string; maxOverMean: number; maxBusyMsPerSecond: number; meanBusyMsPerSecond: number } | null;
  /** The busiest subtask of the job (window mean busy ms/s). */
  busiest: { vertexId: string; vertexName: string; subtask: number; busyTimeMsPerSecond: number } | null;
  /** Records/s out of the sources (vertices without an input edge), summed over their subtasks. */
  throughputRecordsPerSecond: number | null;
  /** Completed checkpoints triggered in the window. */
  checkpoints: { count: number; meanDurationMs: number; maxDurationMs: number } | null;
  /** The full state size of the window's last completed checkpoint. */
  stateBytes: number | null;
}

export type BeforeAfterFigure = 'skew' | 'busiest' | 'throughput' | 'checkpointDuration' | 'stateSize';

export interface BeforeAfterRow {
  figure: BeforeAfterFigure;
  label: string;
  unit: 'ratio' | 'ms/s' | 'records/s' | 'ms' | 'bytes';
  before: number | null;
  after: number | null;
  /** after / before; null when either is unknown or before is 0. */
  change: number | null;
}

/** What a rehearsal on the local engine predicted for the change this operation made (its newest before the operation). */
export interface RehearsedPrediction {
  rehearsedAt: number;
  proposal: { kind: 'salt'; buckets: number } | { kind: 'parallelism'; parallelism: number };
  vertexId: string;
  vertexName: string;
  /** The keyed vertex's busy max/mean and throughput in the twin as the job ran (the baseline) and with the change. */
  baseline: { busyMaxOverMean: number | null; throughputRecordsPerSecond: number };
  predicted: { busyMaxOverMean: number | null; throughputRecordsPerSecond: number };
  /** The rehearsal's verdict, as it said it. */
  sentence: string;
}

export interface BeforeAfter {
  entryId: string;
  kind: 'rescale' | 'resubmit';
  clusterId: string;
  /**
   * When the operation started (the before window ends here), and the first sample of the history that shows the job
   * running again (the after window starts there; null until there is one).
   */
  startedAt: number;
  runningAgainAt: number | null;
  /** null when the history has no samples of the job before the operation (a first submit, or it was not watched). */
  before: OperationWindowFigures | null;
  /** null until the history has samples of the job running again. */
  after: OperationWindowFigures | null;
  rows: BeforeAfterRow[];
  /** The after window covers all it will (the history will not change the figures any more). */
  complete: boolean;
  /** What the comparison cannot say yet, or why a figure is missing, in words. */
  notes: string[];
  /** The rehearsal of this change, when one ran on the job before it (absent in entries kept before predictions were). */
  prediction?: RehearsedPrediction | null;
}
