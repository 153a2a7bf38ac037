import type { RescaleRecord } from './operations.ts';

/** The jobs service: a cluster's jobs as Flink shows them now (graph, plan, subtasks, exceptions, rescales). */

export interface JobsApi {
  list(clusterId: string): Promise<JobSummary[]>;
  /**
   * One refresh of the job page's graph: 1 + V requests for V running vertices (at most 1 + 200: larger jobs are
   * sampled in turns). A job whose page asks for its graph stays watched: its history fills in the background.
   */
  graph(clusterId: string, jobId: string): Promise<JobGraph>;
  /** The job's vertices and edges only, in 1 request: what the graph's layout needs, before its figures. */
  plan(clusterId: string, jobId: string): Promise<JobPlan>;
  /** One refresh of a vertex's subtasks table: 3 requests whatever the parallelism. */
  subtasks(clusterId: string, jobId: string, vertexId: string): Promise<VertexSubtasks>;
  /** A job's exception history (1 request): why it failed or restarted, newest first. */
  exceptions(clusterId: string, jobId: string): Promise<JobExceptions>;
  /**
   * The adaptive scheduler's rescale history of a job (Flink 2.3+): 3 requests (history, summary, configuration) and
   * one per detailed rescale (the newest {@link RESCALE_DETAILS_LIMIT}), or 1 (and 2 more to explain) when the
   * cluster keeps none. The rescales the console triggered link to their journal entries by their rescale UUID.
   */
  rescales(clusterId: string, jobId: string): Promise<JobRescales>;
}

/** How many of the newest rescales are read in detail (per-vertex parallelism, slots): one request each. */
export const RESCALE_DETAILS_LIMIT = 10;

/** One rescale of the history, newest first. */
export interface JobRescale extends RescaleRecord {
  /** End − start; null while it runs. */
  durationMs: number | null;
  /** Its vertices and slots were read (`/details/:uuid`); false for the older ones (Flink's history leaves them empty). */
  detailed: boolean;
  /** The journal entry of the console's rescale that asked for it (its `rescaleRecord.rescaleUuid`); null otherwise. */
  journalEntryId: string | null;
}

/** Duration statistics (ms) of a kind of rescale; a figure Flink has none for ("NaN", or no rescale) is null. */
export interface RescaleDurations {
  min: number | null;
  max: number | null;
  avg: number | null;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
}

export interface RescalesSummary {
  counts: { completed: number; ignored: number; failed: number; inProgress: number };
  durations: { all: RescaleDurations; completed: RescaleDurations; ignored: RescaleDurations; failed: RescaleDurations };
}

/** The adaptive scheduler's settings that decide when a rescale happens (`/rescales/config`); null = not sent. */
export interface RescalesConfig {
  /** `web.adaptive-scheduler.rescale-history.size`. */
  historySize: number | null;
  /** `jobmanager.adaptive-scheduler.executing.cooldown-after-rescaling`: the least time between two rescales. */
  cooldownMs: number | null;
  /** `jobmanager.adaptive-scheduler.executing.resource-stabilization-timeout`: how long it waits for resources to settle. */
  resourceStabilizationMs: number | null;
  /** `jobmanager.adaptive-scheduler.rescale-trigger.max-delay`: the longest a wanted rescale waits to be triggered. */
  maxTriggerDelayMs: number | null;
  /** At submission: how long it waits for resources, and for them to stabilize. */
  submissionResourceWaitMs: number | null;
  submissionResourceStabilizationMs: number | null;
  /** `jobmanager.adaptive-scheduler.rescale-trigger.max-checkpoint-failures`. */
  rescaleOnFailedCheckpointCount: number | null;
}

export type JobRescales =
  | { clusterId: string; jobId: string; available: false; /** Why there is no history, and how to turn it on, in words. */ why: string; fetchedAt: number; requestCount: number }
  | {
      clusterId: string;
      jobId: string;
      available: true;
      /** Newest first, as many as the cluster keeps. */
      rescales: JobRescale[];
      summary: RescalesSummary;
      config: RescalesConfig;
      /** The console's rescales of this job whose UUID is no longer (or not yet) in Flink's history. */
      unmatchedJournalEntryIds: string[];
      fetchedAt: number;
      requestCount: number;
    };

/** Flink's JobStatus, kept as a string so newer states pass through. */
export type JobState = string;

export interface JobSummary {
  id: string;
  name: string;
  state: JobState;
  startTime: number;
  /** null while the job runs. */
  endTime: number | null;
  durationMs: number;
  /** Tasks by ExecutionState, lower-case keys as Flink sends them (`running`, `finished`, ...). */
  tasks: Record<string, number>;
}

export type BackpressureLevel = 'ok' | 'low' | 'high';

/** Aggregate of one per-subtask metric over a vertex's subtasks. */
export interface MetricAggregate {
  min: number;
  max: number;
  avg: number;
  sum: number;
}

