/**
 * The one contract between the UI and the engine. The renderer imports only this folder.
 * Electron (IPC) and web mode (HTTP on loopback) carry the same calls through one generic bridge,
 * so every method takes and returns plain JSON data.
 */

export type AuthKind = 'none' | 'basic' | 'bearer';

/** What the user types into the cluster form. Secrets travel only on save, never back out. */
export interface ClusterInput {
  /** Present when editing an existing cluster. */
  id?: string;
  name: string;
  /** REST URL of the JobManager, e.g. `http://127.0.0.1:8081`. */
  url: string;
  auth:
    | { kind: 'none' }
    | { kind: 'basic'; username: string; /** omitted on edit = keep the stored one */ password?: string }
    | { kind: 'bearer'; /** omitted on edit = keep the stored one */ token?: string };
  /** Path of a PEM file with extra CA certificates for https URLs. */
  caFile?: string;
  /** Per-request timeout. @default 10000 */
  timeoutMs?: number;
}

/** A saved cluster, as the UI sees it: never carries a secret. */
export interface ClusterConfig {
  id: string;
  name: string;
  url: string;
  auth: { kind: AuthKind; username?: string; hasSecret: boolean };
  caFile?: string;
  timeoutMs: number;
  /** True for the bundled local engine: not editable, not removable. */
  builtIn?: boolean;
}

export interface ClusterCheck {
  flinkVersion: string;
  flinkRevision?: string;
  /** The JobManager's `metrics.fetcher.update-interval`: polling metrics faster than this returns the same numbers. */
  metricsFetchIntervalMs: number;
  /** Major.minor the console knows how to read; false means "best effort" (older or newer than tested). */
  versionSupported: boolean;
}

export interface ClusterOverview {
  clusterId: string;
  flinkVersion: string;
  taskManagers: number;
  slotsTotal: number;
  slotsAvailable: number;
  jobs: { running: number; finished: number; cancelled: number; failed: number };
  /** Lowest refresh interval worth using for this cluster (see ClusterCheck.metricsFetchIntervalMs). */
  minRefreshIntervalMs: number;
  fetchedAt: number;
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
  /** From the highest backPressuredTimeMsPerSecond, with Flink's thresholds (≤0.10 ok, ≤0.50 low, else high). */
  backpressureLevel: BackpressureLevel | null;
}

export interface EdgeView {
  source: string;
  target: string;
  /** FORWARD, HASH, REBALANCE, RESCALE, BROADCAST, ... as the plan names it. */
  shipStrategy: string;
}

