import type { JobGraph, VertexView } from '../contracts/jobs.ts';
import type { FlinkRestClient, TrafficStats } from '../flink-rest/client.ts';
import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { emptySubtaskColumns, stateCode, type JobSample, type SubtaskColumns, type TaskManagerRef, type VertexRollup, type VertexSample } from '../history/job-sample.ts';
import { hasRates } from './job-graph.ts';
import { withRates } from './sample-rates.ts';
import { MAX_READING_REQUESTS, READABLE_VERTEX_STATES } from './sampling-plan.ts';
import type { SubtaskFigures } from './subtask-figures.ts';
import { columnsFromFigures, type SubtaskPlacement } from './subtask-placement.ts';

type JobDetails = ResponseOf<typeof endpoints.jobDetails>;
type VertexDetails = ResponseOf<typeof endpoints.vertexDetails>;
type Watermarks = ResponseOf<typeof endpoints.vertexWatermarks>;
type Checkpoints = ResponseOf<typeof endpoints.jobCheckpoints>;

/** Long.MIN_VALUE: Flink's "no watermark yet". */
const NO_WATERMARK = -9223372036854775808;

const BACKGROUND = { priority: 'background' } as const;


/**
 * One full sample of a job, whatever its parallelism, in at most 2V + 2 requests:
 * `GET /jobs/:jobid` (vertices, states, plan), per vertex its details (per-subtask counters and accumulated
 * busy / back-pressured / idle time) and its watermarks, and `GET /jobs/:jobid/checkpoints`.
 * The accumulated times make rates exact over any interval, however the JobManager's metric refreshes fall.
 * (The background watcher samples frugally instead: see `fetchPlannedSample`.)
 *
 * A vertex whose requests fail is kept with `subtasks: null` and the reason; only the job details are essential.
 * The whole sample takes two request deadlines at most: the job details, then everything else under one shared
 * deadline (a vertex not read by then is marked so), not one deadline per request in turn.
 */
export async function sampleJob(
  client: FlinkRestClient,
  clusterId: string,
  jobId: string,
  previous: JobSample | undefined,
  now: () => number = Date.now,
): Promise<JobSample> {
  return (await fetchJobSample(client, clusterId, jobId, previous, now)).sample;
}

/** A sample and the job's `/checkpoints` it read (undefined when checkpointing is off or the request failed). */
export interface FetchedSample {
  sample: JobSample;
  checkpoints: Checkpoints | undefined;
}

/** `sampleJob`, keeping the `/checkpoints` response for the checkpoint history (no second request for it). */
export async function fetchJobSample(
  client: FlinkRestClient,
  clusterId: string,
  jobId: string,
  previous: JobSample | undefined,
  now: () => number = Date.now,
): Promise<FetchedSample> {
  const requestsBefore = client.stats.requests;
  const bytesBefore = client.stats.bytes;
  // The time the sample was asked for: what the cluster answers describes that moment, however long it takes.
  const t = now();
  // Background work: a page's requests to the same cluster go first (see priority-limit.ts).
  const details = await client.request(endpoints.jobDetails, { jobid: jobId }, undefined, BACKGROUND);
  const deadline = sampleDeadline(client, details.vertices.length);
  const taskManagers = taskManagerIndex();
  const [vertices, checkpoints] = await Promise.all([
    Promise.all(
      details.vertices.map((v) =>
        READABLE_VERTEX_STATES.has(v.status) ? fetchVertex(client, jobId, v, deadline, taskManagers.indexOf) : { unavailable: `the vertex is ${v.status}` },
      ),
    ),
    client.request(endpoints.jobCheckpoints, { jobid: jobId }, undefined, { ...BACKGROUND, signal: deadline.signal }).catch(() => undefined),
  ]);
  const sample = toJobSample(clusterId, details, vertices, taskManagers.list, checkpoints, t);
  sample.requests = client.stats.requests - requestsBefore;
  sample.bytes = client.stats.bytes - bytesBefore;
  return { sample: withRates(previous, sample), checkpoints };
}

/**
 * A vertex's reading, already in columns: each response becomes columns as soon as it is parsed, so a sample never
 * holds the parsed bodies of all its vertices at once (4 × 4,096 subtasks would be tens of MB of objects).
 */
export type FetchedVertex = { subtasks: SubtaskColumns } | { unavailable: string };

/** Gives each TaskManager of a sample its index in the sample's `taskManagers` (see `SubtaskColumns.taskManager`). */
export type TaskManagerIndexOf = (id: string | undefined, endpoint: string | null) => number;

/** One deadline shared by a sample's requests after the job's: on a stalling cluster the sample ends with it. */
export interface SampleDeadline {
  signal: AbortSignal;
  ms: number;
  /** Counts the requests made under this deadline, whatever else uses the client meanwhile. */
  tally?: TrafficStats;
}

/**
 * Vertices read per request deadline: a sample reading V vertices has ⌈V / this⌉ deadlines for them, together (the
 * frugal sampler reads at most this many per sample: one deadline; a full sample of a 100-vertex job four, not the
 * 200 / concurrency deadlines of requests waiting their turn one after another).
 */
