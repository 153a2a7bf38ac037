import type { CounterColumn, RateColumn } from '../history/job-sample.ts';

/**
 * Flink's task-scope metrics as its PrometheusReporter exports them (flink-metrics-prometheus): the name
 * `flink_taskmanager_job_task_<metric>` (scope `taskmanager.job.task`, `.` → `_`), the scope's variables as labels
 * without their brackets. Counters are exported as gauges (a Prometheus counter cannot go down); the console reads
 * their raw values and derives rates itself, over the subtask's own clock, as it does for the JobManager's figures.
 */
export const TASK_SCOPE_PREFIX = 'flink_taskmanager_job_task_';

/** The labels the console joins on: ids only. `job_name`, `task_name`, `host` are sanitised names, never joined on. */
export const LABEL = {
  jobId: 'job_id',
  /** The vertex id (JobVertexID), 32 hex digits. */
  taskId: 'task_id',
  subtaskIndex: 'subtask_index',
  /** The execution attempt: a failover deploys a new attempt, which is a new series with counters from zero. */
  attempt: 'task_attempt_num',
  /** The TaskManager's resource id, sanitised (see `reporterLabelValue`). */
  taskManagerId: 'tm_id',
} as const;

/** The sample's counter columns, from the task's counters and accumulated times (MetricNames in flink-runtime). */
export const COUNTER_METRIC: Record<CounterColumn, string> = {
  recordsIn: 'numRecordsIn',
  recordsOut: 'numRecordsOut',
  bytesIn: 'numBytesIn',
  bytesOut: 'numBytesOut',
  accumulatedBusyMs: 'accumulateBusyTimeMs',
  accumulatedBackPressuredMs: 'accumulateBackPressuredTimeMs',
  accumulatedIdleMs: 'accumulateIdleTimeMs',
};

/**
 * Flink's per-second time gauges, read only for a vertex whose series carry no accumulated times: a gauge averages
 * whatever its last update covered, not the interval between two steps, so the accumulated times come first.
 */
export const PER_SECOND_METRIC: Partial<Record<RateColumn, string>> = {
  busyTimeMsPerSecond: 'busyTimeMsPerSecond',
  backPressuredTimeMsPerSecond: 'backPressuredTimeMsPerSecond',
  idleTimeMsPerSecond: 'idleTimeMsPerSecond',
};

/** The task's current input watermark (epoch ms; Long.MIN_VALUE before the first). */
export const WATERMARK_METRIC = 'currentInputWatermark';

/** What the first query of a vertex reads: the counters and the watermark. */
export const SAMPLE_METRICS: readonly string[] = [...Object.values(COUNTER_METRIC), WATERMARK_METRIC];

/** Metric name → the series' full name. */
export function seriesName(metric: string): string {
  return `${TASK_SCOPE_PREFIX}${metric}`;
}

/**
 * A label value as the reporter writes it with `filterLabelValueCharacters` on (its default): every character
 * outside `[a-zA-Z0-9:_]` becomes `_` (AbstractPrometheusReporter.replaceInvalidChars). Ids in hex are unchanged;
 * a TaskManager id (`host:port-abc123`) is not.
 */
export function reporterLabelValue(text: string): string {
  return text.replace(/[^a-zA-Z0-9:_]/g, '_');
}
