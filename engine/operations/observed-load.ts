import type { FlinkRestClient } from '../flink-rest/client.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { subtaskClockMs, type JobSample, type SubtaskColumns } from '../history/job-sample.ts';
import { sampleJob } from '../sampling/sample-job.ts';
import type { OperationClock } from './driver-context.ts';

/**
 * The load each subtask of a job carried recently: records in per second and busy ms per second. From the history
 * store when the job is watched (the average over the last minutes), else measured now from two samples one metrics
 * refresh apart.
 */

export interface VertexLoad {
  parallelism: number;
  recordsInPerSecond: Float64Array;
  busyTimeMsPerSecond: Float64Array;
}

export interface ObservedLoad {
  source: 'history' | 'live';
  from: number;
  to: number;
  samples: number;
  vertices: Map<string, VertexLoad>;
}

/** How far back the history is read: the recent load is what a rescale must carry. */
export const LOAD_WINDOW_MS = 2 * 60_000;

/**
 * Pure: per vertex and subtask, the average rates between the first and the last sample of the window that have the
 * vertex at its latest parallelism and the subtask in the same attempt: counter differences over the growth of
 * the subtask's own clock (the time between first sightings where Flink reports no accumulated times), exact whatever
 * the JobManager's refresh timing. NaN where the samples cannot tell.
 */
export function averageLoad(samples: JobSample[]): Map<string, VertexLoad> {
  const out = new Map<string, VertexLoad>();
  const last = samples.at(-1);
  if (!last) return out;
  for (const vertex of last.vertices) {
    const end = vertex.subtasks;
    if (!end) continue;
    const p = vertex.parallelism;
    const records = new Float64Array(p).fill(Number.NaN);
    const busy = new Float64Array(p).fill(Number.NaN);
    for (let k = 0; k < p; k++) {
      const start = firstComparable(samples, vertex.id, p, end, k);
      const clockMs = start ? subtaskClockMs(end, k) - subtaskClockMs(start, k) : Number.NaN;
      const elapsedMs = Number.isFinite(clockMs) ? clockMs : start ? end.countersSince[k] - start.countersSince[k] : Number.NaN;
      if (start && elapsedMs > 0) {
        const seconds = elapsedMs / 1000;
        const dr = end.counters.recordsIn[k] - start.counters.recordsIn[k];
        const db = end.counters.accumulatedBusyMs[k] - start.counters.accumulatedBusyMs[k];
        if (dr >= 0) records[k] = dr / seconds;
        if (db >= 0) busy[k] = Math.min(1000, db / seconds);
      } else {
        // One sighting only: the rates the sampler computed for it, if any.
        records[k] = end.rates.recordsInPerSecond[k];
        busy[k] = end.rates.busyTimeMsPerSecond[k];
      }
    }
    out.set(vertex.id, { parallelism: p, recordsInPerSecond: records, busyTimeMsPerSecond: busy });
  }
  return out;
}

function firstComparable(samples: JobSample[], vertexId: string, parallelism: number, end: SubtaskColumns, k: number): SubtaskColumns | undefined {
  for (const sample of samples) {
    const s = sample.vertices.find((v) => v.id === vertexId);
    const cols = s?.subtasks;
    if (!cols || s!.parallelism !== parallelism || cols.attempt[k] !== end.attempt[k]) continue;
    if (Number.isFinite(cols.counters.recordsIn[k]) && Number.isFinite(cols.countersSince[k])) return cols;
  }
  return undefined;
}

function hasFigures(load: Map<string, VertexLoad>, vertexIds: string[]): boolean {
  return vertexIds.every((id) => {
    const v = load.get(id);
    return v !== undefined && v.recordsInPerSecond.some((r) => Number.isFinite(r));
  });
}

export interface ObserveOptions {
  history: HistoryStore;
  client: FlinkRestClient;
  clusterId: string;
  jobId: string;
  /** The vertices that must have figures for the history to be enough. */
  vertexIds: string[];
  /** The JobManager's metrics refresh interval: live samples are taken this far apart. */
  metricsFetchIntervalMs: number;
  clock: OperationClock;
  /** Only history samples after this moment count (a rescale's outcome). */
  since?: number;
}

export async function observeLoad(options: ObserveOptions): Promise<ObservedLoad> {
  const to = options.clock.now();
  const from = Math.max(to - LOAD_WINDOW_MS, options.since ?? -Infinity);
  const window = options.history.samples.window(options.clusterId, options.jobId, from, to).filter((s) => s.jobState === 'RUNNING');
  const fromHistory = averageLoad(window);
  if (window.length >= 2 && hasFigures(fromHistory, options.vertexIds)) {
    return { source: 'history', from: window[0].t, to: window.at(-1)!.t, samples: window.length, vertices: fromHistory };
  }
  // Not watched (or not long enough): measure now, samples one metrics refresh apart, at most four.
  const samples: JobSample[] = [];
  let previous: JobSample | undefined;
  for (let i = 0; i < 4; i++) {
    if (i > 0) await options.clock.sleep(options.metricsFetchIntervalMs + 500);
    previous = await sampleJob(options.client, options.clusterId, options.jobId, previous, options.clock.now);
    samples.push(previous);
    const load = averageLoad(samples);
    if (samples.length >= 2 && hasFigures(load, options.vertexIds)) {
      return { source: 'live', from: samples[0].t, to: previous.t, samples: samples.length, vertices: load };
    }
  }
  return { source: 'live', from: samples[0].t, to: previous!.t, samples: samples.length, vertices: averageLoad(samples) };
}
