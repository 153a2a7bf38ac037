import type { JobGraph, VertexView } from '../contracts/jobs.ts';
import { placementHolds, type SubtaskPlacement } from './subtask-placement.ts';

/**
 * What one background sample of a watched job reads, decided from what it read before: the frugal sampler's budget.
 *
 * Every interval: Flink's figures of each vertex over its subtasks, one request per vertex (the requests the job
 * page's graph makes) — the page's own graph when it fetched one within the interval, so a page open costs the
 * sampler nothing for them. They give the charts a point per interval and show when something moves.
 *
 * A vertex's per-subtask reading (the window analyses' input: exact counters, attempts, watermarks) every
 * `SUBTASK_READING_MS`, or at once when the aggregates move (`movedVertices`). A vertex narrow enough has it from the
 * graph itself: that refresh asks its figures per subtask instead of its aggregates (one request either way, see
 * subtask-figures.ts), so the reading costs no request of its own; its vertex details are read only to learn where
 * its subtasks run (see subtask-placement.ts). A wider vertex is read from its details and watermarks. Per-subtask
 * means are exact over the subtasks' own clocks between any two readings, so their cadence costs no precision, only
 * resolution; a window that does not start on a reading reaches back to the one before it (see read-window.ts), so a
 * verdict's 30 s of evidence are there in any window of 30 s or more. Checkpoint statistics every `CHECKPOINTS_MS`
 * (or when the job moves), one settled checkpoint's details every `CHECKPOINT_DETAILS_MS` at most.
 *
 * A very large job's readings are spread over samples in turns (oldest reading first), within a request and a byte
 * budget per sample: 200 vertices × 4,096 subtasks never read hundreds of MB at once.
 */

/**
 * Per-subtask readings of a vertex this often when nothing moves: every other interval. A window's per-subtask figures
 * run from the reading before it to its last (see read-window.ts), so the cadence is how far they may reach before the
 * window asked: at 20 s a 60 s window's means cover at most 80 s, and Flink's own figures over the window agree with
 * them (e2e/prometheus: within 50 ms/s per subtask; once a minute they did not, the older minute weighed in).
 */
export const SUBTASK_READING_MS = 20_000;
/** A reading triggered by moving aggregates comes at most this often per vertex: a flapping level is read once an interval at most. */
export const MOVED_READING_GAP_MS = 10_000;
/** `/jobs/:id/checkpoints` (6.5 KiB on a small job, growing with its history) this often, or when the job moves. */
export const CHECKPOINTS_MS = 60_000;
/**
 * One settled checkpoint's details (1 + V requests: per-subtask state sizes) this often at most; the newest settled one
 * is taken. State grows over minutes and hours; a page that opens a checkpoint or the State view reads its details
 * at once.
 */
export const CHECKPOINT_DETAILS_MS = 300_000;
/** Per-subtask requests (vertex details + watermarks) per sample at most: 25 vertices. */
export const MAX_READING_REQUESTS = 50;
/** Estimated response bytes of per-subtask readings per sample at most (a 4,096-subtask vertex reads ~1.5 MB). */
export const MAX_READING_BYTES = 32 * 1024 * 1024;
/** Bytes one subtask costs in the vertex details and watermarks, until a reading says (Flink 2.x: ~300–400 B). */
export const DEFAULT_BYTES_PER_SUBTASK = 400;
/** Busy max of a vertex moving this much (ms/s) between two intervals is "marked": its subtasks are read at once. */
export const MARKED_BUSY_CHANGE_MS = 250;

/** Vertex states whose subtasks are worth reading (the others have no running subtasks). */
export const READABLE_VERTEX_STATES = new Set(['RUNNING', 'FINISHED', 'CANCELING', 'FAILING', 'RESTARTING']);

