import { SKEW_METRICS, type MetricSkew, type SkewMetric } from '../contracts/diagnosis.ts';

/**
 * The per-subtask columns of a skew report, in their stable order: one table drives the subtasks CSV header, the
 * JSON's column keys, the JSON Schema and the README. Names carry their units; a column never changes meaning, new
 * ones go at the end (a diff between two reports must line up).
 */
export interface SubtaskColumn {
  /** Key in the JSON report (`vertices[].subtasks.<json>`). */
  json: string;
  /** Header in the subtasks CSV. */
  csv: string;
  type: 'integer' | 'number' | 'string';
  description: string;
}

export const SUBTASK_COLUMNS = [
  { json: 'subtask', csv: 'subtask', type: 'integer', description: 'Subtask index (0-based).' },
  { json: 'attempt', csv: 'attempt', type: 'integer', description: 'Execution attempt at the end of the window.' },
  { json: 'status', csv: 'status', type: 'string', description: 'ExecutionState at the end of the window (RUNNING, ...).' },
  { json: 'taskManagerId', csv: 'taskmanager_id', type: 'string', description: 'TaskManager the subtask ran on at the end of the window.' },
  { json: 'endpoint', csv: 'endpoint', type: 'string', description: 'host:port of that TaskManager.' },
  { json: 'recordsInPerSecond', csv: 'records_in_per_s', type: 'number', description: 'Records read per second, window mean.' },
  { json: 'recordsOutPerSecond', csv: 'records_out_per_s', type: 'number', description: 'Records emitted per second, window mean.' },
  { json: 'bytesInPerSecond', csv: 'bytes_in_per_s', type: 'number', description: 'Bytes read per second, window mean.' },
  { json: 'bytesOutPerSecond', csv: 'bytes_out_per_s', type: 'number', description: 'Bytes emitted per second, window mean.' },
  { json: 'busyMsPerSecondMean', csv: 'busy_ms_per_s_mean', type: 'number', description: 'busyTimeMsPerSecond, window mean (0-1000 ms/s).' },
  { json: 'busyMsPerSecondMax', csv: 'busy_ms_per_s_max', type: 'number', description: 'busyTimeMsPerSecond, highest sample of the window.' },
  { json: 'backPressuredMsPerSecondMean', csv: 'backpressured_ms_per_s_mean', type: 'number', description: 'backPressuredTimeMsPerSecond, window mean.' },
  { json: 'backPressuredMsPerSecondMax', csv: 'backpressured_ms_per_s_max', type: 'number', description: 'backPressuredTimeMsPerSecond, highest sample.' },
  { json: 'idleMsPerSecondMean', csv: 'idle_ms_per_s_mean', type: 'number', description: 'idleTimeMsPerSecond, window mean.' },
  { json: 'idleMsPerSecondMax', csv: 'idle_ms_per_s_max', type: 'number', description: 'idleTimeMsPerSecond, highest sample.' },
  { json: 'checkpointedStateBytes', csv: 'checkpointed_state_bytes', type: 'number', description: 'Full state size in the last completed checkpoint (bytes).' },
  {
    json: 'checkpointStartDelayMs',
    csv: 'checkpoint_start_delay_ms',
    type: 'number',
    description: 'Start delay of the newest completed checkpoint of the window with details (ms): how long its barrier waited.',
  },
  { json: 'watermarkEpochMs', csv: 'watermark_epoch_ms', type: 'number', description: 'Current input watermark at the end of the window (epoch ms).' },
  { json: 'keyGroupStart', csv: 'key_group_start', type: 'integer', description: 'First key group the subtask owns (keyed vertices).' },
  { json: 'keyGroupEnd', csv: 'key_group_end', type: 'integer', description: 'Last key group the subtask owns, inclusive (keyed vertices).' },
  { json: 'restarted', csv: 'restarted', type: 'integer', description: '1 when the subtask restarted inside the window (figures cover the time since).' },
  { json: 'hot', csv: 'hot', type: 'integer', description: "1 when the subtask is one of the vertex's hot subtasks (on its load metric)." },
  { json: 'recordsInTotal', csv: 'records_in_total', type: 'integer', description: 'Records read since the subtask started (its current attempt), at the end of the window.' },
  { json: 'recordsOutTotal', csv: 'records_out_total', type: 'integer', description: 'Records emitted since the subtask started (its current attempt), at the end of the window.' },
  { json: 'bytesInTotal', csv: 'bytes_in_total', type: 'integer', description: 'Bytes read since the subtask started (its current attempt), at the end of the window.' },
  { json: 'bytesOutTotal', csv: 'bytes_out_total', type: 'integer', description: 'Bytes emitted since the subtask started (its current attempt), at the end of the window.' },
] as const satisfies readonly SubtaskColumn[];

export type SubtaskColumnKey = (typeof SUBTASK_COLUMNS)[number]['json'];

/** The metric names as they prefix the vertices CSV's columns. */
export const METRIC_CSV_PREFIX: Record<SkewMetric, string> = {
  recordsInPerSecond: 'records_in_per_s',
  recordsOutPerSecond: 'records_out_per_s',
  bytesInPerSecond: 'bytes_in_per_s',
  bytesOutPerSecond: 'bytes_out_per_s',
  busyTimeMsPerSecond: 'busy_ms_per_s',
  backPressuredTimeMsPerSecond: 'backpressured_ms_per_s',
  idleTimeMsPerSecond: 'idle_ms_per_s',
  checkpointedStateBytes: 'checkpointed_state_bytes',
};

/** Per metric, the skew figures the vertices CSV carries (all over the subtasks' window means). */
export const METRIC_FIGURES = [
  ['mean', 'mean'],
  ['median', 'median'],
  ['max', 'max'],
  ['max_subtask', 'maxSubtask'],
  ['skew_percent', 'dataSkewPercent'],
  ['max_over_mean', 'maxOverMean'],
  ['max_over_median', 'maxOverMedian'],
] as const satisfies ReadonlyArray<readonly [string, keyof MetricSkew]>;

/** The vertices CSV's columns, in order. */
export const VERTEX_CSV_COLUMNS: readonly string[] = [
  'vertex_id',
  'vertex_name',
  'parallelism',
  'max_parallelism',
  'keyed',
  'status',
  'load_pattern',
  'backpressure_level',
  'hot_subtasks',
  'restarted_subtasks',
  ...SKEW_METRICS.flatMap((metric) => METRIC_FIGURES.map(([suffix]) => `${METRIC_CSV_PREFIX[metric]}_${suffix}`)),
];
