import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  BYTES_PER_RECORD,
  SLOTS_PER_TASKMANAGER,
  syntheticJob,
  taskManagerOf,
  type SyntheticJob,
  type SyntheticJobSpec,
  type SyntheticSubtask,
  type SyntheticVertex,
} from './synthetic-job-model.ts';

export interface SyntheticJobServer {
  url: string;
  jobId: string;
  vertexIds: string[];
  job: SyntheticJob;
  /** Requests answered so far, by kind (`job`, `vertex`, `metrics`, ...): what the console cost this "cluster". */
  requests: Map<string, number>;
  close(): Promise<void>;
}

export interface SyntheticServerOptions {
  /** `metrics.fetcher.update-interval` in /jobmanager/config: the console's refresh floor. @default 10000 */
  metricsFetchIntervalMs?: number;
  /** Serve one completed checkpoint with its details (what the history fetches once per checkpoint). @default false */
  checkpoint?: boolean;
}

/**
 * Serves a generated job (see synthetic-job-model.ts) in Flink's REST shapes: enough of a JobManager for the console
 * to be added as a cluster and show the job's page, graph and subtasks, to measure the console on a job bigger than
 * any test cluster here can run. Benchmark and e2e input only; never a stand-in for a real Flink in tests of Flink.
 *
 * `startSyntheticJobServer(200)` is the plan-cost benchmark's job (parallelism 4 to 64);
 * `startSyntheticJobServer(200, { parallelism: 4096 })` the scale benchmark's.
 */
