import type { Database, RootDatabase } from 'lmdb';
import type { HistoryRetention } from './history-store.ts';
import { coverageOf, rollupOf, type JobSample, type VertexCoverage, type VertexRollup, type VertexSample } from './job-sample.ts';
import { decodeVertexSample, encodeVertexSample } from './sample-codec.ts';

/** A sample without its vertices' columns: what a time axis or a job list needs. */
export type SampleHead = Omit<JobSample, 'vertices' | 'clusterId' | 'jobId'> & {
  /**
   * Each vertex without its columns, with their rollup (absent in samples stored before rollups were kept) and what
   * the sample read of it (absent before the sampler read in turns: `subtasks` unless `unavailable` says why not).
   */
  vertices: Array<Omit<VertexSample, 'subtasks' | 'aggregates'> & { rollup?: VertexRollup; coverage?: VertexCoverage }>;
  /** Encoded bytes of the sample's vertex columns (for the size bound). */
  storedBytes: number;
};

/** What a stored sample read of a vertex (samples stored before coverage was kept: from `unavailable`). */
export function headCoverage(vertex: SampleHead['vertices'][number]): VertexCoverage {
  return vertex.coverage ?? (vertex.unavailable === undefined ? 'subtasks' : 'none');
}

/** A job the store has samples of, whether or not the cluster still knows it. */
export interface SampledJob {
  clusterId: string;
  jobId: string;
  jobName: string;
  lastState: string;
  firstSampleAt: number;
  lastSampleAt: number;
  samples: number;
  storedBytes: number;
}

/** lmdb returns a binary store's values as copies the caller keeps (never its reused buffer): decoded without a copy. */
const OWNED = { owned: true } as const;

type HeadKey = [clusterId: string, jobId: string, t: number];
type VertexKey = [clusterId: string, jobId: string, vertexId: string, t: number];
type JobKey = [clusterId: string, jobId: string];

/**
 * Samples by job and time. A sample's head and each vertex's columns are separate entries, so a window of one
 * vertex (a chart, a table) reads only that vertex, and a window of the whole job is one range read per vertex.
 */
export class SampleLog {
  private readonly headTable: Database<SampleHead, HeadKey>;
  private readonly vertexTable: Database<Buffer, VertexKey>;
  private readonly jobTable: Database<SampledJob, JobKey>;

  constructor(
    private readonly root: RootDatabase,
    private readonly retention: HistoryRetention,
    private readonly now: () => number,
  ) {
    this.headTable = root.openDB<SampleHead, HeadKey>('sample-heads', {});
    this.vertexTable = root.openDB<Buffer, VertexKey>('sample-vertices', { encoding: 'binary' });
    this.jobTable = root.openDB<SampledJob, JobKey>('sampled-jobs', {});
  }

  /** Writes one sample atomically, then drops what retention says is too old. */
  async append(sample: JobSample): Promise<void> {
    const { clusterId, jobId, t } = sample;
    const encoded = sample.vertices.map((v) => encodeVertexSample(v));
    const storedBytes = encoded.reduce((sum, b) => sum + b.length, 0);
    const head: SampleHead = {
      t,
      jobName: sample.jobName,
      jobState: sample.jobState,
      jobStartTime: sample.jobStartTime,
      vertices: sample.vertices.map(({ subtasks, aggregates, ...rest }) => ({ ...rest, rollup: rollupOf({ subtasks, aggregates }), coverage: coverageOf({ subtasks, aggregates }) })),
      edges: sample.edges,
      taskManagers: sample.taskManagers,
      lastCompletedCheckpointId: sample.lastCompletedCheckpointId,
      requests: sample.requests,
      bytes: sample.bytes,
      storedBytes,
      // Absent rather than undefined: a head read back equals the sample that was written.
      ...(sample.source ? { source: sample.source } : {}),
    };
    await this.root.transaction(() => {
      const replaced = this.headTable.get([clusterId, jobId, t]);
      if (replaced) this.dropSample(clusterId, jobId, replaced);
      this.headTable.put([clusterId, jobId, t], head);
      sample.vertices.forEach((v, i) => this.vertexTable.put([clusterId, jobId, v.id, t], encoded[i]));
      const job = this.jobTable.get([clusterId, jobId]);
      this.jobTable.put([clusterId, jobId], {
        clusterId,
        jobId,
        jobName: sample.jobName,
        lastState: sample.jobState,
        firstSampleAt: Math.min(job?.firstSampleAt ?? t, t),
        lastSampleAt: Math.max(job?.lastSampleAt ?? t, t),
        samples: (job?.samples ?? 0) + 1,
        storedBytes: (job?.storedBytes ?? 0) + storedBytes,
      });
      this.pruneJob(clusterId, jobId, this.now() - this.retention.sampleMaxAgeMs);
      this.pruneToSize();
    });
  }

