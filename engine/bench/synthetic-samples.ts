import type { EdgeView } from '../contracts/jobs.ts';
import { emptySubtaskColumns, stateCode, type JobSample, type VertexSample } from '../history/job-sample.ts';

/**
 * Samples of a generated job as the sampler would store them, for the diagnosis benchmark: the layered DAG of the
 * synthetic job server (each vertex reads the vertex ten before it by HASH, and another by REBALANCE), every vertex
 * at the same parallelism, one keyed vertex with a saturated hot subtask and its upstream back-pressured.
 */
export interface SyntheticJob {
  jobId: string;
  vertexIds: string[];
  edges: EdgeView[];
  parallelism: number;
  maxParallelism: number;
  /** The vertex and subtask that are hot, and the back-pressured vertex upstream of it. */
  hot: { vertex: number; subtask: number; victim: number };
}

const RUNNING = stateCode('RUNNING');
const TASK_MANAGERS = 64;

export function syntheticJob(vertexCount: number, parallelism: number, maxParallelism: number): SyntheticJob {
  const hex = (i: number) => i.toString(16).padStart(32, '0');
  const vertexIds = Array.from({ length: vertexCount }, (_, i) => hex(i + 1));
  const edges: EdgeView[] = [];
  for (let i = 10; i < vertexCount; i++) {
    [i - 10, i - 9 - (i % 3)]
      .filter((j, k, a) => j >= 0 && a.indexOf(j) === k)
      .forEach((j, num) => edges.push({ source: vertexIds[j], target: vertexIds[i], shipStrategy: num ? 'REBALANCE' : 'HASH' }));
  }
  const hotVertex = Math.min(vertexCount - 1, 150);
  return { jobId: 'b'.repeat(32), vertexIds, edges, parallelism, maxParallelism, hot: { vertex: hotVertex, subtask: Math.min(parallelism - 1, 777), victim: hotVertex - 10 } };
}

/** A deterministic spread in [0, 1) per (vertex, subtask). */
function spread(v: number, k: number): number {
  return (((v * 2654435761) ^ (k * 40503)) >>> 0) % 1000 / 1000;
}

/** One vertex at sample `index` (time `t`, `intervalMs` after the previous): counters, rates, watermarks. */
export function syntheticVertexSample(job: SyntheticJob, v: number, index: number, t: number, intervalMs: number): VertexSample {
  const p = job.parallelism;
  const columns = emptySubtaskColumns(p);
  const elapsedS = (index * intervalMs) / 1000;
  for (let k = 0; k < p; k++) {
    const hot = v === job.hot.vertex && k === job.hot.subtask;
    const busy = hot ? 1000 : 100 + 300 * spread(v, k);
    const bp = v === job.hot.victim ? 850 : 0;
    const idle = Math.max(0, 1000 - busy - bp);
    const records = hot ? 900 : 50 + 100 * spread(k, v);
    columns.counters.recordsIn[k] = records * elapsedS;
    columns.counters.recordsOut[k] = records * elapsedS;
    columns.counters.bytesIn[k] = records * 120 * elapsedS;
    columns.counters.bytesOut[k] = records * 120 * elapsedS;
    columns.counters.accumulatedBusyMs[k] = busy * elapsedS;
    columns.counters.accumulatedBackPressuredMs[k] = bp * elapsedS;
    columns.counters.accumulatedIdleMs[k] = idle * elapsedS;
    columns.countersSince[k] = t;
    if (index > 0) {
      columns.rates.recordsInPerSecond[k] = records;
      columns.rates.recordsOutPerSecond[k] = records;
      columns.rates.bytesInPerSecond[k] = records * 120;
      columns.rates.bytesOutPerSecond[k] = records * 120;
      columns.rates.busyTimeMsPerSecond[k] = busy;
      columns.rates.backPressuredTimeMsPerSecond[k] = bp;
      columns.rates.idleTimeMsPerSecond[k] = idle;
    }
    columns.watermark[k] = t - 2000;
    columns.attempt[k] = 0;
    columns.state[k] = RUNNING;
    columns.taskManager[k] = k % TASK_MANAGERS;
  }
  return { id: job.vertexIds[v], name: `Operator ${v} -> Map ${v}`, parallelism: p, maxParallelism: job.maxParallelism, status: 'RUNNING', subtasks: columns };
}

/** The whole job at one sample (for the store). */
export function syntheticJobSample(job: SyntheticJob, clusterId: string, index: number, t: number, intervalMs: number): JobSample {
  return {
    clusterId,
    jobId: job.jobId,
    t,
    jobName: `synthetic-${job.vertexIds.length}`,
    jobState: 'FINISHED',
    jobStartTime: 1,
    vertices: job.vertexIds.map((_, v) => syntheticVertexSample(job, v, index, t, intervalMs)),
    edges: job.edges,
    taskManagers: Array.from({ length: TASK_MANAGERS }, (_, i) => ({ id: `tm-${i}`, endpoint: `10.0.${i >> 4}.${i & 15}:6121` })),
    lastCompletedCheckpointId: null,
    requests: 2 * job.vertexIds.length + 2,
    bytes: 0,
  };
}