/** What the sampler remembers of one watch between samples. */
export interface SamplingMemory {
  /** Per vertex, when its subtasks were last read. */
  readAt: Map<string, number>;
  /** Response bytes per subtask of the last readings. */
  bytesPerSubtask: number;
  checkpointsAt: number | undefined;
  checkpointDetailsAt: number | undefined;
  /** The aggregates the last sample saw, what the next one compares with. */
  graph: JobGraph | undefined;
  /** Vertices whose aggregates moved but whose reading waits for `MOVED_READING_GAP_MS`. */
  moved: Set<string>;
  /** Per vertex, where its subtasks run and their attempts (see subtask-placement.ts), while it holds. */
  placements: Map<string, SubtaskPlacement>;
}

export function newSamplingMemory(): SamplingMemory {
  return {
    readAt: new Map(),
    bytesPerSubtask: DEFAULT_BYTES_PER_SUBTASK,
    checkpointsAt: undefined,
    checkpointDetailsAt: undefined,
    graph: undefined,
    moved: new Set(),
    placements: new Map(),
  };
}

export interface SamplePlan {
  /** Vertices whose subtasks this sample reads with requests of its own, in order. */
  read: string[];
  /** Vertices read at no cost: the graph this sample uses read their figures per subtask. */
  fromGraph: string[];
  /** Vertices due (or moved) but left for a later sample by the budget. */
  deferred: number;
  /** Why the readings happen now, in words (for the sample's record and the tests). */
  why: string[];
  /** Vertices whose aggregates moved, still to be read (what `SamplingMemory.moved` becomes). */
  moved: string[];
  /** Read `/checkpoints` this sample. */
  checkpoints: boolean;
  /** Settled checkpoints whose details this sample may fetch. */
  checkpointDetails: number;
}

/**
 * Pure: what this sample reads, given the job as the aggregates show it now (`graph`), what was read before, the time
 * and the sampling interval (a reading falls on the sample nearest its due time, never half an interval late).
 * `readByGraph`: vertices the graph already read per subtask (a page's refresh, or the sampler's own graph): taken as
 * this sample's readings, whether due or not, at no cost.
 */
export function planSample(memory: SamplingMemory, graph: JobGraph, now: number, intervalMs: number, readByGraph: ReadonlySet<string> = new Set()): SamplePlan {
  const why: string[] = [];
  const { wanted, pending, moved } = dueReadings(memory, graph, now, intervalMs);
  if (moved.job) why.push(moved.job);
  for (const v of wanted) if (moved.vertices.has(v.id)) why.push(moved.vertices.get(v.id)!);
  const fromGraph = graph.vertices.filter((v) => readByGraph.has(v.id)).map((v) => v.id);
  const toRequest = wanted.filter((v) => !readByGraph.has(v.id));
  const read: string[] = [];
  let requests = 0;
  let bytes = 0;
  for (const v of toRequest) {
    const cost = v.parallelism * memory.bytesPerSubtask;
    if (read.length > 0 && (requests + 2 > MAX_READING_REQUESTS || bytes + cost > MAX_READING_BYTES)) break;
    read.push(v.id);
    requests += 2;
    bytes += cost;
  }
  const readable = new Set(graph.vertices.filter((v) => READABLE_VERTEX_STATES.has(v.status)).map((v) => v.id));
  const jobMoved = moved.job !== undefined;
  const checkpointsDue = memory.checkpointsAt === undefined || jobMoved || now - memory.checkpointsAt + intervalMs / 2 >= CHECKPOINTS_MS;
  const detailsDue = memory.checkpointDetailsAt === undefined || now - memory.checkpointDetailsAt + intervalMs / 2 >= CHECKPOINT_DETAILS_MS;
  return {
    read,
    fromGraph,
    deferred: toRequest.length - read.length,
    why,
    // Moved vertices not read this time are read as soon as their gap allows.
    moved: [...pending].filter((id) => !read.includes(id) && !readByGraph.has(id) && readable.has(id)),
    checkpoints: checkpointsDue,
    checkpointDetails: checkpointsDue && detailsDue ? 1 : 0,
  };
}

/**
 * Pure: the vertices whose per-subtask reading is due now and can be taken from their figures, their placement
 * known and holding (see subtask-placement.ts): what a refresh of the job's graph should read per subtask.
 */
