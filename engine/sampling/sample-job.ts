import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { emptySubtaskColumns, stateCode, type JobSample, type TaskManagerRef, type VertexSample } from '../history/job-sample.ts';
import { withRates } from './sample-rates.ts';

type JobDetails = ResponseOf<typeof endpoints.jobDetails>;
type VertexDetails = ResponseOf<typeof endpoints.vertexDetails>;
type Watermarks = ResponseOf<typeof endpoints.vertexWatermarks>;
type Checkpoints = ResponseOf<typeof endpoints.jobCheckpoints>;

/** Long.MIN_VALUE: Flink's "no watermark yet". */
const NO_WATERMARK = -9223372036854775808;

const BACKGROUND = { priority: 'background' } as const;

/** Job states in which the vertices still have running subtasks worth asking about. */
const SAMPLED_VERTEX_STATES = new Set(['RUNNING', 'FINISHED', 'CANCELING', 'FAILING', 'RESTARTING']);

/**
 * One sample of a job, whatever its parallelism, in at most 2V + 2 requests:
 * `GET /jobs/:jobid` (vertices, states, plan), per vertex its details (per-subtask counters and accumulated
 * busy / back-pressured / idle time) and its watermarks, and `GET /jobs/:jobid/checkpoints`.
 * The accumulated times make rates exact over any interval, however the JobManager's metric refreshes fall.
 *
 * A vertex whose requests fail is kept with `subtasks: null` and the reason; only the job details are essential.
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
  const [vertices, checkpoints] = await Promise.all([
    Promise.all(details.vertices.map((v) => fetchVertex(client, jobId, v))),
    client.request(endpoints.jobCheckpoints, { jobid: jobId }, undefined, BACKGROUND).catch(() => undefined),
  ]);
  const sample = toJobSample(clusterId, details, vertices, checkpoints, t);
  sample.requests = client.stats.requests - requestsBefore;
  sample.bytes = client.stats.bytes - bytesBefore;
  return { sample: withRates(previous, sample), checkpoints };
}

export type FetchedVertex = { details: VertexDetails; watermarks: Watermarks } | { unavailable: string };

async function fetchVertex(client: FlinkRestClient, jobId: string, vertex: JobDetails['vertices'][number]): Promise<FetchedVertex> {
  if (!SAMPLED_VERTEX_STATES.has(vertex.status)) return { unavailable: `the vertex is ${vertex.status}` };
  const params = { jobid: jobId, vertexid: vertex.id };
  try {
    const [details, watermarks] = await Promise.all([
      client.request(endpoints.vertexDetails, params, undefined, BACKGROUND),
      client.request(endpoints.vertexWatermarks, params, undefined, BACKGROUND).catch(() => [] as Watermarks),
    ]);
    return { details, watermarks };
  } catch (error) {
    const reason = error instanceof EngineError ? error.info.message : String(error);
    return { unavailable: reason };
  }
}

/** Pure: the responses of one sample → the sample (rates not yet computed: see `withRates`). */
export function toJobSample(
  clusterId: string,
  details: JobDetails,
  fetched: FetchedVertex[],
  checkpoints: Checkpoints | undefined,
  t: number,
): JobSample {
  const taskManagers: TaskManagerRef[] = [];
  const taskManagerIndex = new Map<string, number>();
  const indexOfTaskManager = (id: string | undefined, endpoint: string | null): number => {
    const key = id ?? endpoint;
    if (!key) return -1;
    let index = taskManagerIndex.get(key);
    if (index === undefined) {
      index = taskManagers.push({ id: key, endpoint }) - 1;
      taskManagerIndex.set(key, index);
    }
    return index;
  };

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
    const columns = emptySubtaskColumns(vertex.parallelism);
    for (const subtask of got.details.subtasks) {
      const k = subtask.subtask;
      if (k < 0 || k >= vertex.parallelism) continue;
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
    for (const metric of got.watermarks) {
      const k = Number(metric.id.split('.')[0]);
      const value = Number(metric.value);
      if (Number.isInteger(k) && k >= 0 && k < vertex.parallelism && Number.isFinite(value) && value > NO_WATERMARK) columns.watermark[k] = value;
    }
    return { ...base, subtasks: columns };
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
