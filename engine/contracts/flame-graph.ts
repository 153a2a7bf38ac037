/**
 * A vertex's (or one subtask's) flame graph as Flink samples it (`GET /jobs/:id/vertices/:id/flamegraph`, Flink's
 * thread-info sampling behind `rest.flamegraph.enabled`): frames as Flink names them (`class.method:line`), values in
 * samples. Plain JSON, the same for the UI and `flink-ops flamegraph --json`.
 */

/** Flink's three kinds: every thread state, RUNNABLE/NEW only, or TIMED_WAITING/WAITING/BLOCKED only. */
export type FlameGraphType = 'full' | 'on-cpu' | 'off-cpu';

export const FLAME_GRAPH_TYPES: readonly FlameGraphType[] = ['full', 'on-cpu', 'off-cpu'];

export interface FlameNode {
  name: string;
  /** Samples in which this frame was on the stack (its children's included). */
  value: number;
  children: FlameNode[];
}

/** A frame by its own time: the samples in which it was the top of the stack, wherever it was called from. */
export interface HotFrame {
  name: string;
  selfSamples: number;
  /** Of all samples. */
  selfShare: number;
  /** Samples with the frame anywhere on the stack (counted once per stack). */
  totalSamples: number;
}

/**
 * `ready`: a graph; `disabled`: the cluster runs without `rest.flamegraph.enabled`; `waiting`: Flink is still taking
 * its first samples; `terminated`: the vertex or subtask is no longer running.
 */
export type FlameGraphStatus = 'ready' | 'disabled' | 'waiting' | 'terminated';

export interface FlameGraphView {
  clusterId: string;
  jobId: string;
  vertexId: string;
  /** The subtask sampled alone; null for the whole vertex. */
  subtask: number | null;
  type: FlameGraphType;
  status: FlameGraphStatus;
  /** What the graph is, or why there is none and what to do, in one sentence. */
  sentence: string;
  /** When Flink's sample ended (its clock); null without a graph. */
  sampledAt: number | null;
  root: FlameNode | null;
  samples: number;
  /** The frames with the most own time, most first (at most 20). */
  hotFrames: HotFrame[];
  /** Frames past the console's limits (depth, count) were left out: their samples count as their caller's own time. */
  truncated: boolean;
  fetchedAt: number;
  requestCount: number;
}
