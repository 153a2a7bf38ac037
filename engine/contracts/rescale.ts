/** A rescale's plan (per-subtask load predicted at the new parallelism) and its outcome (measured after). */

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