export const VERTICES_PER_DEADLINE = MAX_READING_REQUESTS / 2;

export function sampleDeadline(client: FlinkRestClient, vertices: number): SampleDeadline {
  const ms = Math.max(1, Math.ceil(vertices / VERTICES_PER_DEADLINE)) * client.timeoutMs;
  return { signal: AbortSignal.timeout(ms), ms };
}

/** A vertex's details and watermarks, as columns (the watermarks are optional: none when they fail). */
export async function fetchVertex(
  client: FlinkRestClient,
  jobId: string,
  vertex: { id: string; parallelism: number },
  deadline: SampleDeadline,
  indexOfTaskManager: TaskManagerIndexOf,
): Promise<FetchedVertex> {
  const params = { jobid: jobId, vertexid: vertex.id };
  const options = { ...BACKGROUND, signal: deadline.signal, tally: deadline.tally };
  try {
    const [details, watermarks] = await Promise.all([
      client.request(endpoints.vertexDetails, params, undefined, options),
      client.request(endpoints.vertexWatermarks, params, undefined, options).catch(() => [] as Watermarks),
    ]);
    return { subtasks: subtaskColumnsOf(vertex.parallelism, details, watermarks, indexOfTaskManager) };
  } catch (error) {
    if (deadline.signal.aborted) return { unavailable: `not read within the sample's deadline (${deadline.ms} ms): the JobManager answers slowly` };
    const reason = error instanceof EngineError ? error.info.message : String(error);
    return { unavailable: reason };
  }
}

/** Pure: the responses of one sample → the sample (rates not yet computed: see `withRates`). */
export function toJobSample(
  clusterId: string,
  details: JobDetails,
  fetched: FetchedVertex[],
  taskManagers: TaskManagerRef[],
  checkpoints: Checkpoints | undefined,
  t: number,
): JobSample {
  const vertices = details.vertices.map((vertex, i): VertexSample => {
    const base = {
      id: vertex.id,
      name: vertex.name,
      parallelism: vertex.parallelism,
      maxParallelism: vertex.maxParallelism ?? details.maxParallelism ?? null,
      status: vertex.status,
    };
    const got = fetched[i];
    if (!got || 'unavailable' in got) return { ...base, subtasks: null, unavailable: got?.unavailable ?? 'not fetched' };
    return { ...base, subtasks: got.subtasks };
  });

  return {
    clusterId,
    jobId: details.jid,
    t,
    jobName: details.name,
    jobState: details.state,
    jobStartTime: details['start-time'],
    vertices,
    edges: (details.plan?.nodes ?? []).flatMap((node) =>
      (node.inputs ?? []).map((input) => ({ source: input.id, target: node.id, shipStrategy: input.ship_strategy ?? 'UNKNOWN' })),
    ),
    taskManagers,
    lastCompletedCheckpointId: checkpoints?.latest?.completed?.id ?? null,
    requests: 0,
    bytes: 0,
  };
}

/** The sample's TaskManagers, indexed as the subtask columns refer to them. */
export function taskManagerIndex(): { list: TaskManagerRef[]; indexOf: TaskManagerIndexOf } {
  const list: TaskManagerRef[] = [];
  const index = new Map<string, number>();
  return {
    list,
    indexOf: (id, endpoint) => {
      const key = id ?? endpoint;
      if (!key) return -1;
      let at = index.get(key);
      if (at === undefined) {
        at = list.push({ id: key, endpoint }) - 1;
        index.set(key, at);
      }
      return at;
    },
  };
}

/** Pure: one vertex's details and watermarks → its subtask columns (rates not yet computed). */
export function subtaskColumnsOf(parallelism: number, details: VertexDetails, watermarks: Watermarks, indexOfTaskManager: TaskManagerIndexOf): SubtaskColumns {
  const columns = emptySubtaskColumns(parallelism);
  for (const subtask of details.subtasks) {
    const k = subtask.subtask;
    if (k < 0 || k >= parallelism) continue;
    const m = subtask.metrics ?? {};
    const set = (column: keyof typeof columns.counters, value: number | undefined) => {
      if (value !== undefined && Number.isFinite(value) && value >= 0) columns.counters[column][k] = value;
    };
    set('recordsIn', m['read-records']);
    set('recordsOut', m['write-records']);
    set('bytesIn', m['read-bytes']);
    set('bytesOut', m['write-bytes']);
    set('accumulatedBusyMs', m['accumulated-busy-time']);
    set('accumulatedBackPressuredMs', m['accumulated-backpressured-time']);
    set('accumulatedIdleMs', m['accumulated-idle-time']);
    columns.attempt[k] = subtask.attempt ?? 0;
    columns.state[k] = stateCode(subtask.status);
    columns.taskManager[k] = indexOfTaskManager(subtask['taskmanager-id'], subtask.endpoint ?? subtask.host ?? null);
  }
  for (const metric of watermarks) {
    const k = Number(metric.id.split('.')[0]);
    const value = Number(metric.value);
    if (Number.isInteger(k) && k >= 0 && k < parallelism && Number.isFinite(value) && value > NO_WATERMARK) columns.watermark[k] = value;
  }
  return columns;
}