export interface VertexView {
  id: string;
  name: string;
  parallelism: number;
  maxParallelism: number | null;
  /** ExecutionState of the vertex as a whole (RUNNING, FINISHED, ...). */
  status: string;
  tasks: Record<string, number>;
  /**
   * Epoch ms its subtasks were deployed (Flink's vertex `start-time`: the earliest of their current attempts); absent
   * when not yet deployed or not known. Per-second figures of a vertex deployed moments ago measure nothing yet.
   */
  startTime?: number;
  /** null when the cluster has no metric for it yet (just started, or finished). */
  recordsInPerSecond: number | null;
  recordsOutPerSecond: number | null;
  busyTimeMsPerSecond: MetricAggregate | null;
  backPressuredTimeMsPerSecond: MetricAggregate | null;
  idleTimeMsPerSecond: MetricAggregate | null;
  /** busyTimeMsPerSecond max/avg over the subtasks: 1 = even, the parallelism = one subtask does all the work. */
  busySkew: number | null;
  /**
   * Flink's own Data Skew of the vertex's records in (`numRecordsIn`, `agg=skew`: mean absolute deviation / mean,
   * in %, capped at 100), as the Web UI shows it; null where the cluster has no `agg=skew` (Flink before 1.20) or no
   * records yet.
   */
  dataSkewPercent: number | null;
  /**
   * The busy skew is an alarm: the busiest subtask is at least half busy and ≥ 2× the average. Few keys over lightly
   * loaded subtasks is not. Absent = not known (an engine without the rule).
   */
  busySkewAlarm?: boolean;
  /** From the highest backPressuredTimeMsPerSecond, with Flink's thresholds (≤0.10 ok, ≤0.50 low, else high). */
  backpressureLevel: BackpressureLevel | null;
  /**
   * Why this vertex has no metrics this refresh although the rest of the graph has: its metrics request failed (the
   * message names the endpoint), or a very large job's refresh did not sample it yet. Absent when they were fetched.
   */
  metricsUnavailable?: string;
  /**
   * Epoch ms when these metrics were fetched, when older than this refresh: a very large job's vertices are sampled
   * in turns and show their latest sample in between. Absent when fetched by this refresh.
   */
  metricsFetchedAt?: number;
}

export interface EdgeView {
  source: string;
  target: string;
  /** FORWARD, HASH, REBALANCE, RESCALE, BROADCAST, ... as the plan names it. */
  shipStrategy: string;
}

/**
 * A job's structure without figures: its vertices and the edges between them, from the one request that also starts
 * every graph refresh. The page lays the graph out from it while the vertices' metrics are still being fetched.
 */
export interface JobPlan {
  clusterId: string;
  jobId: string;
  name: string;
  vertices: Array<Pick<VertexView, 'id' | 'name' | 'parallelism'>>;
  edges: EdgeView[];
}

export interface JobGraph {
  clusterId: string;
  jobId: string;
  name: string;
  state: JobState;
  startTime: number;
  durationMs: number;
  maxParallelism: number | null;
  /** When the job reached a terminal state (FINISHED, FAILED, CANCELED); null while it is not in one. */
  endTime: number | null;
  /**
   * Only a RUNNING job has rates: in any other state every vertex's metrics are null, however recent the
   * JobManager's last sample (a FAILED job's last figures would read as live ones).
   */
  vertices: VertexView[];
  edges: EdgeView[];
  fetchedAt: number;
  /** Number of REST requests this refresh cost (shown to the curious, checked by the benchmark). */
  requestCount: number;
  /** Bytes the cluster answered for this refresh (its cost, shown beside the request count). */
  responseBytes?: number;
  /**
   * Present when the job has more running vertices than one refresh asks metrics for: how many were sampled this
   * refresh (in turns, so every vertex is sampled within a few refreshes) out of how many.
   */
  metricsSampling?: { sampled: number; of: number; maxPerRefresh: number };
}

export interface SubtaskRow {
  index: number;
  attempt: number;
  status: string;
  /** `endpoint` on Flink 2.x, `host` before. */
  endpoint: string | null;
  taskManagerId: string | null;
  recordsIn: number | null;
  recordsOut: number | null;
  bytesIn: number | null;
  bytesOut: number | null;
  /**
   * The subtask's own clock (ms): Flink's accumulated busy + back-pressured + idle time, read by the TaskManager with
   * the counters above. Rates between two refreshes divide by its growth, never by the time between the requests
   * (the JobManager refreshes its metrics on its own schedule). null where Flink reports no accumulated times.
   */
  clockMs: number | null;
  busyTimeMsPerSecond: number | null;
  backPressuredTimeMsPerSecond: number | null;
  idleTimeMsPerSecond: number | null;
  backpressureLevel: BackpressureLevel | null;
  /** Epoch ms of the current input watermark; null when there is none yet. */
  watermark: number | null;
}

export interface VertexSubtasks {
  clusterId: string;
  jobId: string;
  vertexId: string;
  name: string;
  parallelism: number;
  subtasks: SubtaskRow[];
  backpressureLevel: BackpressureLevel | null;
  fetchedAt: number;
  requestCount: number;
}

/** One failure as Flink recorded it in `GET /jobs/:jobid/exceptions`. */
export interface JobExceptionInfo {
  /** Java class name, e.g. `org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException`. */
  exceptionName: string;
  /** What went wrong in Flink's words: the first line of the stack trace, without the class name. */
  message: string;
  stackTrace: string;
  /** Epoch ms. */
  timestamp: number;
  /** The failed task as Flink names it (`tenant-cost (2/4)#1`); null for a global failure such as a lost TaskManager. */
  taskName: string | null;
  /** From `taskName`: the vertex, the subtask index (0-based) and its attempt. */
  vertexName: string | null;
  subtaskIndex: number | null;
  attempt: number | null;
  /** host:port of the TaskManager the task ran on (`endpoint` on Flink 2.x, `location` before). */
  endpoint: string | null;
  taskManagerId: string | null;
  failureLabels: Record<string, string>;
}

/** A root exception of the history, with the failures Flink handled together with it. */
export interface JobExceptionEntry extends JobExceptionInfo {
  concurrent: JobExceptionInfo[];
}

export interface JobExceptions {
  clusterId: string;
  jobId: string;
  /** Newest first: the first entry is the root exception of the latest failure. */
  entries: JobExceptionEntry[];
  /** The cluster keeps or returns more than these. */
  truncated: boolean;
  fetchedAt: number;
}
