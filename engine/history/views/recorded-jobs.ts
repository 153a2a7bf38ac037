import type { JobWatch, RecordedJob, RecordedJobGraph } from '../../contracts/history.ts';
import type { JobGraph, MetricAggregate, VertexView } from '../../contracts/jobs.ts';
import { backpressureLevelOf } from '../../analysis/backpressure-level.ts';
import { maxOverAvg } from '../../analysis/skew.ts';
import { dataSkewPercent } from '../../analysis/skew-figures.ts';
import type { HistoryStore } from '../history-store.ts';
import { stateName, type JobSample, type VertexSample } from '../job-sample.ts';

/** The jobs of a cluster the history has samples or checkpoints of, most recently sampled first. */
export function recordedJobs(history: HistoryStore, clusterId: string, watchOf: (jobId: string) => JobWatch | null): RecordedJob[] {
  const sampled = history.samples.jobs(clusterId);
  const jobIds = new Set(sampled.map((j) => j.jobId));
  const out: RecordedJob[] = sampled.map((job) => ({
    clusterId,
    jobId: job.jobId,
    name: job.jobName,
    lastState: job.lastState,
    firstSampleAt: job.firstSampleAt,
    lastSampleAt: job.lastSampleAt,
    samples: job.samples,
    checkpoints: history.checkpoints.count(clusterId, job.jobId),
    watch: watchOf(job.jobId),
  }));
  // Checkpoints can outlive samples (their retention is by count, the samples' by age).
  for (const { jobId } of history.checkpoints.jobs(clusterId)) {
    if (jobIds.has(jobId)) continue;
    out.push({ clusterId, jobId, name: jobId, lastState: 'UNKNOWN', firstSampleAt: null, lastSampleAt: null, samples: 0, checkpoints: history.checkpoints.count(clusterId, jobId), watch: watchOf(jobId) });
  }
  return out;
}

/** The graph of a recorded job as its last sample saw it; null without samples. */
export function recordedJobGraph(history: HistoryStore, clusterId: string, jobId: string, watch: JobWatch | null): RecordedJobGraph | null {
  const job = history.samples.job(clusterId, jobId);
  const sample = history.samples.latest(clusterId, jobId);
  if (!job || !sample) return null;
  return {
    recording: {
      clusterId,
      jobId,
      name: job.jobName,
      lastState: job.lastState,
      firstSampleAt: job.firstSampleAt,
      lastSampleAt: job.lastSampleAt,
      samples: job.samples,
      checkpoints: history.checkpoints.count(clusterId, jobId),
      watch,
    },
    graph: graphOfSample(sample),
  };
}

/** Pure: one stored sample → the graph the job page draws, with the rates the sampler computed. */
export function graphOfSample(sample: JobSample): JobGraph {
  return {
    clusterId: sample.clusterId,
    jobId: sample.jobId,
    name: sample.jobName,
    state: sample.jobState,
    startTime: sample.jobStartTime,
    durationMs: Math.max(0, sample.t - sample.jobStartTime),
    endTime: null,
    maxParallelism: sample.vertices.reduce<number | null>((max, v) => (v.maxParallelism !== null && (max === null || v.maxParallelism > max) ? v.maxParallelism : max), null),
    vertices: sample.vertices.map(vertexViewOf),
    edges: sample.edges,
    fetchedAt: sample.t,
    requestCount: 0,
  };
}

function vertexViewOf(vertex: VertexSample): VertexView {
  const s = vertex.subtasks;
  const aggregate = (column: Float32Array | undefined): MetricAggregate | null => {
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    let n = 0;
    for (const v of column ?? []) {
      if (!Number.isFinite(v)) continue;
      min = Math.min(min, v);
      max = Math.max(max, v);
      sum += v;
      n += 1;
    }
    return n === 0 ? null : { min, max, avg: sum / n, sum };
  };
  const busy = aggregate(s?.rates.busyTimeMsPerSecond);
  const backPressured = aggregate(s?.rates.backPressuredTimeMsPerSecond);
  const tasks: Record<string, number> = {};
  for (const code of s?.state ?? []) {
    const state = stateName(code).toLowerCase();
    tasks[state] = (tasks[state] ?? 0) + 1;
  }
  return {
    id: vertex.id,
    name: vertex.name,
    parallelism: vertex.parallelism,
    maxParallelism: vertex.maxParallelism,
    status: vertex.status,
    tasks,
    recordsInPerSecond: aggregate(s?.rates.recordsInPerSecond)?.sum ?? null,
    recordsOutPerSecond: aggregate(s?.rates.recordsOutPerSecond)?.sum ?? null,
    busyTimeMsPerSecond: busy,
    backPressuredTimeMsPerSecond: backPressured,
    idleTimeMsPerSecond: aggregate(s?.rates.idleTimeMsPerSecond),
    busySkew: vertex.parallelism > 1 ? maxOverAvg(busy) : null,
    dataSkewPercent: vertex.parallelism > 1 && s ? recordsInSkew(s.counters.recordsIn) : null,
    backpressureLevel: backPressured ? backpressureLevelOf(backPressured.max) : null,
  };
}

/** Flink's Data Skew of the records-in counters, as the live graph shows it (`numRecordsIn`, `agg=skew`); null without them. */
function recordsInSkew(recordsIn: Float64Array): number | null {
  const known = recordsIn.filter(Number.isFinite);
  return known.length > 0 ? dataSkewPercent(known) : null;
}
