/**
 * The state service: where a job's state lives, how fast it grows, and the likeliest reason why. Plain JSON, the same
 * for the UI (through the EngineApi), the CLI (`flink-ops state --json`) and the exports.
 *
 * Flink has no per-operator state-size gauge: a subtask's state is known only at its checkpoints (the full size a
 * completed checkpoint reports per subtask, `lastCheckpointFullSize` being the job's proxy), and, where a job turns them
 * on, from RocksDB's native metrics. A figure that could not be known is null, never 0.
 */

export interface StateApi {
  /** Per stateful vertex and subtask: sizes, shares, growth and the one sentence, over the last `windowMs` of the job's checkpoints. */
  jobState(clusterId: string, jobId: string, windowMs: number, options?: StateOptions): Promise<JobState>;
}

/** What the operator may add to what the console reads. */
export interface StateOptions {
  /** The size a subtask's state must not reach (bytes): the projection's target, before anything Flink reports. */
  capacityBytes?: number | null;
  /** How many keys the job holds, when the operator knows (bytes per key without RocksDB's native metrics). */
  keyCount?: number | null;
}

/**
 * The four suspects of the stateful-processing chapter: A a whale key, B keys that never expire (no TTL), C a list of
 * raw events where a counter would do, D a broadcast table duplicated on every subtask; `bounded` = nothing wrong
 * (with the evidence), `unknown` = the figures cannot tell yet.
 */
export type StateSuspect = 'A' | 'B' | 'C' | 'D' | 'bounded' | 'unknown';

export const STATE_SUSPECT_LABEL: Record<StateSuspect, string> = {
  A: 'A whale key',
  B: 'Keys that never expire (no TTL)',
  C: 'Raw events kept where a counter would do',
  D: 'A broadcast table on every subtask',
  bounded: 'Bounded',
  unknown: 'Not known yet',
};

/** How a series of sizes moves over a window. */
export type StateTrend = 'growing' | 'plateauing' | 'flat' | 'shrinking' | 'unknown';

/** One point of the State chart: a completed checkpoint's full sizes. */
export interface StatePoint {
  checkpointId: number;
  /** The checkpoint's trigger time (epoch ms). */
  t: number;
  /** The vertex's full state in the checkpoint; null = not reported. */
  totalBytes: number | null;
  /** Per subtask (index = subtask), the full state; null where not reported or not stored. */
  subtaskBytes: Array<number | null> | null;
}

export interface StateSubtaskView {
  index: number;
  /** Full state in the newest checkpoint that reported it (bytes). */
  stateBytes: number | null;
  /** What that checkpoint wrote for the subtask (the incremental size; equal to the full size without incremental checkpoints). */
  checkpointedBytes: number | null;
  /** Its part of the vertex's state (0..1). */
  share: number | null;
  /** Least-squares slope over the window (bytes per hour), since the last restore or rescale inside it. */
  growthPerHour: number | null;
  /** Over the whole history kept: each stretch between restores and rescales weighted by its length (bytes per hour). */
  historyGrowthPerHour: number | null;
  trend: StateTrend;
  /** The key groups it owns (inclusive), for a keyed vertex whose max parallelism is known. */
  keyGroups: { start: number; end: number } | null;
}

export interface StateVertexView {
  vertexId: string;
  name: string;
  parallelism: number;
  maxParallelism: number | null;
  /** Reads a keyed (hash-partitioned) input. */
  keyed: boolean;
  /** Reads a broadcast input (a `BroadcastProcessFunction`'s broadcast side). */
  broadcastInput: boolean;
  totalBytes: number | null;
  growthPerHour: number | null;
  historyGrowthPerHour: number | null;
  trend: StateTrend;
  /** Flink's data-skew figure (mean absolute deviation over the mean, × 100) of the subtasks' state. */
  stateSkewPercent: number | null;
  /** Subtasks far above their siblings, largest first. */
  hotSubtasks: number[];
  /** Total bytes over the keys RocksDB (or the operator) counts; null when no key count is known. */
  bytesPerKey: number | null;
  keyCount: number | null;
  keyCountSource: 'rocksdb' | 'operator' | null;
  subtasks: StateSubtaskView[];
  /** Completed checkpoints of the window, oldest first. */
  series: StatePoint[];
}

/** "At +2.1 GiB/h the largest subtask reaches X in N days." */
export interface StateProjection {
  vertexId: string;
  subtask: number;
  currentBytes: number;
  growthPerHour: number;
  /** The size it is projected to reach; null when no limit is known. */
  targetBytes: number | null;
  /** What the target is: set by the operator, or the TaskManager's managed memory / disk as Flink reports it. */
  targetSource: string | null;
  /** How long until it gets there; null without a target. */
  reachInMs: number | null;
  sentence: string;
}

/** RocksDB's native metrics (`state.backend.rocksdb.metrics.*`), when the job turns them on. */
export interface RocksDbState {
  /** on: at least one native metric is reported; off: none of the state's subtasks reports one; unknown: not asked. */
  status: 'on' | 'off' | 'unknown';
  /** Per vertex, the sums over its subtasks (bytes; keys); null = that metric is not on. */
  vertices: Array<{
    vertexId: string;
    estimateLiveDataSize: number | null;
    totalSstFilesSize: number | null;
    estimateNumKeys: number | null;
    blockCacheUsage: number | null;
  }>;
  sentence: string;
}

export interface JobState {
  schemaVersion: 1;
  clusterId: string;
  jobId: string;
  jobName: string | null;
  window: { requestedMs: number; from: number | null; to: number | null; checkpoints: number };
  suspect: StateSuspect;
  /** The vertex the sentence is about, when it names one. */
  vertexId: string | null;
  /** The one sentence: the likeliest suspect with its evidence, or that nothing is wrong with the evidence. */
  sentence: string;
  confidence: { level: 'high' | 'medium' | 'low'; reasons: string[] };
  /** The other suspects the figures point at, in a sentence each. */
  alsoSeen: string[];
  projection: StateProjection | null;
  vertices: StateVertexView[];
  rocksdb: RocksDbState;
  /** What the figures cannot say, and why. */
  notKnown: string[];
}
