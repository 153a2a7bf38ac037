import type { LoadFigures } from './rescale.ts';

/**
 * The rehearsal service: before touching production, the local engine replays a job's observed traffic mix (its keyed
 * vertex's load per key group, the hot key's share, the rate the job's input brings) at its virtual clock, first on the
 * job's current shape (the baseline), then on the proposal (salting with N buckets, or a new parallelism). The baseline
 * must reproduce production's hot subtask and busy max/mean before the proposal counts as a prediction. Plain JSON, the
 * same for the UI and `flink-ops rehearse --json`.
 */

export interface RehearsalApi {
  rehearse(clusterId: string, jobId: string, options: RehearsalOptions): Promise<Rehearsal>;
  /** Stops the job's running rehearsal (its `rehearse` call rejects, kind `cancelled`); false when none runs. */
  cancel(clusterId: string, jobId: string): Promise<boolean>;
}

export interface RehearsalOptions {
  /** The hot key (a String key, as the job's KeySelector returns it); without it the hottest key group stands for it. */
  key?: string;
  /** The keyed vertex (id or name); default: the vertex of the diagnosis' skew finding. */
  vertexId?: string;
  /** The proposal: the salted two-stage job with this many buckets (2..1024) ... */
  salt?: number;
  /** ... or the keyed vertex at this parallelism (1..max parallelism). Exactly one of the two. */
  parallelism?: number;
  /**
   * Keys with their share of all records (0..1, summing to at most 1), e.g. from a Kafka hot-key sample: they keep
   * their own key groups in the twin and take their share of the demand; the rest of each subtask's load is spread over
   * its key groups.
   */
  keyShares?: Array<{ key: string; share: number }>;
  /** Records/s the job's input brings to the keyed vertex (its demand), when measured elsewhere (producers, Kafka). */
  inputRecordsPerSecond?: number;
  /** Simulated seconds measured per run, after the warm-up. @default 60, at most REHEARSAL_LIMITS.maxMeasuredSeconds */
  measuredSeconds?: number;
}

/** The bounds every rehearsal runs within (documented in the README); a rehearsal that would exceed them is refused or stopped. */
export interface RehearsalLimits {
  /** Simulated seconds before measuring (buffers fill, back-pressure settles). */
  warmUpSeconds: number;
  maxMeasuredSeconds: number;
  /** Wall-clock ms for the whole rehearsal (both runs). */
  maxWallMs: number;
  /** Heap growth (bytes) the runs may cause. */
  maxHeapGrowthBytes: number;
  /** Subtasks of the keyed vertex in a twin. */
  maxParallelism: number;
  /** Key groups (max parallelism) a twin replays. */
  maxKeyGroups: number;
  /** Records/s into the keyed vertex a twin generates: a busier job is replayed scaled down to it (rates and capacity alike). */
  maxRecordsPerSecond: number;
}

/** Where the demand (records/s the input brings) came from. */
export type DemandBasis =
  /** `inputRecordsPerSecond` was given. */
  | 'given'
  /** From the growth of the keyed vertex's watermark lag: event time advanced at throughput / demand of the clock's pace. */
  | 'watermark-lag'
  /** What the vertex processed: a lower bound when back-pressure holds the input back. */
  | 'throughput';

/** A checkpoint's figures: production's latest completed, or the twin's. */
export interface CheckpointFigures {
  durationMs: number;
  stateSizeBytes: number;
}

export interface SubtaskFigures {
  subtask: number;
  recordsInPerSecond: number | null;
  busyTimeMsPerSecond: number | null;
  backPressuredTimeMsPerSecond: number | null;
}

/** Production's figures of the keyed vertex, as the twin is built from them. */
export interface ObservedFigures {
  load: 'history' | 'live';
  from: number;
  to: number;
  samples: number;
  parallelism: number;
  maxParallelism: number;
  subtasks: SubtaskFigures[];
  /** Busy ms/s over the subtasks. */
  busy: LoadFigures;
  /** The busiest subtask. */
  hotSubtask: number;
  /** Records/s through the vertex (the sum over its subtasks). */
  throughputRecordsPerSecond: number;
  demandRecordsPerSecond: number;
  demandBasis: DemandBasis;
  /** The most back-pressured vertex upstream of it, its busiest subtask (ms/s); null when not known. */
  upstreamBackPressuredTimeMsPerSecond: number | null;
  /** The clock minus the vertex's lowest input watermark at the end of the window; null without watermarks. */
  watermarkLagMs: number | null;
  checkpoint: CheckpointFigures | null;
  /** What one subtask sustains (records/s at 1,000 ms/s busy) and a record's cost below it, as the twin charges them. */
  capacityRecordsPerSecond: number;
  costPerRecordMs: number;
}

/** One run of the twin: a shape of the job on the local engine. */
export interface RehearsalRun {
  job: 'gatewaymeter' | 'gatewaymeter-salted';
  /** The keyed vertex's parallelism (stage A's in the salted job). */
  parallelism: number;
  saltBuckets: number | null;
  simulatedMs: number;
  wallMs: number;
  /** Records/s through the keyed vertex (stage A in the salted job). */
  throughputRecordsPerSecond: number;
  subtasks: SubtaskFigures[];
  busy: LoadFigures;
  hotSubtask: number;
  upstreamBackPressuredTimeMsPerSecond: number;
  watermarkLagMs: number | null;
  /** The last completed checkpoint of the run; null when none completed. */
  checkpoint: CheckpointFigures | null;
}

/** Whether the baseline twin is production: the same hot subtask, busy max/mean within the tolerance. */
export interface TwinMatch {
  matches: boolean;
  hotSubtask: { observed: number; twin: number };
  maxOverMean: { observed: number | null; twin: number | null; differencePercent: number | null };
  tolerancePercent: number;
  /** Why it does not match (empty when it does). */
  reasons: string[];
}

/** Where the salted keys of the hot key land at the proposal's parallelism (Flink's KeyGroupRangeAssignment). */
export interface SaltPlacement {
  key: string;
  saltedKeys: Array<{ key: string; keyGroup: number; subtask: number }>;
  distinctSubtasks: number;
  expectedDistinctSubtasks: number;
  /** Subtasks that take more than one salted key. */
  collisions: Array<{ subtask: number; keys: string[] }>;
  sentence: string;
}

export interface Rehearsal {
  clusterId: string;
  jobId: string;
  jobName: string;
  vertexId: string;
  vertexName: string;
  /** The hot key: the one given, else the twin's stand-in for the hottest key group. */
  key: string;
  keyGiven: boolean;
  proposal: { kind: 'salt'; buckets: number } | { kind: 'parallelism'; parallelism: number };
  observed: ObservedFigures;
  baseline: RehearsalRun;
  match: TwinMatch;
  /** The proposal's run; null when the baseline does not match (then there is no prediction). */
  proposed: RehearsalRun | null;
  /** Salting only. */
  placement: SaltPlacement | null;
  /**
   * The twin ran at this share of production's rate (1: at its rate), every subtask's capacity scaled alike: busy is
   * the same, and the rates shown are scaled back.
   */
  twinScale: number;
  /** The verdict in one or two sentences: the prediction, or why the twin does not match. */
  sentence: string;
  notes: string[];
  limits: RehearsalLimits;
}
