import type { HistoryStore } from '../history/history-store.ts';
import { headCoverage } from '../history/sample-log.ts';
import { COUNTER_COLUMNS, RATE_COLUMNS, type VertexSample } from '../history/job-sample.ts';
import { assembleJobWindow, vertexWindowStats, type JobWindowStats, type VertexAt, type VertexWindowStats, type WindowStatsOptions } from '../analysis/window-stats.ts';

/** Samples read at each end of a long window: the means need only the ends of each subtask's run. */
const HEAD_SAMPLES = 3;
const TAIL_SAMPLES = 2;

/**
 * How far before a window its per-subtask figures may reach back: a frugal sampler reads a vertex's subtasks at their
 * own cadence (every minute, a very large job's vertices in turns: see sampling-plan.ts), the samples between holding
 * Flink's aggregates only. A window that does not start on a reading starts at the reading just before it, so the
 * figures cover the whole window however the readings fall, and the evidence a verdict needs is not cut by the cadence.
 */
export const READING_LOOK_BACK_MS = 15 * 60_000;

/**
 * A job's window figures straight from the history store, one vertex at a time: a 200-vertex × 1,024-subtask job
 * over 15 minutes never has more than one vertex's samples in memory (a whole window would be gigabytes).
 *
 * The means need only where each subtask's run starts and ends, so a long window reads the first and last few
 * per-subtask readings of a vertex — unless a subtask restarted, a counter is missing at an end or went backwards, or
 * its first values are of unknown age and did not change within the first readings: then that vertex is read whole.
 * Maxima (asked for by a heatmap of maxima) always read every sample. Samples that read only Flink's aggregates of a
 * vertex are skipped by its per-subtask figures (never counted as missing), and a window that does not start on a
 * reading reaches back to the one before it (`READING_LOOK_BACK_MS`).
 */
export function readJobWindow(store: HistoryStore, clusterId: string, jobId: string, from: number, to: number, options: WindowStatsOptions = {}): JobWindowStats {
  const heads = store.samples.heads(clusterId, jobId, from, to);
  const last = heads[heads.length - 1];
  if (!last) return assembleJobWindow([], undefined, []);
  const jobStartAt = new Map(heads.map((h) => [h.t, h.jobStartTime]));
  const withStart = (range: Array<{ t: number; vertex: VertexSample }>): VertexAt[] => range.map(({ t, vertex }) => ({ t, vertex, jobStartTime: jobStartAt.get(t) }));
  const sparse = (options.maxima ?? []).length === 0 && new Set(heads.map((h) => h.jobStartTime)).size === 1;
  const vertices = last.vertices.map((v): VertexWindowStats => {
    const readings = heads.filter((h) => h.vertices.some((hv) => hv.id === v.id && headCoverage(hv) === 'subtasks')).map((h) => h.t);
    const before = readings[0] === heads[0].t ? undefined : store.samples.readingBefore(clusterId, jobId, v.id, heads[0].t, READING_LOOK_BACK_MS);
    const earlier: VertexAt[] = before ? [before] : [];
    const count = heads.filter((h) => h.vertices.some((hv) => hv.id === v.id)).length;
    const everySample = () => vertexWindowStats([...earlier, ...withStart(store.samples.vertexWindow(clusterId, jobId, v.id, from, to))], options);
    if (!sparse || readings.length <= HEAD_SAMPLES + TAIL_SAMPLES) return everySample();
    const ends = [
      ...earlier,
      ...withStart(store.samples.vertexWindow(clusterId, jobId, v.id, readings[0], readings[HEAD_SAMPLES - 1])),
      ...withStart(store.samples.vertexWindow(clusterId, jobId, v.id, readings[readings.length - TAIL_SAMPLES], readings[readings.length - 1])),
    ].filter((e) => e.vertex.subtasks !== null);
    if (!endsAreEnough(ends)) return everySample();
    // The ends give the same figures as every sample; the count is the window's.
    return { ...vertexWindowStats(ends, options), samples: count };
  });
  return assembleJobWindow(heads, { ...last, clusterId, jobId }, vertices);
}

/**
 * Whether the first and last samples of a vertex give the window's means: same layout and attempts at both ends, every
 * counter present at both ends and not smaller at the end, and values of unknown age (no rate yet) seen to change
 * within the first samples.
 */
function endsAreEnough(ends: VertexAt[]): boolean {
  const columns = ends.map((e) => e.vertex.subtasks);
  if (columns.length < HEAD_SAMPLES + TAIL_SAMPLES || columns.some((c) => c === null)) return false;
  const first = columns[0]!;
  const lastColumns = columns[columns.length - 1]!;
  const n = first.attempt.length;
  if (columns.some((c) => c!.attempt.length !== n)) return false;
  for (let k = 0; k < n; k++) if (first.attempt[k] !== lastColumns.attempt[k]) return false;
  for (const counter of COUNTER_COLUMNS) {
    const a = first.counters[counter];
    const b = lastColumns.counters[counter];
    for (let k = 0; k < n; k++) if (!(b[k] >= a[k])) return false;
  }
  for (let k = 0; k < n; k++) {
    // Values of unknown age at the start (no rate yet) must be seen fresh within the head samples (see window-stats).
    if (RATE_COLUMNS.some((rate) => !Number.isFinite(first.rates[rate][k]))) {
      let fresh = false;
      for (let s = 1; s < HEAD_SAMPLES && !fresh; s++) fresh = columns[s]!.countersSince[k] !== columns[s - 1]!.countersSince[k];
      if (!fresh) return false;
    }
    // A watermark or a checkpoint size that comes or goes between the ends may be in the middle.
    if (Number.isFinite(first.watermark[k]) !== Number.isFinite(lastColumns.watermark[k])) return false;
    if (Number.isFinite(first.checkpointedBytes[k]) && !Number.isFinite(lastColumns.checkpointedBytes[k])) return false;
  }
  return true;
}
