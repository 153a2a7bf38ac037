import type { EdgeView } from '../../contracts/jobs.ts';
import { emptySubtaskColumns, stateCode, type JobSample } from '../../history/job-sample.ts';
import { withRates } from '../../sampling/sample-rates.ts';

/**
 * Builds the samples of a window from per-subtask rates, the way the sampler would have stored them: counters
 * accumulate `rate × elapsed`, times in ms per second; rates come from `withRates`. For the analyses' tests.
 */
export interface SubtaskSpec {
  busy?: number;
  bp?: number;
  /** @default 1000 − busy − bp */
  idle?: number;
  recordsIn?: number;
  recordsOut?: number;
  /** Bytes per record. @default 100 */
  recordBytes?: number;
  /** A metric this subtask does not report: its counters stay NaN. */
  missing?: boolean;
  /** Busy time not measured (Flink < 1.13, or measurement off): the accumulated times stay NaN. */
  noBusyTime?: boolean;
  /** Restarts (new attempt, counters from zero) at this sample index. */
  restartAt?: number;
  /** Watermark: advances with time unless `stalled` (then stays at t0). NaN = none. @default advancing */
  watermark?: 'advancing' | 'stalled' | 'none';
  checkpointedBytes?: number;
  taskManager?: number;
}

export interface VertexSpec {
  id: string;
  name: string;
  maxParallelism?: number;
  /** One entry per subtask, or a function of the subtask index and the sample index. */
  subtasks: SubtaskSpec[] | { parallelism: number; at: (k: number, s: number) => SubtaskSpec };
}

export interface WindowSpec {
  vertices: VertexSpec[];
  edges?: Array<[source: string, target: string, shipStrategy?: string]>;
  samples?: number;
  intervalMs?: number;
  t0?: number;
  jobName?: string;
  taskManagers?: number;
}

export function buildWindow(spec: WindowSpec): JobSample[] {
  const count = spec.samples ?? 7;
  const interval = spec.intervalMs ?? 10_000;
  const t0 = spec.t0 ?? 1_700_000_000_000;
  const tms = spec.taskManagers ?? 2;
  const edges: EdgeView[] = (spec.edges ?? []).map(([source, target, shipStrategy]) => ({ source, target, shipStrategy: shipStrategy ?? 'HASH' }));
  const subtaskSpec = (v: VertexSpec, k: number, s: number): SubtaskSpec => (Array.isArray(v.subtasks) ? v.subtasks[k] : v.subtasks.at(k, s));
  const parallelismOf = (v: VertexSpec) => (Array.isArray(v.subtasks) ? v.subtasks.length : v.subtasks.parallelism);
  // Accumulated counters per vertex and subtask, carried from sample to sample.
  const acc = spec.vertices.map((v) => Array.from({ length: parallelismOf(v) }, () => ({ busy: 0, bp: 0, idle: 0, rin: 0, rout: 0, bin: 0, bout: 0, attempt: 0 })));
  const samples: JobSample[] = [];
  let previous: JobSample | undefined;
  for (let s = 0; s < count; s++) {
    const t = t0 + s * interval;
    const vertices = spec.vertices.map((v, vi) => {
      const p = parallelismOf(v);
      const columns = emptySubtaskColumns(p);
      for (let k = 0; k < p; k++) {
        const sub = subtaskSpec(v, k, s);
        const a = acc[vi][k];
        if (sub.restartAt === s) Object.assign(a, { busy: 0, bp: 0, idle: 0, rin: 0, rout: 0, bin: 0, bout: 0, attempt: a.attempt + 1 });
        else if (s > 0) {
          const dt = interval / 1000;
          const busy = sub.busy ?? 0;
          const bp = sub.bp ?? 0;
          a.busy += busy * dt;
          a.bp += bp * dt;
          a.idle += (sub.idle ?? Math.max(0, 1000 - busy - bp)) * dt;
          a.rin += (sub.recordsIn ?? 0) * dt;
          a.rout += (sub.recordsOut ?? 0) * dt;
          a.bin += (sub.recordsIn ?? 0) * dt * (sub.recordBytes ?? 100);
          a.bout += (sub.recordsOut ?? 0) * dt * (sub.recordBytes ?? 100);
        }
        if (!sub.missing) {
          columns.counters.recordsIn[k] = a.rin;
          columns.counters.recordsOut[k] = a.rout;
          columns.counters.bytesIn[k] = a.bin;
          columns.counters.bytesOut[k] = a.bout;
          if (!sub.noBusyTime) {
            columns.counters.accumulatedBusyMs[k] = a.busy;
            columns.counters.accumulatedBackPressuredMs[k] = a.bp;
            columns.counters.accumulatedIdleMs[k] = a.idle;
          }
        }
        columns.attempt[k] = a.attempt;
        columns.state[k] = stateCode('RUNNING');
        columns.taskManager[k] = sub.taskManager ?? k % tms;
        const wm = sub.watermark ?? 'advancing';
        columns.watermark[k] = wm === 'none' ? Number.NaN : wm === 'stalled' ? t0 - 5_000 : t - 2_000;
        if (sub.checkpointedBytes !== undefined) columns.checkpointedBytes[k] = sub.checkpointedBytes;
      }
      return { id: v.id, name: v.name, parallelism: p, maxParallelism: v.maxParallelism ?? 128, status: 'RUNNING', subtasks: columns };
    });
    const sample: JobSample = {
      clusterId: 'c',
      jobId: 'f'.repeat(32),
      t,
      jobName: spec.jobName ?? 'built',
      jobState: 'RUNNING',
      jobStartTime: t0 - 60_000,
      vertices,
      edges,
      taskManagers: Array.from({ length: tms }, (_, i) => ({ id: `tm-${i}`, endpoint: `127.0.0.1:${6121 + i}` })),
      lastCompletedCheckpointId: null,
      requests: 0,
      bytes: 0,
    };
    previous = withRates(previous, sample);
    samples.push(previous);
  }
  return samples;
}

/** p subtasks with the same spec. */
export function uniform(p: number, sub: SubtaskSpec): SubtaskSpec[] {
  return Array.from({ length: p }, () => ({ ...sub }));
}
