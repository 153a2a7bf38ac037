/** The clusters service: the saved clusters (and the built-in local engine), their overview and their TaskManagers. */

export interface ClustersApi {
  list(): Promise<ClusterConfig[]>;
  /** Reachable, really Flink (`/config`), which version. Does not save. */
  check(input: ClusterInput): Promise<ClusterCheck>;
  /** Checks, then saves (creates or updates). A cluster that fails the check is not saved. */
  save(input: ClusterInput): Promise<{ cluster: ClusterConfig; check: ClusterCheck }>;
  /** Forgets the cluster, its secrets, its Kafka settings and its watches. */
  remove(clusterId: string): Promise<void>;
  overview(clusterId: string): Promise<ClusterOverview>;
  taskManagers(clusterId: string): Promise<TaskManagerView[]>;
  /**
   * The bundled local engine only, for rehearsals: kills one TaskManager as `kill -9` would. The jobs with tasks on it
   * fail over through their restart strategy. Refused for any other cluster.
   */
  killTaskManager(clusterId: string, taskManagerId: string): Promise<{ message: string }>;
}

export type AuthKind = 'none' | 'basic' | 'bearer';

/** How the console authenticates, as typed into a form. Secrets travel only on save, never back out. */
export type AuthInput =
  | { kind: 'none' }
  | { kind: 'basic'; username: string; /** omitted on edit = keep the stored one */ password?: string }
  | { kind: 'bearer'; /** omitted on edit = keep the stored one */ token?: string };

/** What the user types into the cluster form. */
export interface ClusterInput {
  /** Present when editing an existing cluster. */
  id?: string;
  name: string;
  /** REST URL of the JobManager, e.g. `http://127.0.0.1:8081`. */
  url: string;
  auth: AuthInput;
  /** Path of a PEM file with extra CA certificates for https URLs. */
  caFile?: string;
  /** Per-request timeout. @default 10000 */
  timeoutMs?: number;
  /** Where the cluster's metrics are kept over time; absent = none (the console samples the JobManager itself). */
  metricsStore?: MetricsStoreInput;
}

/**
 * A Prometheus-compatible query API holding the cluster's metrics as Flink's PrometheusReporter exports them
 * (Prometheus, Thanos, Mimir and VictoriaMetrics answer the same `/api/v1/query_range`).
 */
export interface MetricsStoreInput {
  /** Base URL of the query API, e.g. `http://prometheus:9090` (the path before `/api/v1`). */
  url: string;
  auth: AuthInput;
  /** Path of a PEM file with extra CA certificates for an https URL. */
  caFile?: string;
}

/** A saved metrics store, as the UI sees it: never carries a secret. */
export interface MetricsStoreConfig {
  url: string;
  auth: { kind: AuthKind; username?: string; hasSecret: boolean };
  caFile?: string;
}

/** What checking a metrics store for a cluster found: each finding one sentence. */
export interface MetricsStoreCheck {
  /** It answered as a Prometheus query API. A cluster is not saved with a store that does not. */
  reachable: boolean;
  /** Reachable and holding this cluster's task series: the history reads it. */
  usable: boolean;
  /** The store's own version where it says (Prometheus' buildinfo). */
  version: string | null;
  /** How often the cluster's series are scraped, where the store says or its samples show. */
  scrapeIntervalMs: number | null;
  findings: string[];
}

/** A saved cluster, as the UI sees it: never carries a secret. */
export interface ClusterConfig {
  id: string;
  name: string;
  url: string;
  auth: { kind: AuthKind; username?: string; hasSecret: boolean };
  caFile?: string;
  timeoutMs: number;
  metricsStore?: MetricsStoreConfig;
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
  /** The cluster's metrics store, when the input names one. */
  metricsStore?: MetricsStoreCheck;
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