export async function startSyntheticJobServer(
  vertexCount: number,
  spec: Omit<SyntheticJobSpec, 'vertices'> = {},
  options: SyntheticServerOptions = {},
): Promise<SyntheticJobServer> {
  const job = syntheticJob({ vertices: vertexCount, ...spec });
  const byId = new Map(job.vertices.map((v) => [v.id, v]));
  const requests = new Map<string, number>();
  const taskManagers = Math.ceil(Math.max(...job.vertices.map((v) => v.parallelism)) / SLOTS_PER_TASKMANAGER);
  const fetchInterval = options.metricsFetchIntervalMs ?? 10_000;

  const answer = (pathname: string, query: URLSearchParams, now: number): { kind: string; body: unknown } | null => {
    const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (pathname === '/config') return { kind: 'config', body: { 'refresh-interval': 3000, 'timezone-name': 'UTC', 'timezone-offset': 0, 'flink-version': '2.2.1', 'flink-revision': 'synthetic', features: {} } };
    if (pathname === '/overview') return { kind: 'overview', body: { taskmanagers: taskManagers, 'slots-total': taskManagers * SLOTS_PER_TASKMANAGER, 'slots-available': 0, 'jobs-running': 1, 'jobs-finished': 0, 'jobs-cancelled': 0, 'jobs-failed': 0, 'flink-version': '2.2.1' } };
    if (pathname === '/jobmanager/config') return { kind: 'config', body: [{ key: 'metrics.fetcher.update-interval', value: `${fetchInterval} ms` }] };
    if (pathname === '/jobs/overview') return { kind: 'jobs', body: { jobs: [{ jid: job.jobId, name: job.name, state: 'RUNNING', 'start-time': job.startTime, 'end-time': -1, duration: now - job.startTime, tasks: { running: totalTasks(job), total: totalTasks(job) } }] } };
    if (pathname === '/taskmanagers') return { kind: 'taskmanagers', body: { taskmanagers: Array.from({ length: taskManagers }, (_, t) => ({ id: taskManagerOf(t * SLOTS_PER_TASKMANAGER).id, slotsNumber: SLOTS_PER_TASKMANAGER, freeSlots: 0, dataPort: 41000, timeSinceLastHeartbeat: now - 1000 })) } };
    if (parts[0] === 'taskmanagers' && parts[2] === 'metrics') return { kind: 'taskmanager-metrics', body: (query.get('get') ?? '').split(',').filter(Boolean).map((id) => ({ id, value: id.endsWith('Load') ? '0.42' : '123456789' })) };
    if (parts[0] !== 'jobs' || parts[1] !== job.jobId) return null;
    if (parts.length === 2) return { kind: 'job', body: jobDetails(job, now) };
    if (parts[2] === 'checkpoints') {
      const found = options.checkpoint ? checkpointAnswer(job, parts) : parts.length === 3 ? NO_CHECKPOINTS : null;
      return found ? { kind: 'checkpoints', body: found } : null;
    }
    if (parts[2] === 'exceptions') return { kind: 'exceptions', body: { exceptionHistory: { entries: [], truncated: false } } };
    const vertex = parts[2] === 'vertices' ? byId.get(parts[3] ?? '') : undefined;
    if (!vertex) return null;
    if (parts.length === 4) return { kind: 'vertex', body: vertexDetails(job, vertex, now) };
    if (parts[4] === 'subtasks' && parts[5] === 'metrics') return { kind: 'metrics', body: aggregatedMetrics(job, vertex, query) };
    if (parts[4] === 'backpressure') return { kind: 'backpressure', body: backPressure(job, vertex, now) };
    if (parts[4] === 'watermarks') return { kind: 'watermarks', body: watermarks(job, vertex, now) };
    return null;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://synthetic');
    const found = answer(url.pathname, url.searchParams, Date.now());
    requests.set(found?.kind ?? 'not-found', (requests.get(found?.kind ?? 'not-found') ?? 0) + 1);
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(found ? found.body : { errors: [`Not found: ${url.pathname}`] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    jobId: job.jobId,
    vertexIds: job.vertices.map((v) => v.id),
    job,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const NO_CHECKPOINTS = { counts: { restored: 0, total: 0, in_progress: 0, completed: 0, failed: 0 }, latest: { completed: null, savepoint: null, failed: null }, history: [] };

/** One completed checkpoint (id 1): the summary, its per-vertex details and each vertex's per-subtask details. */
function checkpointAnswer(job: SyntheticJob, parts: string[]): unknown {
  const subtasks = totalTasks(job);
  const checkpoint = {
    className: 'completed', id: 1, status: 'COMPLETED', is_savepoint: false, savepointFormat: null, trigger_timestamp: 1_000, latest_ack_timestamp: 2_000,
    checkpointed_size: 1, state_size: 1, end_to_end_duration: 1_000, alignment_buffered: 0, processed_data: 0, persisted_data: 0,
    num_subtasks: subtasks, num_acknowledged_subtasks: subtasks, checkpoint_type: 'CHECKPOINT', tasks: {}, external_path: 'file:/checkpoints/chk-1', discarded: false,
  };
  const stats = { min: 1000, max: 1000, avg: 1000, p50: 1000, p90: 1000, p95: 1000, p99: 1000, p999: 1000 };
  const vertexFigures = (v: SyntheticVertex) => ({
    id: 1, status: 'COMPLETED', latest_ack_timestamp: 2_000, checkpointed_size: v.parallelism * 4096, state_size: v.parallelism * 4096, end_to_end_duration: 900,
    alignment_buffered: 0, processed_data: 0, persisted_data: 0, num_subtasks: v.parallelism, num_acknowledged_subtasks: v.parallelism,
  });
  if (parts.length === 3) {
    return {
      counts: { restored: 0, total: 1, in_progress: 0, completed: 1, failed: 0 },
      summary: { checkpointed_size: stats, state_size: stats, end_to_end_duration: stats, alignment_buffered: stats, processed_data: stats, persisted_data: stats },
      latest: { completed: checkpoint, savepoint: null, failed: null, restored: null },
      history: [checkpoint],
    };
  }
  if (parts[3] !== 'details' || parts[4] !== '1') return null;
  if (parts.length === 5) return { ...checkpoint, tasks: Object.fromEntries(job.vertices.map((v) => [v.id, vertexFigures(v)])) };
  const vertex = parts[5] === 'subtasks' ? job.vertices.find((v) => v.id === parts[6]) : undefined;
  if (!vertex) return null;
  return {
    ...vertexFigures(vertex),
    subtasks: Array.from({ length: vertex.parallelism }, (_, index) => ({
      className: 'completed', index, ack_timestamp: 1_100 + index, end_to_end_duration: 100 + index, checkpointed_size: 4096, state_size: 4096,
      checkpoint: { sync: 1, async: 3 }, alignment: { buffered: 0, processed: 0, persisted: 0, duration: 0 }, start_delay: 5 + (index % 7),
      unaligned_checkpoint: false, aborted: false, status: 'completed',
    })),
  };
}

function totalTasks(job: SyntheticJob): number {
  return job.vertices.reduce((sum, v) => sum + v.parallelism, 0);
}

function jobDetails(job: SyntheticJob, now: number): unknown {
  const vertices = job.vertices.map((v) => ({
    id: v.id,
    name: v.name,
    parallelism: v.parallelism,
    maxParallelism: v.maxParallelism,
    status: job.spec.state ?? 'RUNNING',
    'start-time': job.startTime,
    'end-time': -1,
    duration: now - job.startTime,
    tasks: { [job.spec.state ?? 'RUNNING']: v.parallelism },
  }));
  const nodes = job.vertices.map((v) => ({
    id: v.id,
    parallelism: v.parallelism,
    operator: '',
    description: v.name,
    ...(v.inputs.length > 0
      ? { inputs: v.inputs.map((j, num) => ({ num, id: job.vertices[j].id, ship_strategy: num ? 'REBALANCE' : 'HASH', exchange: 'pipelined_bounded' })) }
      : {}),
  }));
  return {
    jid: job.jobId,
    name: job.name,
    isStoppable: false,
    state: job.spec.state ?? 'RUNNING',
    'job-type': 'STREAMING',
    'start-time': job.startTime,
    'end-time': -1,
    duration: now - job.startTime,
    maxParallelism: Math.max(...job.vertices.map((v) => v.maxParallelism)),
    now,
    timestamps: { RUNNING: job.startTime },
    vertices,
    'status-counts': { RUNNING: job.vertices.length },
    plan: { jid: job.jobId, name: job.name, type: 'STREAMING', nodes },
  };
}

/** Each subtask of a vertex, computed once per request. */
function subtasksOf(job: SyntheticJob, vertex: SyntheticVertex): SyntheticSubtask[] {
  return Array.from({ length: vertex.parallelism }, (_, s) => job.subtask(vertex, s));
}

function vertexDetails(job: SyntheticJob, vertex: SyntheticVertex, now: number): unknown {
  const seconds = (now - job.startTime) / 1000;
  return {
    id: vertex.id,
    name: vertex.name,
    parallelism: vertex.parallelism,
    maxParallelism: vertex.maxParallelism,
    now,
    subtasks: subtasksOf(job, vertex).map((s, subtask) => {
      const tm = taskManagerOf(subtask);
      const recordsIn = Math.round(s.recordsInPerSecond * seconds);
      const recordsOut = Math.round(s.recordsOutPerSecond * seconds);
      return {
        subtask,
        status: 'RUNNING',
        attempt: 0,
        endpoint: tm.endpoint,
        'start-time': job.startTime,
        'end-time': -1,
        duration: now - job.startTime,
        metrics: {
          'read-bytes': recordsIn * BYTES_PER_RECORD,
          'read-bytes-complete': true,
          'write-bytes': recordsOut * BYTES_PER_RECORD,
          'write-bytes-complete': true,
          'read-records': recordsIn,
          'read-records-complete': true,
          'write-records': recordsOut,
          'write-records-complete': true,
          'accumulated-backpressured-time': Math.round(s.backPressuredMsPerSecond * seconds),
          'accumulated-idle-time': Math.round(s.idleMsPerSecond * seconds),
          'accumulated-busy-time': Math.round(s.busyMsPerSecond * seconds),
        },
        'taskmanager-id': tm.id,
      };
    }),
  };
}

const METRIC_OF: Record<string, (s: SyntheticSubtask) => number> = {
  busyTimeMsPerSecond: (s) => s.busyMsPerSecond,
  backPressuredTimeMsPerSecond: (s) => s.backPressuredMsPerSecond,
  idleTimeMsPerSecond: (s) => s.idleMsPerSecond,
  numRecordsInPerSecond: (s) => s.recordsInPerSecond,
  numRecordsOutPerSecond: (s) => s.recordsOutPerSecond,
};

/** `…/subtasks/metrics?get=…&agg=…`: min, max, avg, sum (and skew, Flink's DoubleDataSkew) over the subtasks. */
function aggregatedMetrics(job: SyntheticJob, vertex: SyntheticVertex, query: URLSearchParams): unknown {
  const subtasks = subtasksOf(job, vertex);
  return (query.get('get') ?? '')
    .split(',')
    .filter((id) => METRIC_OF[id])
    .map((id) => {
      const values = subtasks.map(METRIC_OF[id]);
      const sum = values.reduce((a, b) => a + b, 0);
      const avg = sum / values.length;
      const deviation = values.reduce((a, b) => a + Math.abs(b - avg), 0) / values.length;
      return { id, min: Math.min(...values), max: Math.max(...values), avg, sum, skew: avg === 0 ? 0 : Math.min(100, (deviation / avg) * 100) };
    });
}

function levelOf(ratio: number): 'ok' | 'low' | 'high' {
  return ratio <= 0.1 ? 'ok' : ratio <= 0.5 ? 'low' : 'high';
}

function backPressure(job: SyntheticJob, vertex: SyntheticVertex, now: number): unknown {
  const subtasks = subtasksOf(job, vertex).map((s, subtask) => {
    const ratio = s.backPressuredMsPerSecond / 1000;
    return { subtask, backpressureLevel: levelOf(ratio), ratio, idleRatio: s.idleMsPerSecond / 1000, busyRatio: s.busyMsPerSecond / 1000 };
  });
  const worst = Math.max(...subtasks.map((s) => s.ratio));
  return { status: 'ok', backpressureLevel: levelOf(worst), 'end-timestamp': now, subtasks };
}

function watermarks(job: SyntheticJob, vertex: SyntheticVertex, now: number): unknown {
  return subtasksOf(job, vertex).map((s, subtask) => ({ id: `${subtask}.currentInputWatermark`, value: String(now - s.watermarkLagMs) }));
}

/**
 * `tsx engine/bench/synthetic-job-server.ts VERTICES PARALLELISM [FETCH_INTERVAL_MS [WIDE_VERTICES WIDE_PARALLELISM]]`: serves the job from a process
 * of its own (the scale benchmark runs it at low CPU priority, as a cluster would run on other machines) and prints
 * `synthetic job server: URL`.
 */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [vertices, parallelism, interval, wideVertices, wideParallelism] = process.argv.slice(2).map(Number);
  const wide = wideVertices > 0 ? { vertices: wideVertices, parallelism: wideParallelism } : undefined;
  const server = await startSyntheticJobServer(vertices, { parallelism, wide }, { metricsFetchIntervalMs: interval || undefined });
  console.log(`synthetic job server: ${server.url}`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}
