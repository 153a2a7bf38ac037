import { EngineError } from '../flink-rest/errors.ts';
import { LABEL, TASK_SCOPE_PREFIX } from './reporter-series.ts';

/**
 * The console's PromQL: selectors of Flink's task series by exact label matchers on ids, each id checked to be one
 * (32 lowercase hex digits, as Flink writes a JobID or JobVertexID) and each metric name to be a metric name, before
 * it is written into a query. Nothing a caller passes can add a matcher, a function or a second selector, and names
 * (sanitised by the reporter, so neither unique nor faithful) are never matched on.
 */
const FLINK_ID = /^[0-9a-f]{32}$/;
const METRIC_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** The id itself, or an `invalid-input` EngineError naming what it was meant to be. */
export function checkedId(id: string, what: 'job' | 'vertex'): string {
  if (typeof id !== 'string' || !FLINK_ID.test(id)) {
    throw new EngineError('invalid-input', `${JSON.stringify(String(id)).slice(0, 80)} is not a Flink ${what} id (32 hex digits): not put into a Prometheus query.`);
  }
  return id;
}

function checkedMetric(metric: string): string {
  if (!METRIC_NAME.test(metric)) throw new EngineError('invalid-input', `${JSON.stringify(metric).slice(0, 80)} is not a metric name: not put into a Prometheus query.`);
  return metric;
}

/**
 * `{__name__=~"flink_taskmanager_job_task_(a|b)", job_id="…"[, task_id="…"]}`: the task series of these metrics of one
 * job, or of one of its vertices. One selector for all metrics: one range query per vertex, not one per metric.
 */
export function taskSeriesSelector(metrics: readonly string[], jobId: string, vertexId?: string): string {
  if (metrics.length === 0) throw new EngineError('invalid-input', 'A Prometheus query needs at least one metric.');
  const names = `${TASK_SCOPE_PREFIX}(${metrics.map(checkedMetric).join('|')})`;
  const matchers = [`__name__=~"${names}"`, `${LABEL.jobId}="${checkedId(jobId, 'job')}"`];
  if (vertexId !== undefined) matchers.push(`${LABEL.taskId}="${checkedId(vertexId, 'vertex')}"`);
  return `{${matchers.join(',')}}`;
}

/**
 * `count by (job_id, job, instance) (flink_taskmanager_job_task_<metric>{job_id=~"a|b"})`: which of these jobs have
 * live task series now, and from which scrape targets (`job`, `instance` are Prometheus' target labels, not Flink's).
 * The alternation is of checked hex ids only.
 */
export function liveJobsQuery(metric: string, jobIds: readonly string[]): string {
  if (jobIds.length === 0) throw new EngineError('invalid-input', 'Which jobs to look for: none given.');
  const ids = jobIds.map((id) => checkedId(id, 'job')).join('|');
  return `count by (${LABEL.jobId}, job, instance) (${TASK_SCOPE_PREFIX}${checkedMetric(metric)}{${LABEL.jobId}=~"${ids}"})`;
}

/**
 * `flink_taskmanager_job_task_<metric>{job_id="…",subtask_index="0"}[<range>s]`: the raw samples of one subtask per
 * vertex of a job over the last `rangeSeconds`, at the times they were scraped (their spacing is the scrape interval).
 */
export function rawSamplesQuery(metric: string, jobId: string, rangeSeconds: number): string {
  if (!Number.isInteger(rangeSeconds) || rangeSeconds <= 0) throw new EngineError('invalid-input', `A range of ${rangeSeconds} s is not a whole number of seconds.`);
  return `${TASK_SCOPE_PREFIX}${checkedMetric(metric)}{${LABEL.jobId}="${checkedId(jobId, 'job')}",${LABEL.subtaskIndex}="0"}[${rangeSeconds}s]`;
}
