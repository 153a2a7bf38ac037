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
  /** A finished rescale's prediction beside the load measured now. */
  getRescaleOutcome(entryId: string): Promise<RescaleOutcome>;
  /** The job's savepoints and those of its earlier runs, newest first. */
  listSavepoints(clusterId: string, jobId: string): Promise<SavepointListing[]>;
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
  resubmitDefaults: { program: JarProgram | null; parallelism: number; source: string };
  /** An open operation of this job (any process), which disables the buttons. */
  inFlight: JournalEntry | null;
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
  'getVertexSubtasks',
  'listTaskManagers',
  'killTaskManager',
  'listWatches',
  'setJobPinned',
  'getOperationsContext',
  'startOperation',
  'getJournalEntry',
  'listJournal',
  'exportJournal',
  'planRescale',
  'getRescaleOutcome',
  'listSavepoints',
] as const satisfies readonly EngineMethod[];

/** What a bridge returns for one call. */
export type BridgeResponse = { ok: true; value: unknown } | { ok: false; error: ErrorInfo };
