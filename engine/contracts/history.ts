/**
 * The history service: the watched jobs, and what the console recorded of them (checkpoints, metrics over time, the
 * jobs themselves). All of it is read from the console's own store, so it outlives a JobManager failover, an app
 * restart and the job itself.
 */

import type { JobGraph } from './jobs.ts';

export interface HistoryApi {
  /** The jobs sampled in the background into the history store. */
  watches(): Promise<JobWatch[]>;
  /** Pins a job (watched until unpinned or it ends) or unpins it (then watched only while a page shows it). */
  setPinned(clusterId: string, jobId: string, pinned: boolean): Promise<JobWatch | null>;
  /** The job's checkpoints from the history (the newest `limit`, default 60), with Flink's last counts and summary. */
  checkpoints(clusterId: string, jobId: string, limit?: number): Promise<JobCheckpoints>;
  /** One checkpoint's per-vertex and per-subtask details, and the subtasks that stood out. */
  checkpointDetail(clusterId: string, jobId: string, checkpointId: number, triggerTimestamp: number): Promise<CheckpointDetail>;
  /** Busy time and backpressure per vertex over `[to − windowMs, to]` (`to` absent: now). */
  metrics(clusterId: string, jobId: string, windowMs: number, to?: number): Promise<JobMetricsHistory>;
  /**
   * The memory and garbage collection of the JobManager (`processId` "jobmanager") or a TaskManager over
   * `[to − windowMs, to]` (`to` absent: now), as sampled every PROCESS_SAMPLE_INTERVAL_MS while a job of the cluster is watched.
   */
  processMetrics(clusterId: string, processId: string, windowMs: number, to?: number): Promise<ProcessMetricsHistory>;
  /** The jobs of a cluster the console has recorded, newest first, including jobs the cluster no longer knows. */
  recordedJobs(clusterId: string): Promise<RecordedJob[]>;
  /** A recorded job's last sampled graph, or null when there is no recording. */
  recordedJob(clusterId: string, jobId: string): Promise<RecordedJobGraph | null>;
}

/**
 * A job the engine samples into its history in the background: opened recently (kept while a page shows it) or
 * pinned by the operator (kept until unpinned or the job ends). Watches survive a restart of the app.
 */
export interface JobWatch {
  clusterId: string;
  jobId: string;
  jobName: string;
  /** Pinned by the operator: sampled until unpinned or the job ends, whether or not a page shows it. */
  pinned: boolean;
  /** Sampling interval asked for; null = the cluster's metrics fetch interval (never faster than that). */
  intervalMs: number | null;
  createdAt: number;
  /** Last time a page had the job open: unpinned watches end a while after the last page closed. */
  lastOpenedAt: number;
}

/** Something that happened to a job, marked on its charts. */
export interface HistoryMarker {
  t: number;
  /** gap: no samples (until `until`); restart: subtasks on a new attempt; failover: the JobManager recovered the job. */
  kind: 'gap' | 'restart' | 'failover' | 'restored' | 'state' | 'gone' | 'watch' | 'store';
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
  /** CHECKPOINT, SAVEPOINT, SYNC_SAVEPOINT, ... */
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
    /** Engine clock of the sample that read them. */
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
  /** The subtasks that stand out, worst first. */
  subtasks: number[];
  /** Their values (ms, or bytes for `stateBytes`), same order. */
  values: number[];
  /** The highest value among the other subtasks. */
  othersMax: number;
  /** The sentence an operator reads: who, how much, compared with what, and the usual cause. */
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
  /** Of those, how many the console took of the JobManager and how many it read from the cluster's metrics store. */
  samplesFrom: { jobManager: number; prometheus: number };
  /**
   * Which vertices the window's samples read per subtask (what the analyses take), beside Flink's aggregates every
   * sample has: a big job's are read in turns, a budget of vertices a sample.
   */
  readings: SubtaskReadings;
  vertices: VertexMetricSeries[];
  markers: HistoryMarker[];
  /** The whole recording of the job, whatever the window. */
  firstSampleAt: number | null;
  lastSampleAt: number | null;
}

/** What a window's samples read per subtask. */
export interface SubtaskReadings {
  /** Vertices of the newest sample. */
  vertices: number;
  /** Of those, the vertices read per subtask at least once in the window. */
  read: number;
  /** The most vertices one sample read per subtask: below `vertices`, the job is read in turns. */
  mostPerSample: number;
  /** How long before the window's end the least recently read of them was read; null when none was. */
  oldestReadingAgeMs: number | null;
}

/**
 * The JobManager's and TaskManagers' figures are sampled this often (one request per process, and the TaskManagers'
 * list), only while a job of their cluster is watched: a process's memory moves over minutes, and a cluster of 50
 * TaskManagers costs 52 requests a round. On the 2-TaskManager test cluster that is 4 requests a minute: the job page
 * went from 0.12× to 0.15× the requests of Flink's Web UI (issue 23 asks ≤ 0.2×); every 30 s would double it.
 */
export const PROCESS_SAMPLE_INTERVAL_MS = 60_000;

/**
 * One process at one time, as its metrics said (`Status.JVM.Memory.*`, `Status.Flink.Memory.Managed.*`,
 * `Status.Shuffle.Netty.*`, `Status.JVM.GarbageCollector.*`): bytes, segments, counts and ms since the process started;
 * null where it reports none (the JobManager has no managed memory or network buffers) and at a gap.
 */
export interface ProcessMetricPoint {
  t: number;
  heapUsed: number | null;
  heapCommitted: number | null;
  heapMax: number | null;
  nonHeapUsed: number | null;
  directUsed: number | null;
  directMax: number | null;
  managedUsed: number | null;
  managedTotal: number | null;
  networkSegmentsUsed: number | null;
  networkSegmentsTotal: number | null;
  /** Collections of all its collectors since it started (Flink's `All`, else their sum). */
  gcCount: number | null;
  gcTimeMs: number | null;
  cpuLoad: number | null;
  /** Time in garbage collection per second since the sample before (null at the first one, after a gap, or a restart of the process). */
  gcTimeMsPerSecond: number | null;
  /** Collections per minute since the sample before (null as `gcTimeMsPerSecond`). */
  gcPerMinute: number | null;
}

/** A process's memory and GC over a time window, from the history. */
export interface ProcessMetricsHistory {
  clusterId: string;
  processId: string;
  from: number;
  to: number;
  /** How often the console samples the processes (PROCESS_SAMPLE_INTERVAL_MS). */
  cadenceMs: number;
  /** Samples in the window. */
  samples: number;
  /** At a chart's resolution; a point of nulls at each gap. */
  points: ProcessMetricPoint[];
  /** The window's newest sample, as sampled. */
  latest: ProcessMetricPoint | null;
  /** A job of the cluster is watched now, so its processes are being sampled. */
  recording: boolean;
  /** The process's newest sample in the whole history, whatever the window. */
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
