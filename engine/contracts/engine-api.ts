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
   * The busy skew is an alarm: the busiest subtask is at least half busy and ≥ 2× the average. Few keys over lightly
   * loaded subtasks is not. Absent = not known (an engine without the rule).
   */
  busySkewAlarm?: boolean;
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
  'diagnoseJob',
  'getSkewHeatmap',
  'locateKey',
  'getKeyGroupRanges',
] as const satisfies readonly EngineMethod[];

/** What a bridge returns for one call. */
export type BridgeResponse = { ok: true; value: unknown } | { ok: false; error: ErrorInfo };
