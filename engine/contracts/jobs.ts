/** The jobs service: a cluster's jobs as Flink shows them now (graph, plan, subtasks, exceptions). */

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
}

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
