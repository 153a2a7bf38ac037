/**
 * The one contract between the UI and the engine. The renderer imports only this folder.
 * Electron (IPC) and web mode (HTTP on loopback) carry the same calls through one generic bridge,
 * so every method takes and returns plain JSON data.
 */

import type { JobDiagnosis, KeyGroupRangeView, KeyLocation, KeyLookup, SkewHeatmap, SkewMetric } from './diagnosis.ts';

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

export interface TaskManagerView {
  id: string;
  /** host:port of its RPC endpoint, when the cluster says. */
  address: string | null;
  /** host:dataPort: what a subtask running on it shows as its `endpoint`. */
  endpoint: string | null;
  slotsTotal: number;
  slotsFree: number;
  /** Epoch ms of its last heartbeat (Flink calls the field `timeSinceLastHeartbeat`). */
  lastHeartbeat: number | null;
  /** From `/taskmanagers/:id/metrics`; null when not fetched (beyond the first `TASKMANAGER_METRICS_LIMIT` of engine/sampling/taskmanagers.ts) or unavailable. */
  metrics: TaskManagerMetrics | null;
}

/** What operators look at on a TaskManager; each null when the cluster does not report it (yet). */
export interface TaskManagerMetrics {
  /** Bytes (`Status.JVM.Memory.Heap.Used` / `.Max`). */
  heapUsed: number | null;
  heapMax: number | null;
  /** Bytes of Flink managed memory (`Status.Flink.Memory.Managed.Used` / `.Total`). */
  managedMemoryUsed: number | null;
  managedMemoryTotal: number | null;
  /** The JVM's recent CPU load, 0..1 (`Status.JVM.CPU.Load`). */
  cpuLoad: number | null;
  /** Network buffers (memory segments) in use and in all (`Status.Shuffle.Netty.UsedMemorySegments` / `TotalMemorySegments`). */
  networkBuffersUsed: number | null;
  networkBuffersTotal: number | null;
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
  | 'internal'
  /** The cluster redirected to another origin or from https to http; the console did not follow (the message names where). */
  | 'redirect-refused';

export interface ErrorInfo {
  kind: ErrorKind;
  /** One readable sentence: what went wrong, where, and what to do. */
  message: string;
  /** `GET /jobs/overview` style, when a request to a cluster failed. */
  endpoint?: string;
  status?: number;
  /** The field of the response that failed validation (`jobs.0.state`), for an unexpected response. */
  field?: string;
}

// --- Kafka (per cluster, optional) -------------------------------------------------------------------------------

export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** What the user types into the Kafka form of a cluster. The SASL password travels only on save, never back out. */
export interface KafkaSettingsInput {
  /** Bootstrap servers, `host:port`, comma-separated. */
  bootstrapServers: string;
  /** Connect with TLS (verification always on). */
  tls: boolean;
  /** Path of a PEM file with extra CA certificates for TLS. */
  caFile?: string;
  sasl:
    | { mechanism: 'none' }
    | { mechanism: KafkaSaslMechanism; username: string; /** omitted on edit = keep the stored one */ password?: string };
  /** @default "flink-ops-console" */
  clientId?: string;
  /** Per-request timeout. @default 10000 */
  timeoutMs?: number;
}

/** Saved Kafka settings as the UI sees them: never carries the password. */
export interface KafkaSettingsView {
  bootstrapServers: string[];
  tls: boolean;
  caFile?: string;
  sasl: { mechanism: KafkaSaslMechanism | 'none'; username?: string; hasSecret: boolean };
  clientId: string;
  timeoutMs: number;
}

/** One topic-partition of a consumer group. Offsets are record positions (safe integers). */
export interface PartitionLag {
  topic: string;
  partition: number;
  /** null: the group has no committed offset for this partition (shown as such, never as 0). */
  committedOffset: number | null;
  /** The log-end offset (high watermark): the next offset a producer writes. */
  logEndOffset: number;
  /** The first offset still in the log (retention deletes below it). */
  logStartOffset: number;
  /** logEndOffset − committedOffset; null without a committed offset. */
  lag: number | null;
}

export interface ConsumerLag {
  groupId: string;
  /** `Empty`, `Stable`, `Dead` (no such group), ... as the group coordinator says. */
  groupState: string;
  /** Members of the group (a Flink KafkaSource never joins: 0 is normal). */
  members: number;
  topics: string[];
  partitions: PartitionLag[];
  /** Sum of the lag of the partitions with a committed offset. */
  totalLag: number;
  partitionsWithoutCommit: number;
  fetchedAt: number;
  /** Kafka requests this query cost. */
  requestCount: number;
}

/** One point of the lag trend. */
export interface LagPoint {
  at: number;
  totalLag: number;
  partitionsWithoutCommit: number;
  /** The job's own `pendingRecords` at that moment, when Flink exposed it. */
  pendingRecords: number | null;
}

/** What the console found out about a job's Kafka source from Flink's REST API. */
export interface KafkaSourceInfo {
  /** Topics from the source's `KafkaSourceReader.topic.<t>.partition.<p>` metrics. */
  topics: string[];
  /** The consumer group from the job's configuration (`group.id`-like keys), when it says. */
  groupId: string | null;
  /** Sum of the source's `pendingRecords` over its subtasks; null when Flink does not expose it. */
  pendingRecords: number | null;
  /** The Kafka source vertex, when found. */
  sourceVertexId: string | null;
  /** `execution.checkpointing.interval` of the job in ms (offsets are committed on checkpoints); null when off. */
  checkpointIntervalMs: number | null;
}

export interface ConsumerLagQuery {
  groupId: string;
  /** Only these topics; default: every topic the group has committed offsets for. */
  topics?: string[];
  /** The job whose `pendingRecords` to read beside the lag. */
  jobId?: string;
}

export interface ConsumerLagView extends ConsumerLag {
  /** The job's `pendingRecords` (sum over the source's subtasks), when asked and exposed. */
  pendingRecords: number | null;
}

export interface HotKeySampleQuery {
  topic: string;
  /** A path into the JSON value: `tenant_id`, `user.id`, `items[0].sku`. */
  keyPath: string;
  /** Read the records of the last N seconds. @default 60 */
  seconds?: number;
  /** Stop after this many records. @default 200000 */
  maxRecords?: number;
  /** A keyed vertex: where each hot key lands at its current parallelism. */
  keyedVertex?: { maxParallelism: number; parallelism: number };
  /** @default 20 */
  top?: number;
}

export interface HotKey {
  key: string;
  count: number;
  /** count / keyed records (0..1). */
  share: number;
  /** Records per second over the sampled span. */
  ratePerSecond: number;
  /** With a keyed vertex: Flink's key group and the subtask that owns it. */
  keyGroup?: number;
  subtask?: number;
}

export interface HotKeySample {
  topic: string;
  keyPath: string;
  /** The window read: [from, to] as record timestamps. */
  from: number;
  to: number;
  /** Records read, and how many of them were keyed, not JSON (or empty), or lacked the key path (or held no usable key). */
  records: number;
  keyed: number;
  notJson: number;
  missingKey: number;
  distinctKeys: number;
  keys: HotKey[];
  /** With a keyed vertex: the share of keyed records each subtask would get, busiest first. */
  subtaskShares?: Array<{ subtask: number; share: number }>;
  keyedVertex?: { maxParallelism: number; parallelism: number };
  /** True when the sample stopped early (timeout, broker gone, record cap): its numbers cover less than asked. */
  partial: boolean;
  partialReason?: string;
  /** Partitions read and those that could not be read to the end. */
  partitions: number;
  sampledAt: number;
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
  /** One refresh of the job page's graph: 1 + V requests for V running vertices (at most 1 + 200: larger jobs are sampled in turns). */
  getJobGraph(clusterId: string, jobId: string): Promise<JobGraph>;
  /** The job's vertices and edges only, in 1 request: what the graph's layout needs, before its figures. */
  getJobPlan(clusterId: string, jobId: string): Promise<JobPlan>;
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
  /** Every subtask of every vertex of a job as CSV, one row each (1 + 3V requests); the UI saves it with the shell. */
  exportSubtaskMetrics(clusterId: string, jobId: string): Promise<ExportedFile>;
  /** A skew report of a job over "the last windowMs" of its history: csv (subtasks), vertices-csv, json or html. */
  exportSkewReport(clusterId: string, jobId: string, request: { windowMs: number; format: string }): Promise<ExportedFile>;
  /** An incident bundle of a job's window (.flinkops-bundle: samples, checkpoints, exceptions, journal, report), base64. */
  saveIncidentBundle(clusterId: string, jobId: string, request: { windowMs: number }): Promise<ExportedBinary>;
  /** The cluster's optional Kafka connection settings, or null. */
  getKafkaSettings(clusterId: string): Promise<KafkaSettingsView | null>;
  /** Checks the brokers answer (and accept the credentials), then saves. Settings that fail the check are not saved. */
  saveKafkaSettings(clusterId: string, input: KafkaSettingsInput): Promise<KafkaSettingsView>;
  removeKafkaSettings(clusterId: string): Promise<void>;
  /** The job's Kafka source as Flink's REST API shows it: topics, consumer group, pendingRecords. */
  getKafkaSource(clusterId: string, jobId: string): Promise<KafkaSourceInfo>;
  /** Committed offset, log-end offset and lag per partition of a consumer group; appended to the lag history. */
  getConsumerLag(clusterId: string, query: ConsumerLagQuery): Promise<ConsumerLagView>;
  /** The lag trend of a group since `sinceMs` (epoch ms), oldest first. */
  getLagHistory(clusterId: string, groupId: string, sinceMs: number): Promise<LagPoint[]>;
  /** Reads the last N seconds of a topic (never in the job's group, nothing committed) and counts keys. */
  sampleHotKeys(clusterId: string, query: HotKeySampleQuery): Promise<HotKeySample>;
  /** A job's exception history (1 request): why it failed or restarted, newest first. */
  getJobExceptions(clusterId: string, jobId: string): Promise<JobExceptions>;
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
  /**
   * The root cause in one sentence, per-subtask skew figures and hot subtasks, over the last `windowMs` of the job's
   * history (ending at its newest sample). Reads the history only: no request to the cluster.
   */
  diagnoseJob(clusterId: string, jobId: string, windowMs: number): Promise<JobDiagnosis>;
  /** Every vertex × subtask of one metric over the window, for the heatmap. */
  getSkewHeatmap(clusterId: string, jobId: string, windowMs: number, metric: SkewMetric, aggregate: 'mean' | 'max'): Promise<SkewHeatmap>;
  /** Which subtask owns a key (Flink's key-group assignment), and where a rescale would move it. */
  locateKey(lookup: KeyLookup): Promise<KeyLocation>;
  /** The key-group range each subtask of a keyed vertex owns, index = subtask. */
  getKeyGroupRanges(maxParallelism: number, parallelism: number): Promise<KeyGroupRangeView[]>;
  /** What the Operations area of a job offers: savepoint folder, scheduler, jars, the operation in flight. */
  getOperationsContext(clusterId: string, jobId: string): Promise<OperationsContext>;
  /**
   * Starts an operation: written to the journal first, then sent. The same `triggerId` again returns the same entry
   * and sends nothing (a double click or a retry); another open operation of the job is refused.
   */
  startOperation(request: OperationRequest): Promise<JournalEntry>;
  getJournalEntry(id: string): Promise<JournalEntry | null>;
  /** Newest first. */
  listJournal(filter?: JournalFilter): Promise<JournalEntry[]>;
  exportJournal(filter: JournalFilter, format: 'csv' | 'json'): Promise<JournalExport>;
  /** Predicts each keyed vertex's per-subtask load at the new parallelism; changes nothing. */
  planRescale(clusterId: string, jobId: string, request: { parallelism: number | Record<string, number>; hotKeys?: HotKeyLoad[] }): Promise<RescalePlan>;
  /**
   * The plan Flink would run for a resubmit (`POST /jars/:jarid/plan`, the run's arguments) beside the stopped run's
   * vertices, with every difference named; sends nothing that runs. Bad arguments or a missing jar: a clear error.
   */
  planResubmit(request: ResubmitPlanRequest): Promise<ResubmitPlan>;
  /** A finished rescale's prediction beside the load measured now. */
  getRescaleOutcome(entryId: string): Promise<RescaleOutcome>;
  /** The job's savepoints and those of its earlier runs, newest first. */
  listSavepoints(clusterId: string, jobId: string): Promise<SavepointListing[]>;
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

// ---------- Operations: savepoint, stop-with-savepoint, cancel, rescale, resubmit, and their journal ----------

export type OperationKind = 'savepoint' | 'stop' | 'cancel' | 'rescale' | 'resubmit';

/**
 * Where an operation stands. `pending`: in the journal, its request sent or about to be, no answer seen yet (it may
 * or may not have reached the cluster). `in-progress`: the cluster took it. The other four are outcomes:
 * `not-started` means the cluster provably never got it (nothing happened), `unknown` that the cluster lost track
 * of it and nobody can tell what happened (never reported as a success).
 */
export type OperationState = 'pending' | 'in-progress' | 'succeeded' | 'failed' | 'not-started' | 'unknown';

export const OPEN_OPERATION_STATES: readonly OperationState[] = ['pending', 'in-progress'];

/** Savepoint format (Flink's `formatType`): canonical is portable across state backends; native is faster. */
export type SavepointFormat = 'canonical' | 'native';

/** The program to run from a savepoint through `POST /jars/:jarid/run`. */
export interface JarProgram {
  jarId: string;
  /** The jar's main class when it has several. */
  entryClass?: string;
  programArgs?: string[];
}

/** A key whose load is known (typed in, or from a Kafka sample): placed exactly by the rescale plan. */
export interface HotKeyLoad {
  key: string;
  recordsPerSecond: number;
  /** Only this keyed vertex; absent = every keyed vertex of the job. */
  vertexId?: string;
}

/** What the user asks for. `triggerId` (32 hex) is made once per intent by the caller: a retry reuses it. */
export type OperationRequest =
  | { kind: 'savepoint'; clusterId: string; jobId: string; triggerId: string; targetDirectory?: string; format?: SavepointFormat }
  | { kind: 'stop'; clusterId: string; jobId: string; triggerId: string; targetDirectory?: string; format?: SavepointFormat; drain: boolean }
  | { kind: 'cancel'; clusterId: string; jobId: string; triggerId: string }
  | {
      kind: 'rescale';
      clusterId: string;
      jobId: string;
      triggerId: string;
      /** One parallelism for every vertex, or per vertex id (the adaptive route only). */
      parallelism: number | Record<string, number>;
      /** @default adaptive where the cluster runs the adaptive scheduler, else savepoint */
      route?: 'adaptive' | 'savepoint';
      /** The savepoint route: the program to resubmit, and where the savepoint goes. */
      program?: JarProgram;
      targetDirectory?: string;
      hotKeys?: HotKeyLoad[];
    }
  | {
      kind: 'resubmit';
      clusterId: string;
      /** The job this run replaces (its savepoints), if any. */
      jobId?: string;
      triggerId: string;
      program: JarProgram;
      savepointPath?: string;
      parallelism?: number;
      allowNonRestoredState?: boolean;
    };

/** A resubmit as the user is about to ask for it: what `planResubmit` plans. */
export type ResubmitPlanRequest = Omit<Extract<OperationRequest, { kind: 'resubmit' }>, 'kind' | 'triggerId'>;

/** A vertex's parallelism in one run of a job, or in the plan of the next; matched across runs by id, else by name. */
export interface VertexShape {
  id: string;
  name: string;
  parallelism: number;
  /** null: not known (Flink's plan of a jar does not give it). */
  maxParallelism: number | null;
}

/** One way a run differs from the stopped one, in words ("tenant-cost: 32 → 4"). */
export interface ShapeChange {
  vertexName: string;
  kind: 'parallelism' | 'max-parallelism' | 'missing' | 'added';
  from: number | null;
  to: number | null;
  words: string;
}

/** What a resubmit would run (Flink's plan) beside what the stopped run ran. */
export interface ResubmitPlan {
  /** The vertices Flink will run, from `POST /jars/:jarid/plan` with the run's arguments. */
  planned: VertexShape[];
  /** The stopped run's vertices; null when the resubmit names no job (nothing to compare with). */
  stopped: VertexShape[] | null;
  /** How the plan differs from the stopped run; empty when it has the same shape (or there is nothing to compare). */
  changes: ShapeChange[];
  /** The job parallelism the run request names; null: none (the program's own and the cluster's default apply). */
  jobParallelism: number | null;
}

/** What an operation was asked to do, as the journal keeps it. */
export interface OperationParams {
  targetDirectory?: string;
  format?: SavepointFormat;
  drain?: boolean;
  route?: 'adaptive' | 'savepoint';
  /** Target parallelism per vertex id. */
  parallelism?: Record<string, number>;
  /** One job-wide parallelism (savepoint route, resubmit). */
  jobParallelism?: number;
  program?: JarProgram;
  savepointPath?: string;
  allowNonRestoredState?: boolean;
  /** The id the resubmitted job gets, chosen before the request so that a retry can never run it twice. */
  newJobId?: string;
  /** Steps of a rescale through a savepoint: their own journal entries. */
  stopTriggerId?: string;
  resubmitTriggerId?: string;
  hotKeys?: HotKeyLoad[];
  /** Resubmit: the stopped run's vertices and the plan the user confirmed, kept to compare the new job with. */
  stoppedShape?: VertexShape[];
  plannedShape?: VertexShape[];
}

/** One operation in the journal, written before its request is sent and updated as it progresses. */
export interface JournalEntry {
  /** The trigger id: the idempotency key sent to Flink (savepoint, stop) or kept by the console. */
  id: string;
  kind: OperationKind;
  state: OperationState;
  clusterId: string;
  clusterName: string;
  clusterUrl: string;
  jobId: string | null;
  jobName: string | null;
  params: OperationParams;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** What is happening now, in words ("savepoint in progress", "waiting for parallelism 8"). */
  progress: string | null;
  /** The savepoint's path (savepoint, stop, rescale through a savepoint). */
  resultPath: string | null;
  /** The job a resubmit (or a rescale through a savepoint) started. */
  newJobId: string | null;
  /** Why it failed, or why its outcome is unknown, in words. */
  failure: string | null;
  /** Flink's own message behind `failure`. */
  failureDetail: string | null;
  origin: 'app' | 'cli';
  /** The rescale this step belongs to. */
  parentId: string | null;
  /** REST requests spent: the trigger(s), and the polling until the outcome. */
  requests: { trigger: number; poll: number };
  /** A rescale's plan, made before the user confirmed. */
  plan: RescalePlan | null;
  /** A savepoint or stop in flight: its savepoint's acknowledged subtasks, read while it runs (absent in older entries). */
  checkpoint?: SavepointProgress | null;
  /** What the operation did to the job's other checkpoints, e.g. the periodic checkpoint a stop abandoned. */
  checkpointNote?: string | null;
  /**
   * Resubmit: how the new job's vertices differ from the stopped run's (empty: the same shape), once it runs.
   * Absent when there was nothing to compare (no stopped run, or not running yet).
   */
  shapeChanges?: ShapeChange[];
}

export interface JournalFilter {
  clusterId?: string;
  jobId?: string;
  kind?: OperationKind;
  state?: OperationState;
  /** Matches id, job, path, failure, progress. */
  text?: string;
  /** Newest first. @default 500 */
  limit?: number;
}

/** A journal export, for a download or a save dialog. */
export interface JournalExport {
  fileName: string;
  mimeType: string;
  content: string;
}

export interface KeyGroupSpread {
  maxParallelism: number;
  parallelism: number;
  /** `maxParallelism % parallelism` subtasks own one key group more than the others. */
  larger: { subtasks: number; keyGroups: number };
  smaller: { subtasks: number; keyGroups: number };
  even: boolean;
}

export interface PlannedSubtask {
  subtask: number;
  startKeyGroup: number;
  endKeyGroup: number;
  recordsPerSecond: number;
  /** busy ms/s at the observed capacity per subtask; null when the capacity is unknown. */
  busyTimeMsPerSecond: number | null;
  hotKeys: string[];
  overCapacity: boolean;
}

export interface ObservedSubtask {
  subtask: number;
  recordsPerSecond: number | null;
  busyTimeMsPerSecond: number | null;
}

export interface PlannedHotKey {
  key: string;
  recordsPerSecond: number;
  keyGroup: number;
  subtaskBefore: number;
  subtaskAfter: number;
  /** No other known hot key shares its subtask after the rescale. */
  aloneAfter: boolean;
  overCapacity: boolean;
}

export interface LoadFigures {
  max: number;
  mean: number;
  /** max/mean: 1 is even. */
  maxOverMean: number | null;
}

export interface VertexRescalePlan {
  vertexId: string;
  vertexName: string;
  maxParallelism: number;
  from: number;
  to: number;
  observed: ObservedSubtask[];
  predicted: PlannedSubtask[];
  hotKeys: PlannedHotKey[];
  before: LoadFigures;
  after: LoadFigures;
  /** Records/s one subtask sustains, from the busiest subtask's rate and busy time; null when nothing is busy enough to tell. */
  capacity: { recordsPerSecond: number; subtask: number; busyTimeMsPerSecond: number } | null;
  spread: KeyGroupSpread;
  /** What the plan means, one sentence each ("acme still lands alone on subtask 18 at 400 records/s, …"). */
  findings: string[];
}

export interface RescalePlan {
  clusterId: string;
  jobId: string;
  jobName: string;
  createdAt: number;
  route: 'adaptive' | 'savepoint';
  /** Why this route (the scheduler, and where it was read). */
  routeReason: string;
  parallelism: Record<string, number>;
  /** Where the per-subtask load came from. */
  load: { source: 'history' | 'live'; from: number; to: number; samples: number };
  /** Keyed vertices (an input edge with ship strategy HASH): the plan predicts these. */
  vertices: VertexRescalePlan[];
  /** Why the rescale cannot be done as asked (above max parallelism, ...). Empty = possible. */
  refusals: string[];
  warnings: string[];
  slots: { needed: number; available: number };
  /** The model behind the prediction, to show beside it. */
  assumption: string;
}

/** After a rescale: what the plan predicted beside what the job then did. */
export interface RescaleOutcome {
  entryId: string;
  plan: RescalePlan;
  jobId: string;
  measuredAt: number;
  load: { source: 'history' | 'live'; from: number; to: number; samples: number };
  vertices: Array<{
    vertexId: string;
    vertexName: string;
    parallelism: number;
    predicted: LoadFigures;
    observed: LoadFigures | null;
    subtasks: Array<{ subtask: number; predicted: number | null; observed: number | null }>;
  }>;
}

/** What the Operations area needs to offer the right choices for a job. */
export interface OperationsContext {
  clusterId: string;
  jobId: string;
  jobName: string;
  jobState: JobState;
  flinkVersion: string;
  /** The cluster's default savepoint folder and the key it came from; null = the user must give one. */
  savepointDirectory: { value: string; key: string } | null;
  scheduler: { kind: 'adaptive' | 'default'; reason: string };
  vertices: Array<{ id: string; name: string; parallelism: number; maxParallelism: number | null; keyed: boolean }>;
  slots: { total: number; available: number; usedByJob: number };
  /** Jars uploaded to the cluster (`GET /jars`). */
  jars: Array<{ id: string; name: string; uploaded: number; entryClasses: string[] }>;
  /** null when jobs can be run from an uploaded jar; else why not and what to do instead. */
  jarSubmissionUnavailable: string | null;
  /** Best guess of the program that runs this job, for the resubmit form (always shown to the user to check). */
  /** `parallelism`: the stopped run's job parallelism; null when unknown (none is sent: the program's and the cluster's default). */
  resubmitDefaults: { program: JarProgram | null; parallelism: number | null; source: string };
  /** An open operation of this job (any process), which disables the buttons. */
  inFlight: JournalEntry | null;
  /**
   * How long the job's recent checkpoints took (`GET /jobs/:id/checkpoints`), for the savepoint and stop
   * confirmations; null when the JobManager gives no checkpoint statistics.
   */
  recentCheckpoints: RecentCheckpoints | null;
}

/** The job's recent checkpoints, as a savepoint's confirmation tells them. */
export interface RecentCheckpoints {
  /** Completed checkpoints and savepoints in the JobManager's history (`web.checkpoints.history`). */
  completed: number;
  minMs: number | null;
  maxMs: number | null;
  /** Flink's summary p50 (its window of recent checkpoints), else the history's median. */
  p50Ms: number | null;
  /** "Recent checkpoints took 14–20 s (p50 18 s, last 5): this savepoint will likely take about as long, under backpressure longer." */
  sentence: string;
  /** Stop-with-savepoint only: what stopping does to a checkpoint in flight. */
  stopNote: string;
}

/** The savepoint of a running savepoint or stop-with-savepoint, as the job's checkpoint statistics show it. */
export interface SavepointProgress {
  /** Its checkpoint id (a savepoint is a checkpoint with `is_savepoint`). */
  checkpointId: number;
  acknowledged: number;
  total: number;
  triggerTimestamp: number;
  /** Per vertex in the job's order (`/checkpoints/details/:id`); null when not read. */
  vertices: Array<{ vertexId: string; name: string; acknowledged: number; total: number }> | null;
  /** When the console read it (epoch ms). */
  readAt: number;
}

/** A savepoint of a job or of an earlier run of it. */
export interface SavepointListing {
  path: string;
  /** When it completed (or was triggered, when that is all that is known). */
  time: number;
  format: SavepointFormat | null;
  /** The run it came from. */
  jobId: string;
  jobName: string | null;
  /** How it was taken. */
  kind: 'savepoint' | 'stop' | 'unknown';
  source: 'journal' | 'checkpoint-history';
  /** Checkpoint id within that run, when known. */
  checkpointId: number | null;
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
  'getJobPlan',
  'getVertexSubtasks',
  'listTaskManagers',
  'killTaskManager',
  'listWatches',
  'setJobPinned',
  'exportSubtaskMetrics',
  'getKafkaSettings',
  'saveKafkaSettings',
  'removeKafkaSettings',
  'getKafkaSource',
  'getConsumerLag',
  'getLagHistory',
  'sampleHotKeys',
  'getJobExceptions',
  'getJobCheckpoints',
  'getCheckpointDetail',
  'getJobMetricsHistory',
  'listRecordedJobs',
  'getRecordedJob',
  'diagnoseJob',
  'getSkewHeatmap',
  'locateKey',
  'getKeyGroupRanges',
  'getOperationsContext',
  'startOperation',
  'getJournalEntry',
  'listJournal',
  'exportJournal',
  'planRescale',
  'planResubmit',
  'getRescaleOutcome',
  'listSavepoints',
  'exportSkewReport',
  'saveIncidentBundle',
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