export interface JobGraph {
  clusterId: string;
  jobId: string;
  name: string;
  state: JobState;
  startTime: number;
  durationMs: number;
  maxParallelism: number | null;
  vertices: VertexView[];
  edges: EdgeView[];
  fetchedAt: number;
  /** Number of REST requests this refresh cost (shown to the curious, checked by the benchmark). */
  requestCount: number;
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

export interface TaskManagerView {
  id: string;
  /** host:port of its RPC endpoint, when the cluster says. */
  address: string | null;
  slotsTotal: number;
  slotsFree: number;
  /** Epoch ms of its last heartbeat (Flink calls the field `timeSinceLastHeartbeat`). */
  lastHeartbeat: number | null;
}

/**
 * A job the engine samples into its history in the background: opened recently (kept while a page shows it) or
 * pinned by the operator (kept until unpinned or the job ends). Watches survive a restart of the app.
 */
export interface JobWatch {
  clusterId: string;
  jobId: string;
  jobName: string;
  pinned: boolean;
  /** Sampling interval asked for; null = the cluster's metrics fetch interval (never faster than that). */
  intervalMs: number | null;
  createdAt: number;
  lastOpenedAt: number;
}

export interface AppInfo {
  mode: 'electron' | 'web';
  /** 'encrypted': OS-backed (Electron safeStorage); 'memory': secrets are kept in memory only and asked again after a restart. */
  secretStorage: 'encrypted' | 'memory';
  version: string;
}

/** Why a call failed, in words an operator can act on. Carried across the bridge as data. */
export type ErrorKind =
  | 'invalid-input'
  | 'invalid-url'
  | 'dns'
  | 'refused'
  | 'tls'
  | 'timeout'
  | 'not-flink'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'server-error'
  | 'malformed-response'
  | 'unexpected-response'
  | 'unsupported-version'
  | 'network'
  | 'internal';

export interface ErrorInfo {
  kind: ErrorKind;
  /** One readable sentence: what went wrong, where, and what to do. */
  message: string;
  /** `GET /jobs/overview` style, when a request to a cluster failed. */
  endpoint?: string;
  status?: number;
}

export interface EngineApi {
  getAppInfo(): Promise<AppInfo>;
  listClusters(): Promise<ClusterConfig[]>;
  /** Reachable, really Flink (`/config`), which version. Does not save. */
  checkCluster(input: ClusterInput): Promise<ClusterCheck>;
  /** Checks, then saves (creates or updates). A cluster that fails the check is not saved. */
  saveCluster(input: ClusterInput): Promise<{ cluster: ClusterConfig; check: ClusterCheck }>;
  removeCluster(clusterId: string): Promise<void>;
  getClusterOverview(clusterId: string): Promise<ClusterOverview>;
  listJobs(clusterId: string): Promise<JobSummary[]>;
  /** One refresh of the job page's graph: 1 + V requests for V vertices. */
  getJobGraph(clusterId: string, jobId: string): Promise<JobGraph>;
  /** One refresh of a vertex's subtasks table: 3 requests whatever the parallelism. */
  getVertexSubtasks(clusterId: string, jobId: string, vertexId: string): Promise<VertexSubtasks>;
  listTaskManagers(clusterId: string): Promise<TaskManagerView[]>;
  /**
   * The bundled local engine only, for rehearsals: kills one TaskManager as `kill -9` would. The jobs with tasks on it
   * fail over through their restart strategy. Refused for any other cluster.
   */
  killTaskManager(clusterId: string, taskManagerId: string): Promise<{ message: string }>;
  /** The jobs sampled in the background into the history store. */
  listWatches(): Promise<JobWatch[]>;
  /** Pins a job (watched until unpinned or it ends) or unpins it (then watched only while a page shows it). */
  setJobPinned(clusterId: string, jobId: string, pinned: boolean): Promise<JobWatch | null>;
  /** The job's checkpoints from the history (the newest `limit`, default 60), with Flink's last counts and summary. */
  getJobCheckpoints(clusterId: string, jobId: string, limit?: number): Promise<JobCheckpoints>;
  /** One checkpoint's per-vertex and per-subtask details, and the subtasks that stood out. */
  getCheckpointDetail(clusterId: string, jobId: string, checkpointId: number, triggerTimestamp: number): Promise<CheckpointDetail>;
  /** Busy time and backpressure per vertex over `[to − windowMs, to]` (`to` null: now), from the history. */
  getJobMetricsHistory(clusterId: string, jobId: string, windowMs: number, to?: number | null): Promise<JobMetricsHistory>;
  /** The jobs of a cluster the console has recorded, newest first, including jobs the cluster no longer knows. */
  listRecordedJobs(clusterId: string): Promise<RecordedJob[]>;
  /** A recorded job's last sampled graph, or null when there is no recording. */
  getRecordedJob(clusterId: string, jobId: string): Promise<RecordedJobGraph | null>;
}

export type EngineMethod = keyof EngineApi;

/** The allow-list both bridges enforce: a call outside it is refused at the edge. */
export const ENGINE_METHODS = [
  'getAppInfo',
  'listClusters',
  'checkCluster',
  'saveCluster',
  'removeCluster',
  'getClusterOverview',
  'listJobs',
  'getJobGraph',
  'getVertexSubtasks',
  'listTaskManagers',
  'killTaskManager',
  'listWatches',
  'setJobPinned',
  'getJobCheckpoints',
  'getCheckpointDetail',
  'getJobMetricsHistory',
  'listRecordedJobs',
  'getRecordedJob',
] as const satisfies readonly EngineMethod[];

/** What a bridge returns for one call. */
export type BridgeResponse = { ok: true; value: unknown } | { ok: false; error: ErrorInfo };

// ---------------------------------------------------------------------------------------------------------------
// The history: a watched job's checkpoints, its metrics over time, and jobs the console recorded. All of it is read
// from the console's own store, so it outlives a JobManager failover, an app restart and the job itself.

/** Something that happened to a job, marked on its charts. */
export interface HistoryMarker {
  t: number;
  /** gap: no samples (until `until`); restart: subtasks on a new attempt; failover: the JobManager recovered the job. */
  kind: 'gap' | 'restart' | 'failover' | 'restored' | 'state' | 'gone' | 'watch';
  message: string;
  /** A gap's end; null while it lasts. */
  until?: number | null;
}

/** Flink's `StatsSummaryDto`; null where Flink gives no value (older versions have no percentiles). */
export interface StatsSummary {
  min: number | null;
  max: number | null;
  avg: number | null;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  p999: number | null;
}

/** One checkpoint or savepoint as the history keeps it. Sizes in bytes, durations in ms; null = not reported. */
export interface CheckpointView {
  id: number;
  /** COMPLETED, FAILED, IN_PROGRESS; UNKNOWN when the JobManager stopped reporting it before it finished. */
  status: string;
  isSavepoint: boolean;
  /** CANONICAL or NATIVE for savepoints. */
  savepointFormat: string | null;
  checkpointType: string;
  triggerTimestamp: number;
  latestAckTimestamp: number | null;
  endToEndDurationMs: number | null;
  /** What this checkpoint wrote (incremental size). */
  checkpointedBytes: number | null;
  /** The full state size. */
  stateBytes: number | null;
  alignmentBufferedBytes: number | null;
  /** In-flight data processed during alignment, and persisted (unaligned checkpoints). */
  processedBytes: number | null;
  persistedBytes: number | null;
  numSubtasks: number;
  numAcknowledgedSubtasks: number;
  externalPath: string | null;
  failureTimestamp: number | null;
  failureMessage: string | null;
  /** The failure in words an operator can act on, when the console knows the message. */
  failureExplanation: string | null;
  /** Per-vertex and per-subtask details: stored, pending (fetched once it settles), or unavailable (why in `detailsUnavailable`). */
  details: 'stored' | 'pending' | 'unavailable';
  detailsUnavailable: string | null;
}

/** The Checkpoints tab: the recent checkpoints from the history, and what the JobManager last said about them all. */
export interface JobCheckpoints {
  clusterId: string;
  jobId: string;
  jobName: string | null;
  /** The newest checkpoints, oldest first. */
  checkpoints: CheckpointView[];
  /** All checkpoints of the job in the history (the list above may be the newest part). */
  inHistory: number;
  /** Flink's own counts and summary, as of `reportedAt`: they start over when the JobManager restarts the job. */
  flink: {
    counts: { restored: number; total: number; inProgress: number; completed: number; failed: number };
    summary: {
      endToEndDurationMs: StatsSummary | null;
      checkpointedBytes: StatsSummary | null;
      stateBytes: StatsSummary | null;
      processedBytes: StatsSummary | null;
      persistedBytes: StatsSummary | null;
    };
    reportedAt: number;
  } | null;
  latestCompleted: CheckpointView | null;
  latestSavepoint: CheckpointView | null;
  latestFailed: CheckpointView | null;
  restored: { id: number; restoreTimestamp: number; isSavepoint: boolean; externalPath: string | null } | null;
  /** Restarts, failovers and gaps over the time the list covers. */
  markers: HistoryMarker[];
  /** Why the list is empty, when it is (checkpointing off, not sampled yet). */
  emptyReason: string | null;
  /** The console's watch of the job: null when it no longer records it. */
  watch: JobWatch | null;
}

/** One subtask's part in a checkpoint. */
export interface CheckpointSubtaskView {
  index: number;
  /** `completed` or `pending_or_failed`. */
  status: string;
  ackTimestamp: number | null;
  endToEndDurationMs: number | null;
  checkpointedBytes: number | null;
  stateBytes: number | null;
  syncDurationMs: number | null;
  asyncDurationMs: number | null;
  alignmentBufferedBytes: number | null;
  alignmentProcessedBytes: number | null;
  alignmentPersistedBytes: number | null;
  alignmentDurationMs: number | null;
  startDelayMs: number | null;
  unaligned: boolean | null;
  aborted: boolean | null;
}

export interface CheckpointVertexView {
  vertexId: string;
  /** From the job's samples; the id when the console never sampled the vertex. */
  name: string;
  status: string;
  latestAckTimestamp: number | null;
  endToEndDurationMs: number | null;
  checkpointedBytes: number | null;
  stateBytes: number | null;
  alignmentBufferedBytes: number | null;
  processedBytes: number | null;
  persistedBytes: number | null;
  numSubtasks: number;
  numAcknowledgedSubtasks: number;
  /** null when not stored; `subtasksUnavailable` says why. */
  subtasks: CheckpointSubtaskView[] | null;
  subtasksUnavailable: string | null;
}

/** A subtask (or a few) that stood out from its siblings in a checkpoint. */
export interface CheckpointOutlierView {
  vertexId: string;
  vertexName: string;
  figure: 'startDelayMs' | 'alignmentDurationMs' | 'syncDurationMs' | 'asyncDurationMs' | 'endToEndDurationMs' | 'stateBytes';
  subtasks: number[];
  values: number[];
  othersMax: number;
  sentence: string;
}

export interface CheckpointDetail {
  clusterId: string;
  jobId: string;
  checkpoint: CheckpointView;
  vertices: CheckpointVertexView[];
  outliers: CheckpointOutlierView[];
  /** One sentence: the worst outlier, or that no subtask stands out. */
  finding: string;
}

/** One vertex at one time: aggregates over its subtasks (ms per second, records per second); null = a gap. */
export interface VertexMetricPoint {
  t: number;
  busyMax: number | null;
  busyAvg: number | null;
  backPressuredMax: number | null;
  backPressuredAvg: number | null;
  recordsInPerSecond: number | null;
}

export interface VertexMetricSeries {
  vertexId: string;
  name: string;
  parallelism: number;
  points: VertexMetricPoint[];
  peakBusyMax: number | null;
  peakBackPressuredMax: number | null;
}

/** Busy time and backpressure per vertex over a time window, from the history. */
export interface JobMetricsHistory {
  clusterId: string;
  jobId: string;
  from: number;
  to: number;
  /** Samples in the window. */
  samples: number;
  vertices: VertexMetricSeries[];
  markers: HistoryMarker[];
  /** The whole recording of the job, whatever the window. */
  firstSampleAt: number | null;
  lastSampleAt: number | null;
}

/** A job the console has a recording of, whether or not the cluster still knows it. */
export interface RecordedJob {
  clusterId: string;
  jobId: string;
  name: string;
  /** The job's state at the last sample. */
  lastState: string;
  firstSampleAt: number | null;
  lastSampleAt: number | null;
  samples: number;
  checkpoints: number;
  watch: JobWatch | null;
}

/** A recorded job's graph as the last sample saw it: what the job page shows when the cluster no longer has it. */
export interface RecordedJobGraph {
  recording: RecordedJob;
  graph: JobGraph;
}