  /** The samples of `[from, to]` (inclusive), oldest first, with every vertex's columns. */
  window(clusterId: string, jobId: string, from: number, to: number): JobSample[] {
    const heads = [...this.headTable.getRange({ start: [clusterId, jobId, from], end: [clusterId, jobId, to + 1] })];
    if (heads.length === 0) return [];
    const columns = new Map<string, Map<number, VertexSample>>();
    const vertexIds = new Set(heads.flatMap(({ value }) => value.vertices.map((v) => v.id)));
    for (const vertexId of vertexIds) {
      const byTime = new Map<number, VertexSample>();
      for (const { key, value } of this.vertexTable.getRange({ start: [clusterId, jobId, vertexId, from], end: [clusterId, jobId, vertexId, to + 1] })) {
        byTime.set(key[3], decodeVertexSample(value, OWNED));
      }
      columns.set(vertexId, byTime);
    }
    return heads.map(({ value: head }) => toSample(clusterId, jobId, head, (vertexId) => columns.get(vertexId)?.get(head.t)));
  }

  /** One vertex over `[from, to]`, oldest first: what a per-vertex chart or table needs, without the rest of the job. */
  vertexWindow(clusterId: string, jobId: string, vertexId: string, from: number, to: number): Array<{ t: number; vertex: VertexSample }> {
    return [...this.vertexTable.getRange({ start: [clusterId, jobId, vertexId, from], end: [clusterId, jobId, vertexId, to + 1] })].map(
      ({ key, value }) => ({ t: key[3], vertex: decodeVertexSample(value, OWNED) }),
    );
  }

  /**
   * The newest per-subtask reading of a vertex before `t` (exclusive) and no older than `t − lookBackMs`, with the
   * job's start time at it: samples between readings hold only aggregates (their entries are a small header each).
   */
  readingBefore(clusterId: string, jobId: string, vertexId: string, t: number, lookBackMs: number): { t: number; vertex: VertexSample; jobStartTime: number | undefined } | undefined {
    for (const { key, value } of this.vertexTable.getRange({ start: [clusterId, jobId, vertexId, t - 1e-3], end: [clusterId, jobId, vertexId, t - lookBackMs - 1e-3], reverse: true })) {
      const vertex = decodeVertexSample(value, OWNED);
      if (!vertex.subtasks) continue;
      return { t: key[3], vertex, jobStartTime: this.headTable.get([clusterId, jobId, key[3]])?.jobStartTime };
    }
    return undefined;
  }

  /** Sample heads (time, state, cost) of `[from, to]`, oldest first. */
  heads(clusterId: string, jobId: string, from: number, to: number): SampleHead[] {
    return [...this.headTable.getRange({ start: [clusterId, jobId, from], end: [clusterId, jobId, to + 1] })].map((e) => e.value);
  }

  /** The newest sample's head (names, states, edges) without decoding any column. */
  latestHead(clusterId: string, jobId: string): SampleHead | undefined {
    return first(this.headTable.getRange({ start: [clusterId, jobId, Infinity], end: [clusterId, jobId, -Infinity], reverse: true, limit: 1 }));
  }

  /** The newest sample of a job, with its columns. */
  latest(clusterId: string, jobId: string): JobSample | undefined {
    const head = first(this.headTable.getRange({ start: [clusterId, jobId, Infinity], end: [clusterId, jobId, -Infinity], reverse: true, limit: 1 }));
    if (!head) return undefined;
    return toSample(clusterId, jobId, head, (vertexId) => {
      const bytes = this.vertexTable.get([clusterId, jobId, vertexId, head.t]);
      return bytes ? decodeVertexSample(bytes, OWNED) : undefined;
    });
  }

