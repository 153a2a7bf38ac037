import { flameGraphStatus, hotFrames, toFlameTree } from '../analysis/flame-graph.ts';
import type { FlameGraphStatus, FlameGraphType, FlameGraphView } from '../contracts/flame-graph.ts';
import type { FlinkRestClient, TrafficStats } from '../flink-rest/client.ts';
import type { ResponseOf } from '../flink-rest/endpoints.ts';
import { viewEndpoints } from '../flink-rest/view-endpoints.ts';
import { REAL_CLOCK, type OperationClock } from '../operations/driver-context.ts';

type FlinkFlameGraph = ResponseOf<typeof viewEndpoints.vertexFlameGraph>;

/**
 * Flink samples a vertex's threads when its flame graph is first asked for (`rest.flamegraph.num-samples` 100, 50 ms
 * apart: about 5 s) and answers "waiting" meanwhile: asked again this often, up to `FLAME_GRAPH_WAIT_MS`.
 */
const POLL_MS = 1_000;
export const FLAME_GRAPH_WAIT_MS = 20_000;

/** Flink's query values (`FlameGraphTypeQueryParameter`: the enum name, lower case). */
const FLINK_TYPE: Record<FlameGraphType, string> = { full: 'full', 'on-cpu': 'on_cpu', 'off-cpu': 'off_cpu' };

export interface FlameGraphRequest {
  type: FlameGraphType;
  subtask: number | null;
  /** How long to wait for Flink's first samples. @default FLAME_GRAPH_WAIT_MS */
  waitMs?: number;
  clock?: OperationClock;
}

/** A vertex's or a subtask's flame graph, asking again while Flink takes its samples (one request each second). */
export async function fetchFlameGraph(client: FlinkRestClient, clusterId: string, jobId: string, vertexId: string, request: FlameGraphRequest): Promise<FlameGraphView> {
  const clock = request.clock ?? REAL_CLOCK;
  const tally: TrafficStats = { requests: 0, bytes: 0 };
  const query: Record<string, string> = { type: FLINK_TYPE[request.type], ...(request.subtask === null ? {} : { subtaskindex: String(request.subtask) }) };
  const giveUpAt = clock.now() + (request.waitMs ?? FLAME_GRAPH_WAIT_MS);
  for (;;) {
    const answer = await client.request(viewEndpoints.vertexFlameGraph, { jobid: jobId, vertexid: vertexId }, query, { tally });
    const status = flameGraphStatus(answer.endTimestamp, answer.data !== undefined && answer.data !== null);
    if (status !== 'waiting' || clock.now() + POLL_MS > giveUpAt) {
      return { ...toFlameGraphView(clusterId, jobId, vertexId, request, answer, status), fetchedAt: clock.now(), requestCount: tally.requests };
    }
    await clock.sleep(POLL_MS);
  }
}

/** Pure: Flink's answer → the view, with the sentence that says what it is or why there is none. */
export function toFlameGraphView(
  clusterId: string,
  jobId: string,
  vertexId: string,
  request: Pick<FlameGraphRequest, 'type' | 'subtask'>,
  answer: FlinkFlameGraph,
  status: FlameGraphStatus,
): Omit<FlameGraphView, 'fetchedAt' | 'requestCount'> {
  const base = { clusterId, jobId, vertexId, subtask: request.subtask, type: request.type, status };
  const what = request.subtask === null ? "the vertex's subtasks" : `subtask ${request.subtask}`;
  if (status !== 'ready') return { ...base, sentence: NOT_READY[status](what, request.subtask !== null), sampledAt: null, root: null, samples: 0, hotFrames: [], truncated: false };
  const { root, truncated } = toFlameTree(answer.data);
  const samples = root?.value ?? 0;
  const hot = root ? hotFrames(root) : [];
  const top = hot[0];
  const sentence =
    samples === 0 || !top
      ? `Flink sampled ${what} but caught no thread ${request.type === 'off-cpu' ? 'waiting' : request.type === 'on-cpu' ? 'running' : 'at all'}.`
      : `${samples} ${KIND[request.type]} samples of ${what}; most own time in ${top.name} (${Math.round(top.selfShare * 100)}%).`;
  return { ...base, sentence, sampledAt: answer.endTimestamp, root, samples, hotFrames: hot, truncated };
}

const KIND: Record<FlameGraphType, string> = { full: 'thread', 'on-cpu': 'on-CPU', 'off-cpu': 'off-CPU' };

const NOT_READY: Record<Exclude<FlameGraphStatus, 'ready'>, (what: string, one: boolean) => string> = {
  disabled: () =>
    'Flame graphs are off on this cluster: set rest.flamegraph.enabled: true in the JobManager\'s configuration (config.yaml, flink-conf.yaml before 1.19) and restart the JobManager.',
  waiting: (what) => `Flink is still sampling ${what} (about 5 s after the first request): ask again in a moment.`,
  terminated: (what, one) => `No flame graph: ${what} no longer ${one ? 'runs' : 'run'}.`,
};
