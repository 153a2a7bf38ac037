/**
 * A generated streaming job, deterministic from its size: vertices in layers of ten (each reads from one or two of
 * the previous layer), every subtask with plausible figures, and one problem to find. The hot vertex (`tenant-cost`)
 * has one hot subtask (a hot key: busy 1,000 ms/s, forty times the records of its siblings) and back-pressures the
 * vertices that feed it. Benchmark and e2e input only: never a stand-in for a real Flink.
 */
export interface SyntheticJobSpec {
  vertices: number;
  /** Every vertex's parallelism; without it they cycle through 4, 8, 16, 32, 64 (the plan-cost benchmark's job). */
  parallelism?: number;
  /** Epoch ms the job started: its counters are rates × the time since. @default three hours ago */
  startTime?: number;
  /**
   * A few vertices far wider than the rest (the mixed job: 4 × 4,096 beside 196 × 128): the hot vertex and others
   * spread through the graph at this parallelism, the rest at `parallelism`.
   */
  wide?: { vertices: number; parallelism: number };
  /** Every vertex's max parallelism. @default 128, or 32,768 above a parallelism of 128 */
  maxParallelism?: number;
  /** The job's and its vertices' state. @default RUNNING */
  state?: string;
}

export interface SyntheticVertex {
  index: number;
  id: string;
  name: string;
  parallelism: number;
  maxParallelism: number;
  /** Indexes of the vertices it reads from. */
  inputs: number[];
}

/** One subtask's instantaneous figures: what Flink's backpressure endpoint and metric rates report. */
export interface SyntheticSubtask {
  busyMsPerSecond: number;
  backPressuredMsPerSecond: number;
  idleMsPerSecond: number;
  recordsInPerSecond: number;
  recordsOutPerSecond: number;
  /** How far its watermark trails the wall clock. */
  watermarkLagMs: number;
}

export const SYNTHETIC_JOB_ID = 'b'.repeat(32);
export const BYTES_PER_RECORD = 120;
/** Slots per generated TaskManager: subtask s runs on TaskManager ⌊s / 4⌋. */
export const SLOTS_PER_TASKMANAGER = 4;

const OPERATORS = ['Filter', 'Map', 'KeyedProcess', 'Window(TumblingEventTimeWindows(10000))', 'Async enrich', 'FlatMap'];

export interface SyntheticJob {
  spec: SyntheticJobSpec;
  jobId: string;
  startTime: number;
  name: string;
  vertices: SyntheticVertex[];
  /** The vertex with the hot key. */
  hotVertex: SyntheticVertex;
  /** Its hot subtask. */
  hotSubtask: number;
  /** The vertices that feed the hot vertex: back-pressured by it. */
  backPressured: ReadonlySet<number>;
  subtask(vertex: SyntheticVertex, index: number): SyntheticSubtask;
}

export function syntheticJob(spec: SyntheticJobSpec): SyntheticJob {
  const hex = (i: number) => i.toString(16).padStart(32, '0');
  // Past the middle of the graph, so that finding it takes more than a glance at the sources.
  const hotIndex = Math.min(spec.vertices - 1, Math.floor(spec.vertices * 0.55));
  const wideEvery = spec.wide ? Math.max(1, Math.floor(spec.vertices / spec.wide.vertices)) : 0;
  const isWide = (i: number) => spec.wide !== undefined && i % wideEvery === hotIndex % wideEvery && Math.floor(i / wideEvery) < spec.wide.vertices;
  const vertices = Array.from({ length: spec.vertices }, (_, i): SyntheticVertex => {
    const parallelism = isWide(i) ? spec.wide!.parallelism : (spec.parallelism ?? [4, 8, 16, 32, 64][i % 5]);
    const inputs = i < 10 ? [] : [i - 10, i - 9 - (i % 3)].filter((j, k, all) => j >= 0 && all.indexOf(j) === k);
    const name =
      i === hotIndex
        ? `tenant-cost -> Sink: Writer ${i}`
        : i < 10
          ? `Source: events-${i} -> parse`
          : `${OPERATORS[i % OPERATORS.length]} ${i}`;
    return { index: i, id: hex(i + 1), name, parallelism, maxParallelism: spec.maxParallelism ?? (parallelism > 128 ? 32768 : 128), inputs };
  });
  const hotVertex = vertices[hotIndex];
  const hotSubtask = Math.floor(hotVertex.parallelism * 0.712);
  const backPressured = new Set(hotVertex.inputs);

  return {
    spec,
    jobId: SYNTHETIC_JOB_ID,
    startTime: spec.startTime ?? Date.now() - 3 * 3600_000,
    name: spec.wide
      ? `synthetic-${spec.vertices - spec.wide.vertices}x${spec.parallelism ?? 'mixed'}+${spec.wide.vertices}x${spec.wide.parallelism}`
      : spec.parallelism ? `synthetic-${spec.vertices}x${spec.parallelism}` : `synthetic-${spec.vertices}`,
    vertices,
    hotVertex,
    hotSubtask,
    backPressured,
    subtask(vertex, index) {
      const jitter = noise(vertex.index, index);
      const base = 120 + noise(vertex.index, -1) * 260;
      const source = vertex.inputs.length === 0;
      if (vertex === hotVertex && index === hotSubtask) {
        return { busyMsPerSecond: 1000, backPressuredMsPerSecond: 0, idleMsPerSecond: 0, recordsInPerSecond: 40_000, recordsOutPerSecond: 36_000, watermarkLagMs: 90_000 };
      }
      const busy = Math.round(vertex === hotVertex ? 380 + jitter * 120 : base * (0.8 + 0.4 * jitter));
      const back = Math.round(backPressured.has(vertex.index) ? 620 + jitter * 120 : jitter * 40);
      const records = Math.round(1000 * (0.8 + 0.4 * jitter));
      return {
        busyMsPerSecond: busy,
        backPressuredMsPerSecond: back,
        idleMsPerSecond: Math.max(0, 1000 - busy - back),
        recordsInPerSecond: source ? 0 : records,
        recordsOutPerSecond: Math.round(records * 0.9),
        watermarkLagMs: 2000 + (index % 50) * 10,
      };
    },
  };
}

/** A deterministic 0..1 value per (vertex, subtask): the figures differ between subtasks, the same every run. */
function noise(vertex: number, subtask: number): number {
  let h = Math.imul(vertex + 0x9e3779b9, 0x85ebca6b) ^ Math.imul(subtask + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x27d4eb2d);
  h ^= h >>> 13;
  return (h >>> 0) / 0xffffffff;
}

/** The TaskManager subtask `index` runs on: its id and data endpoint, as Flink names them. */
export function taskManagerOf(index: number): { id: string; endpoint: string; host: string } {
  const tm = Math.floor(index / SLOTS_PER_TASKMANAGER);
  const host = `10.${Math.floor(tm / 62500) % 256}.${Math.floor(tm / 250) % 250}.${tm % 250}`;
  return { id: `${host}:6122-${tm.toString(16).padStart(6, '0')}`, endpoint: `${host}:41000`, host };
}
