import type { CheckpointOutlierView } from './history.ts';

/**
 * What the diagnosis analyses return: plain JSON, the same for the UI (through the EngineApi), the CLI
 * (`flink-ops diagnose --json`, schema in engine/analysis/diagnosis-schema.ts) and the report export.
 * Numbers are per subtask over a window of samples; a figure that could not be known is null, never 0.
 */

export interface DiagnosisApi {
  /**
   * The root cause in one sentence, per-subtask skew figures and hot subtasks, over the last `windowMs` of the job's
   * history (ending at its newest sample). Reads the history, and Flink's own figures when the window cannot yet tell.
   */
  diagnose(clusterId: string, jobId: string, windowMs: number): Promise<JobDiagnosis>;
  /** Every vertex × subtask of one metric over the window, for the heatmap. */
  skewHeatmap(clusterId: string, jobId: string, windowMs: number, metric: SkewMetric, aggregate: 'mean' | 'max'): Promise<SkewHeatmap>;
  /** Which subtask owns a key (Flink's key-group assignment), and where a rescale would move it. */
  locateKey(lookup: KeyLookup): Promise<KeyLocation>;
  /** The key-group range each subtask of a keyed vertex owns, index = subtask. */
  keyGroupRanges(maxParallelism: number, parallelism: number): Promise<KeyGroupRangeView[]>;
}

/** Per-subtask metrics the skew figures and the heatmap cover. Rates are window means (records/s, bytes/s, ms/s). */
export const SKEW_METRICS = [
  'recordsInPerSecond',
  'recordsOutPerSecond',
  'bytesInPerSecond',
  'bytesOutPerSecond',
  'busyTimeMsPerSecond',
  'backPressuredTimeMsPerSecond',
  'idleTimeMsPerSecond',
  'checkpointedStateBytes',
] as const;
export type SkewMetric = (typeof SKEW_METRICS)[number];

export const SKEW_METRIC_LABEL: Record<SkewMetric, string> = {
  recordsInPerSecond: 'Records in',
  recordsOutPerSecond: 'Records out',
  bytesInPerSecond: 'Bytes in',
  bytesOutPerSecond: 'Bytes out',
  busyTimeMsPerSecond: 'Busy',
  backPressuredTimeMsPerSecond: 'Back-pressured',
  idleTimeMsPerSecond: 'Idle',
  checkpointedStateBytes: 'Checkpointed state',
};

export const SKEW_METRIC_UNIT: Record<SkewMetric, 'records/s' | 'bytes/s' | 'ms/s' | 'bytes'> = {
  recordsInPerSecond: 'records/s',
  recordsOutPerSecond: 'records/s',
  bytesInPerSecond: 'bytes/s',
  bytesOutPerSecond: 'bytes/s',
  busyTimeMsPerSecond: 'ms/s',
  backPressuredTimeMsPerSecond: 'ms/s',
  idleTimeMsPerSecond: 'ms/s',
  checkpointedStateBytes: 'bytes',
};

/** The window the figures cover. */
export interface DiagnosisWindow {
  /** What was asked for (e.g. 60000 for "the last 60 s"). */
  requestedMs: number;
  /** First and last sample time (epoch ms); null without samples. */
  from: number | null;
  to: number | null;
  samples: number;
  /** to − from: the time the figures really span. */
  spanMs: number;
  /**
   * Where the samples came from: the console's own samples of the JobManager, the cluster's metrics store
   * (Prometheus), or both (the store fell silent for a while and the console sampled meanwhile); null without samples.
   */
  source: 'jobmanager' | 'prometheus' | 'both' | null;
}

export interface SubtaskRef {
  subtask: number;
  /** The TaskManager the subtask ran on at the end of the window. */
  taskManagerId: string | null;
  endpoint: string | null;
}

export interface HotSubtask extends SubtaskRef {
  value: number;
  /** value / the vertex's mean. */
  timesMean: number | null;
}

/** Skew figures of one metric over a vertex's subtasks (see engine/analysis/skew-figures.ts). */
export interface MetricSkew {
  metric: SkewMetric;
  /** Subtasks with a value; `missing` had none (metric not reported); `invalid` had a broken one (negative, infinite). */
  counted: number;
  missing: number;
  invalid: number;
  min: number | null;
  max: number | null;
  /** The subtask with the maximum (the lowest index on a tie). */
  maxSubtask: number | null;
  mean: number | null;
  median: number | null;
  /** Flink's own Data Skew figure (DoubleDataSkew): mean absolute deviation / mean × 100, capped at 100. */
  dataSkewPercent: number | null;
  /** null when the mean (the median) is 0 or nothing was counted. */
  maxOverMean: number | null;
  maxOverMedian: number | null;
  /** Subtasks at about zero while others are not: they own no active key, or receive nothing. */
  idle: number;
  hot: HotSubtask[];
}

/**
 * How a vertex's load is spread: `hot` (one or a few subtasks far above the other busy ones: skew), `few-keys`
 * (idle subtasks that own no active key group, an even load over the others: not skew), `even`, `idle` (no load),
 * `unknown` (no figures).
 */
export type LoadPattern = 'hot' | 'few-keys' | 'even' | 'idle' | 'unknown';

export interface KeyGroupRangeView {
  startKeyGroup: number;
  endKeyGroup: number;
}

