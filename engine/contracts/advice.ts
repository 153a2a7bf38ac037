import type { LoadFigures, VertexRescalePlan } from './rescale.ts';

/**
 * The advice service: for a hot key of a keyed vertex, the two fixes side by side — salting (a two-stage aggregation:
 * the key split into N salted keys, then merged) and a rescale (the existing plan) — from the job's current figures.
 * Plain JSON, the same for the UI and `flink-ops advise --json`.
 */

export interface AdviceApi {
  advise(clusterId: string, jobId: string, options: AdviceOptions): Promise<JobAdvice>;
}

export interface AdviceOptions {
  /** The hot key (a String key, as the job's KeySelector returns it). Required until the console knows one itself. */
  key?: string;
  /** The keyed vertex (id or name); default: the vertex of the diagnosis' skew finding. */
  vertexId?: string;
  /** The salted key's form, with `{key}` and `{i}`. @default '{key}#{i}' */
  format?: string;
  /** The hot key's rate (records/s), when measured elsewhere (a Kafka sample, the source). */
  keyRecordsPerSecond?: number;
  /** Buckets to use instead of the rule's. */
  buckets?: number;
}

/** Records/s one subtask sustains, from the busiest subtask's rate and busy time. */
export interface SubtaskCapacity {
  recordsPerSecond: number;
  subtask: number;
  busyTimeMsPerSecond: number;
  /** The subtask it was read from was busy ≥ 900 ms/s: what it processed is what it can. */
  saturated: boolean;
}

export interface SaltedKey {
  bucket: number;
  key: string;
  keyGroup: number;
  subtask: number;
}

export interface SaltedSubtask {
  subtask: number;
  recordsPerSecond: number;
  busyTimeMsPerSecond: number;
  saltedKeys: string[];
}

/** `salt`: the plan below; `not-needed`: the key fits one subtask; `*-unknown`: the figures cannot size it. */
export type SaltingVerdict = 'salt' | 'not-needed' | 'capacity-unknown' | 'rate-unknown';

export interface SaltingAdvice {
  verdict: SaltingVerdict;
  sentence: string;
  key: string;
  keyGroup: number;
  /** The subtask that owns the key now. */
  subtask: number;
  parallelism: number;
  maxParallelism: number;
  keyRecordsPerSecond: number | null;
  /** The rate is what the key got through a saturated subtask: its demand is higher. */
  keyRateIsLowerBound: boolean;
  capacity: SubtaskCapacity | null;
  /** Each bucket gets at most this share of one subtask's capacity. */
  headroom: number;
  format: string;
  buckets: number | null;
  perBucketRecordsPerSecond: number | null;
  saltedKeys: SaltedKey[];
  /** How many distinct subtasks the salted keys reach, and how many random placement would give on average. */
  distinctSubtasks: number | null;
  expectedDistinctSubtasks: number | null;
  /** Per subtask after the change (busy ms/s). */
  predicted: SaltedSubtask[];
  /** Busy ms/s over the subtasks, now and after. */
  before: LoadFigures;
  after: LoadFigures | null;
  /** Records/s over the subtasks, now and after: the rescale plans' measure, for the comparison. */
  recordsBefore: LoadFigures;
  recordsAfter: LoadFigures | null;
  /** What the other keys' load is multiplied by after the change: > 1 when a saturated key held them down (its demand given). */
  demandScale: number;
  costs: string[];
  notes: string[];
}

export interface RescaleAdvice {
  /** Why a rescale does not split the key. */
  sentence: string;
  /** The existing rescale plan of the vertex at these parallelisms (what it does to every other subtask). */
  plans: VertexRescalePlan[];
}

export interface JobAdvice {
  clusterId: string;
  jobId: string;
  jobName: string;
  vertexId: string;
  vertexName: string;
  /** Where the vertex and the key came from. */
  basis: { vertex: 'option' | 'diagnosis'; key: 'option'; rate: 'option' | 'estimated'; load: 'history' | 'live'; from: number; to: number; samples: number };
  /** The diagnosis' hot subtask of the vertex, if it named one. */
  hotSubtask: number | null;
  salting: SaltingAdvice;
  rescale: RescaleAdvice;
  warnings: string[];
}