  /** Jobs with samples, on one cluster or all, most recently sampled first. */
  jobs(clusterId?: string): SampledJob[] {
    const range = clusterId === undefined ? {} : { start: [clusterId] as unknown as JobKey, end: [`${clusterId}\u0000`] as unknown as JobKey };
    return [...this.jobTable.getRange(range)].map((e) => e.value).sort((a, b) => b.lastSampleAt - a.lastSampleAt);
  }

  job(clusterId: string, jobId: string): SampledJob | undefined {
    return this.jobTable.get([clusterId, jobId]);
  }

  /** Applies retention to every job (start-up, or a retention setting that changed). */
  async prune(): Promise<void> {
    const horizon = this.now() - this.retention.sampleMaxAgeMs;
    await this.root.transaction(() => {
      for (const { value: job } of this.jobTable.getRange({})) this.pruneJob(job.clusterId, job.jobId, horizon);
      this.pruneToSize();
    });
  }

  /** Inside a write transaction: drops the job's samples older than `horizon`. */
  private pruneJob(clusterId: string, jobId: string, horizon: number): void {
    for (const { value: head } of this.headTable.getRange({ start: [clusterId, jobId, -Infinity], end: [clusterId, jobId, horizon] })) {
      this.dropSample(clusterId, jobId, head);
    }
  }

  /** Inside a write transaction: while all samples together exceed the size bound, drop the oldest one anywhere. */
  private pruneToSize(): void {
    const jobs = [...this.jobTable.getRange({})].map((e) => e.value);
    let total = jobs.reduce((sum, j) => sum + j.storedBytes, 0);
    while (total > this.retention.maxSampleBytes && jobs.length > 0) {
      jobs.sort((a, b) => a.firstSampleAt - b.firstSampleAt);
      const oldest = jobs[0];
      const head = first(this.headTable.getRange({ start: [oldest.clusterId, oldest.jobId, -Infinity], end: [oldest.clusterId, oldest.jobId, Infinity], limit: 1 }));
      if (!head) {
        jobs.shift();
        continue;
      }
      total -= head.storedBytes;
      const after = this.dropSample(oldest.clusterId, oldest.jobId, head);
      if (after) jobs[0] = after;
      else jobs.shift();
    }
  }

  /** Removes one sample and updates the job's summary; returns the summary, or undefined when no sample is left. */
  private dropSample(clusterId: string, jobId: string, head: SampleHead): SampledJob | undefined {
    this.removeSample(clusterId, jobId, head);
    const job = this.jobTable.get([clusterId, jobId]);
    if (!job) return undefined;
    if (job.samples <= 1) {
      this.jobTable.remove([clusterId, jobId]);
      return undefined;
    }
    // Only the oldest sample moves the first one (a sample replaced in the middle of the history does not).
    const next = head.t === job.firstSampleAt ? first(this.headTable.getRange({ start: [clusterId, jobId, head.t + 1], end: [clusterId, jobId, Infinity], limit: 1 })) : undefined;
    const firstSampleAt = head.t === job.firstSampleAt ? (next?.t ?? job.lastSampleAt) : job.firstSampleAt;
    const updated = { ...job, samples: job.samples - 1, storedBytes: job.storedBytes - head.storedBytes, firstSampleAt };
    this.jobTable.put([clusterId, jobId], updated);
    return updated;
  }

  private removeSample(clusterId: string, jobId: string, head: SampleHead): void {
    this.headTable.remove([clusterId, jobId, head.t]);
    for (const v of head.vertices) this.vertexTable.remove([clusterId, jobId, v.id, head.t]);
  }
}

function toSample(clusterId: string, jobId: string, head: SampleHead, columnsOf: (vertexId: string) => VertexSample | undefined): JobSample {
  const { storedBytes: _storedBytes, vertices, ...rest } = head;
  return {
    clusterId,
    jobId,
    ...rest,
    vertices: vertices.map(({ rollup: _rollup, coverage: _coverage, ...v }) => columnsOf(v.id) ?? { ...v, subtasks: null, unavailable: 'missing from the store' }),
  };
}

function first<V>(range: Iterable<{ value: V }>): V | undefined {
  for (const { value } of range) return value;
  return undefined;
}