export function dueForFigures(memory: SamplingMemory, graph: JobGraph, now: number, intervalMs: number): Set<string> {
  const due = new Set<string>();
  for (const v of dueReadings(memory, graph, now, intervalMs).wanted) {
    const placement = memory.placements.get(v.id);
    if (placement && placementHolds(placement, v)) due.add(v.id);
  }
  return due;
}

/** The readable vertices due for a reading (never read, moved and past their gap, or at their cadence), oldest first. */
function dueReadings(memory: SamplingMemory, graph: JobGraph, now: number, intervalMs: number) {
  const moved = movedVertices(memory.graph, graph);
  const jobMoved = moved.job !== undefined;
  const due = (id: string, everyMs: number) => {
    const at = memory.readAt.get(id);
    return at === undefined || now - at + intervalMs / 2 >= everyMs;
  };
  const readable = graph.vertices.filter((v) => READABLE_VERTEX_STATES.has(v.status));
  const pending = new Set([...memory.moved, ...moved.vertices.keys(), ...(jobMoved ? readable.map((v) => v.id) : [])]);
  const wanted = readable.filter((v) => {
    if (memory.readAt.get(v.id) === undefined) return true;
    if (pending.has(v.id) && due(v.id, MOVED_READING_GAP_MS)) return true;
    return due(v.id, SUBTASK_READING_MS);
  });
  // Oldest reading first (never read before all): the turns of a job too large for one sample.
  wanted.sort((a, b) => (memory.readAt.get(a.id) ?? -Infinity) - (memory.readAt.get(b.id) ?? -Infinity));
  return { wanted, pending, moved };
}

/**
 * Pure: what moved between two looks at a job's aggregates that per-subtask figures should see at once — the job's
 * state or start time (a JobManager failover), its vertices, a vertex's status, task counts or parallelism (a
 * restart, a rescale), its backpressure level, or its busy max by `MARKED_BUSY_CHANGE_MS` or more.
 */
export function movedVertices(before: JobGraph | undefined, now: JobGraph): { job: string | undefined; vertices: Map<string, string> } {
  const vertices = new Map<string, string>();
  if (!before) return { job: undefined, vertices };
  let job: string | undefined;
  if (before.state !== now.state) job = `the job went from ${before.state} to ${now.state}`;
  else if (before.startTime !== now.startTime) job = 'the JobManager recovered the job';
  else if (before.vertices.length !== now.vertices.length) job = 'the job has other vertices';
  const earlier = new Map(before.vertices.map((v) => [v.id, v]));
  for (const v of now.vertices) {
    const then = earlier.get(v.id);
    if (!then) continue;
    const reason = vertexMoved(then, v);
    if (reason) vertices.set(v.id, `${v.name}: ${reason}`);
  }
  return { job, vertices };
}

function vertexMoved(then: VertexView, now: VertexView): string | undefined {
  if (then.status !== now.status) return `${then.status} → ${now.status}`;
  if (then.parallelism !== now.parallelism) return `parallelism ${then.parallelism} → ${now.parallelism}`;
  if (!sameTasks(then.tasks, now.tasks)) return 'its task counts changed';
  if (then.startTime !== now.startTime) return 'its subtasks were deployed again';
  if (then.backpressureLevel !== null && now.backpressureLevel !== null && then.backpressureLevel !== now.backpressureLevel) {
    return `backpressure ${then.backpressureLevel} → ${now.backpressureLevel}`;
  }
  const a = then.busyTimeMsPerSecond?.max;
  const b = now.busyTimeMsPerSecond?.max;
  if (a !== undefined && b !== undefined && Math.abs(a - b) >= MARKED_BUSY_CHANGE_MS) return `busy max ${Math.round(a)} → ${Math.round(b)} ms/s`;
  return undefined;
}

function sameTasks(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if ((a[k] ?? 0) !== (b[k] ?? 0)) return false;
  return true;
}
