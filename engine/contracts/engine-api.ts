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
}

/** A file the engine prepared for the user to save (ShellApi.saveFile): text, with a name to suggest. */
export interface ExportedFile {
  suggestedName: string;
  content: string;
  mime: string;
  /** Data rows, for the message that says it is done. */
  rows: number;
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
  'exportSubtaskMetrics',
  'getKafkaSettings',
  'saveKafkaSettings',
  'removeKafkaSettings',
  'getKafkaSource',
  'getConsumerLag',
  'getLagHistory',
  'sampleHotKeys',
  'getJobExceptions',
] as const satisfies readonly EngineMethod[];

/** What a bridge returns for one call. */
export type BridgeResponse = { ok: true; value: unknown } | { ok: false; error: ErrorInfo };