export interface VertexDiagnosis {
  vertexId: string;
  name: string;
  parallelism: number;
  maxParallelism: number | null;
  /** Reads a hash-partitioned (keyBy) input: its subtasks own key groups. */
  keyed: boolean;
  /** The metric the load pattern was read from (busy time, else records in/out). */
  loadMetric: SkewMetric | null;
  pattern: LoadPattern;
  /** Worst back-pressure level over the window (Flink's thresholds on the window means); null without figures. */
  backpressureLevel: 'ok' | 'low' | 'high' | null;
  /** Subtasks that restarted inside the window: their figures cover only the time since. */
  restartedSubtasks: number[];
  /** Why there are no figures, in words (vertex finished, metrics unavailable). */
  unavailable: string | null;
  metrics: MetricSkew[];
}

export type FindingKind =
  | 'skew'
  | 'under-provisioned'
  | 'external-system-slow'
  | 'unclear-backpressure'
  | 'idle-source-split'
  | 'nothing-wrong'
  | 'not-enough-data';

export type Severity = 'critical' | 'warning' | 'ok' | 'unknown';

/** A vertex back-pressured by the finding's cause. */
export interface Victim {
  vertexId: string;
  name: string;
  level: 'low' | 'high';
  /** Subtasks HIGH (> 500 ms/s back-pressured) and idle (mostly waiting for input) over the window. */
  highSubtasks: number[];
  idleSubtasks: number[];
  /** Directly upstream of the cause (false: further up the chain). */
  direct: boolean;
}

export interface Finding {
  kind: FindingKind;
  severity: Severity;
  /** The one sentence at the top of the job page. */
  sentence: string;
  /** Further sentences: why the picture looks the way it does, what to do. */
  details: string[];
  /** The vertex the finding is about (marked on the graph); null for a job-wide finding. */
  vertexId: string | null;
  vertexName: string | null;
  /** The subtasks it names (hot, idle split, ...). */
  subtasks: SubtaskRef[];
  /** The metric that proves it: the subtasks table opens sorted by it. */
  metric: SkewMetric | null;
  victims: Victim[];
  /** Under-provisioned: the parallelism that would bring the busiest subtask under 70% busy. */
  suggestedParallelism: { current: number; suggested: number; atLeast: boolean; evenKeyGroups: number | null } | null;
}

export interface JobDiagnosis {
  schemaVersion: 1;
  clusterId: string;
  jobId: string;
  jobName: string;
  jobState: string;
  window: DiagnosisWindow;
  finding: Finding;
  otherFindings: Finding[];
  confidence: { level: 'high' | 'medium' | 'low'; reasons: string[] };
  /** What the analysis could not know (a metric missing on this Flink, no checkpoint figures, ...). */
  notKnown: string[];
  vertices: VertexDiagnosis[];
  /**
   * The subtasks that stood out in the newest completed checkpoint of the window whose details the history holds;
   * null when there is none (then `notKnown` says why).
   */
  checkpointOutliers: CheckpointOutlier[] | null;
  /**
   * What the finding rests on: the window's figures, or — while the window holds too little evidence for a verdict,
   * or while Flink reports a vertex HIGH that the window does not show yet — Flink's current figures, fetched at
   * `fetchedAt`. Absent in diagnoses made before this existed (bundles): the window.
   */
  basis?: DiagnosisBasis;
}

/**
 * `reason`: `no-evidence`, the window holds too little for a verdict yet; `flink-high`, the window's "nothing wrong"
 * gave way to a vertex Flink reports HIGH now.
 */
export type DiagnosisBasis = { source: 'window' } | { source: 'flink-now'; fetchedAt: number; reason: 'no-evidence' | 'flink-high' };

/** A subtask (or a few) that stood out in a checkpoint, and which checkpoint. */
export interface CheckpointOutlier extends CheckpointOutlierView {
  checkpointId: number;
  triggerTimestamp: number;
}

/** The outliers of one checkpoint: what the diagnosis is given by whoever reads the checkpoint history. */
export interface CheckpointOutliersAt {
  checkpointId: number;
  triggerTimestamp: number;
  outliers: CheckpointOutlierView[];
}

/** Per-subtask values of one metric for every vertex over a window: the heatmap's data. */
export interface SkewHeatmap {
  clusterId: string;
  jobId: string;
  window: DiagnosisWindow;
  metric: SkewMetric;
  aggregate: 'mean' | 'max';
  unit: (typeof SKEW_METRIC_UNIT)[SkewMetric];
  /** TaskManagers the rows' `taskManagers` index. */
  taskManagers: Array<{ id: string; endpoint: string | null }>;
  rows: HeatmapRow[];
  /** The largest value over all rows (the colour scale's top); null when there is none. */
  max: number | null;
}

export interface HeatmapRow {
  vertexId: string;
  name: string;
  parallelism: number;
  maxParallelism: number | null;
  keyed: boolean;
  /** One value per subtask; null = no value. */
  values: Array<number | null>;
  /** Index into `SkewHeatmap.taskManagers` per subtask; -1 = unknown. */
  taskManagers: number[];
  dataSkewPercent: number | null;
  maxOverMean: number | null;
  hot: number[];
}

/** How the console hashes a typed-in key: Java String, Integer or Long (what the job's KeySelector returns). */
export const KEY_TYPES = ['string', 'int', 'long'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export interface KeyLookup {
  key: string;
  keyType: KeyType;
  maxParallelism: number;
  parallelism: number;
  /** Parallelisms to show where the key would go after a rescale. */
  rescaleTo?: number[];
}

export interface KeyLocation {
  key: string;
  keyType: KeyType;
  /** The Java hashCode Flink sees (String.hashCode, Integer, Long). */
  hashCode: number;
  keyGroup: number;
  maxParallelism: number;
  parallelism: number;
  subtask: number;
  range: KeyGroupRangeView;
  rescale: Array<{ parallelism: number; subtask: number; range: KeyGroupRangeView; moves: boolean }>;
}
