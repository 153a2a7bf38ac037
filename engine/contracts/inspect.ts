import type { FlameGraphType, FlameGraphView } from './flame-graph.ts';

/**
 * The inspect service: the read-only views of Flink's Web UI the job page does not poll (configuration, watermarks,
 * accumulators, a vertex's TaskManagers, the timeline of its subtasks' states, flame graphs, process memory). Each
 * call is one refresh of a view that is open; none runs in the background or adds to the sampler's rounds.
 */

export interface InspectApi {
  /**
   * The JobManager's configuration and environment, and with a job its configuration, user parameters and checkpoint
   * configuration: 2 requests, 4 with a job.
   */
  configuration(clusterId: string, jobId?: string): Promise<ConfigurationView>;
  /** A vertex's watermarks, accumulators (of the vertex and per subtask), TaskManagers and subtask times: 5 requests. */
  vertex(clusterId: string, jobId: string, vertexId: string): Promise<VertexInspection>;
  /**
   * A vertex's flame graph, or one subtask's (Flink 1.17+), as Flink samples its threads: 1 request, asked again each
   * second while Flink takes its first samples (about 5 s). Where `rest.flamegraph.enabled` is off, says so.
   */
  flameGraph(clusterId: string, jobId: string, vertexId: string, options: FlameGraphOptions): Promise<FlameGraphView>;
  /** The memory and garbage collection figures of the JobManager (`processId` "jobmanager") or of a TaskManager: 2 requests. */
  process(clusterId: string, processId: string): Promise<ProcessFigures>;
}

export interface FlameGraphOptions {
  /** @default 'full' */
  type?: FlameGraphType;
  /** One subtask alone; the whole vertex without. */
  subtask?: number;
}

/** What Flink sends instead of a value it hides (`GlobalConfiguration.HIDDEN_CONTENT`): keys like `*.password`, `*secret*`. */
export const REDACTED_VALUE = '******';

export interface ConfigEntry {
  key: string;
  /** As Flink sent it; {@link REDACTED_VALUE} when redacted. */
  value: string;
  /** Flink hid the value: the console never had it. */
  redacted: boolean;
}

export interface ConfigurationView {
  clusterId: string;
  jobId: string | null;
  /** The job's execution config (`/jobs/:id/config`); null without a job. */
  job: {
    name: string | null;
    restartStrategy: string | null;
    parallelism: number | null;
    objectReuse: boolean | null;
    /** The job's user parameters (`ExecutionConfig#getGlobalJobParameters`), by key. */
    userConfig: ConfigEntry[];
  } | null;
  /** The job's checkpoint configuration, flattened (`externalization.enabled`); null without a job, or when it does not checkpoint (404). */
  checkpoints: ConfigEntry[] | null;
  /** The JobManager's effective configuration, by key. */
  jobManager: ConfigEntry[];
  /** The JobManager's JVM (Flink 1.17+); null where the cluster has no such endpoint. */
  environment: { jvmVersion: string | null; arch: string | null; options: string[]; classpath: string[] } | null;
  fetchedAt: number;
  requestCount: number;
}

export interface SubtaskWatermark {
  index: number;
  /** Epoch ms of its current input watermark; null = none yet (Flink's Long.MIN_VALUE) or not reported. */
  watermark: number | null;
  /** The JobManager's clock minus the watermark: how far event time is behind the wall clock. */
  lagMs: number | null;
}

export interface VertexWatermarks {
  subtasks: SubtaskWatermark[];
  /** The subtask that holds the vertex's watermark back (its lowest); null when no subtask has one. */
  low: SubtaskWatermark | null;
  /** Highest minus lowest watermark over the subtasks that have one; null with fewer than 2. */
  spreadMs: number | null;
  /** Subtasks without a watermark: a vertex's watermark is its lowest input's, so these hold it at "none". */
  withoutWatermark: number[];
}

export interface Accumulator {
  name: string;
  type: string;
  /** As the job's accumulator wrote it (`toString`). */
  value: string;
}

export interface VertexAccumulators {
  /** Summed over the subtasks, as Flink merges them. */
  vertex: Accumulator[];
  subtasks: Array<{ index: number; attempt: number; endpoint: string | null; accumulators: Accumulator[] }>;
}

export interface VertexTaskManagerRow {
  taskManagerId: string | null;
  endpoint: string | null;
  status: string;
  startTime: number | null;
  durationMs: number | null;
  /** Subtasks of this vertex on it, by ExecutionState (non-zero only). */
  statusCounts: Record<string, number>;
  recordsIn: number | null;
  recordsOut: number | null;
  bytesIn: number | null;
  bytesOut: number | null;
}

/** One stretch of a subtask in one ExecutionState; `end` null while it is still in it. */
export interface StatePhase {
  state: string;
  start: number;
  end: number | null;
}

export interface SubtaskTimeline {
  index: number;
  endpoint: string | null;
  /** In order of time: CREATED, SCHEDULED, DEPLOYING, INITIALIZING, RUNNING, ... as Flink recorded them. */
  phases: StatePhase[];
}

export interface VertexTimeline {
  subtasks: SubtaskTimeline[];
  /** Earliest and latest instant of the phases: the timeline's axis. */
  from: number | null;
  to: number;
  /** The subtask that reached RUNNING last, and when: what held the (re)start back. null while none runs. */
  lastRunning: { index: number; at: number } | null;
}

export interface VertexInspection {
  clusterId: string;
  jobId: string;
  vertexId: string;
  name: string;
  /** The JobManager's clock at the time of the answer (Flink's `now`): lags are measured against it, not the console's. */
  now: number;
  watermarks: VertexWatermarks;
  accumulators: VertexAccumulators;
  taskManagers: VertexTaskManagerRow[];
  timeline: VertexTimeline;
  fetchedAt: number;
  requestCount: number;
}

/** Memory of one kind in bytes; each null when the process does not report it (a max of -1 = no limit is null). */
export interface MemoryFigure {
  used: number | null;
  committed: number | null;
  max: number | null;
}

export interface ProcessFigures {
  clusterId: string;
  /** "jobmanager" or the TaskManager's id. */
  processId: string;
  kind: 'jobmanager' | 'taskmanager';
  heap: MemoryFigure;
  nonHeap: MemoryFigure;
  metaspace: MemoryFigure;
  direct: MemoryFigure & { buffers: number | null };
  /** Flink's managed memory (TaskManagers only). */
  managed: MemoryFigure;
  /** Network buffers (`Status.Shuffle.Netty.*`, TaskManagers only): segments and bytes. */
  network: { segmentsUsed: number | null; segmentsTotal: number | null; bytesUsed: number | null; bytesTotal: number | null };
  /** Per collector (`G1_Young_Generation`, ...), and `All` where Flink sums them: counts and total time since start. */
  garbageCollectors: Array<{ name: string; count: number; timeMs: number }>;
  /** Time spent in garbage collection per second now (`Status.JVM.GarbageCollector.All.TimeMsPerSecond`, Flink 1.20+). */
  gcTimeMsPerSecond: number | null;
  cpuLoad: number | null;
  threads: number | null;
  /** A TaskManager's memory configuration (framework heap, task heap, managed, network...), bytes by Flink's name. */
  memoryConfiguration: Record<string, number> | null;
  /** What the figures are when they are not a JVM's (the local engine runs in Node.js): null for a real Flink. */
  note: string | null;
  fetchedAt: number;
  requestCount: number;
}