/** A vertex read from its subtasks' figures (see subtask-figures.ts), and where its subtasks run. */
export interface FiguresReading {
  figures: SubtaskFigures;
  placement: SubtaskPlacement;
}

/**
 * One frugal sample: the job and its aggregates as `graph` shows them (the job page's own graph, or one the sampler
 * fetched), plus per-subtask readings: of the vertices in `figured`, from the figures per subtask the graph read; of
 * the vertices in `detailed`, from their details and watermarks, under one shared deadline. The other vertices carry
 * Flink's aggregates only (`subtasks: null`, no `unavailable`: not missing, just not read this time). Rates of a
 * vertex read now are over its subtasks' clocks since its previous reading (`readings`). `restarted`: vertices whose
 * figures show a subtask deployed again since then (their placement no longer holds).
 */
export async function fetchPlannedSample(
  client: FlinkRestClient,
  clusterId: string,
  graph: JobGraph,
  reads: { detailed: readonly string[]; figured: ReadonlyMap<string, FiguresReading> },
  readings: JobSample | undefined,
  t: number,
  tally?: TrafficStats,
): Promise<{ sample: JobSample; deadlinePassed: boolean; restarted: string[] }> {
  const deadline = { ...sampleDeadline(client, reads.detailed.length), tally };
  const detailed = new Set(reads.detailed);
  const taskManagers = taskManagerIndex();
  const previous = new Map(readings?.vertices.map((v) => [v.id, v.subtasks]));
  const restarted: string[] = [];
  const fetched = new Map<string, FetchedVertex>();
  await Promise.all(
    graph.vertices.map(async (v) => {
      const reading = reads.figured.get(v.id);
      if (reading) {
        const { columns, restarted: again } = columnsFromFigures(reading.figures, reading.placement, previous.get(v.id), taskManagers.indexOf);
        if (again) restarted.push(v.id);
        fetched.set(v.id, { subtasks: columns });
      } else if (detailed.has(v.id)) {
        fetched.set(v.id, await fetchVertex(client, graph.jobId, v, deadline, taskManagers.indexOf));
      }
    }),
  );
  const sample = withRates(readings, toPlannedSample(clusterId, graph, fetched, taskManagers.list, t));
  return { sample, deadlinePassed: detailed.size > 0 && deadline.signal.aborted, restarted };
}

/** Pure: a graph (job, vertices, aggregates) and the vertices read → the sample (rates not yet computed). */
export function toPlannedSample(clusterId: string, graph: JobGraph, fetched: ReadonlyMap<string, FetchedVertex>, taskManagers: TaskManagerRef[], t: number): JobSample {
  const live = hasRates(graph.state);
  const vertices = graph.vertices.map((vertex): VertexSample => {
    const base = { id: vertex.id, name: vertex.name, parallelism: vertex.parallelism, maxParallelism: vertex.maxParallelism, status: vertex.status };
    const aggregates = live && vertex.metricsUnavailable === undefined && vertex.metricsFetchedAt === undefined ? aggregatesOf(vertex) : undefined;
    const got = fetched.get(vertex.id);
    if (got && !('unavailable' in got)) return { ...base, subtasks: got.subtasks, ...(aggregates ? { aggregates } : {}) };
    if (aggregates) return { ...base, subtasks: null, aggregates, ...(got ? { unavailable: got.unavailable } : {}) };
    const unavailable =
      got?.unavailable ??
      vertex.metricsUnavailable ??
      (vertex.metricsFetchedAt !== undefined
        ? 'its aggregates were read by an earlier sample (a job this large has them read in turns)'
        : live
          ? `the vertex is ${vertex.status}`
          : `the job is ${graph.state}`);
    return { ...base, subtasks: null, unavailable };
  });
  return {
    clusterId,
    jobId: graph.jobId,
    t,
    jobName: graph.name,
    jobState: graph.state,
    jobStartTime: graph.startTime,
    vertices,
    edges: graph.edges,
    taskManagers,
    lastCompletedCheckpointId: null,
    requests: 0,
    bytes: 0,
  };
}

/** Flink's aggregates of a vertex as the graph holds them, in the rollup's terms. */
function aggregatesOf(vertex: VertexView): VertexRollup {
  return {
    busyMax: vertex.busyTimeMsPerSecond?.max ?? null,
    busyAvg: vertex.busyTimeMsPerSecond?.avg ?? null,
    backPressuredMax: vertex.backPressuredTimeMsPerSecond?.max ?? null,
    backPressuredAvg: vertex.backPressuredTimeMsPerSecond?.avg ?? null,
    idleAvg: vertex.idleTimeMsPerSecond?.avg ?? null,
    recordsInPerSecond: vertex.recordsInPerSecond,
    recordsOutPerSecond: vertex.recordsOutPerSecond,
  };
}
