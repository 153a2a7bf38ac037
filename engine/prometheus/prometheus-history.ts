import { printable } from '../cli/terminal-text.ts';
import type { FlinkRestClient, TrafficStats } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { stateCode, type JobSample } from '../history/job-sample.ts';
import { prometheusEndpoints } from './prometheus-endpoints.ts';
import { askStore } from './prometheus-request.ts';
import type { RangeSeries } from './prometheus-schemas.ts';
import { taskSeriesSelector, checkedId } from './promql.ts';
import { COUNTER_METRIC, LABEL, PER_SECOND_METRIC, SAMPLE_METRICS, seriesName } from './reporter-series.ts';
import { stepTimes, toJobSamples, type ConversionNotes, type JobLayout, type StepGrid } from './to-job-samples.ts';

/** Prometheus refuses a range query of more than 11,000 points per series (`exceeded maximum resolution`). */
export const MAX_POINTS_PER_SERIES = 11_000;
/**
 * Points one range query may return, over all its series: about 30 bytes each in JSON, so an answer stays near 15 MB,
 * far under the endpoint's cap, and a chunk's samples stay small in memory.
 */
export const MAX_POINTS_PER_QUERY = 500_000;
/** Samples one read returns at most: a week at 10 s is 60,481; every sample is a whole job's columns in memory. */
export const MAX_STEPS = 100_000;

const RUNNING = stateCode('RUNNING');
/** A vertex whose series include this one has the accumulated times (the subtask's clock). */
const CLOCK_SERIES = seriesName(COUNTER_METRIC.accumulatedBusyMs);

export interface ReadWindowOptions {
  signal?: AbortSignal;
  /** Counts the requests and bytes this read cost the store. */
  tally?: TrafficStats;
  /** @default MAX_POINTS_PER_QUERY */
  maxPointsPerQuery?: number;
  /** A smaller cap on one answer than the endpoint's (`MAX_RANGE_ANSWER_BYTES`). */
  maxAnswerBytes?: number;
  /** The job's sample just before `from` (the history's newest): rates go on from it. */
  previous?: JobSample;
}

/** A run of steps where some subtask of a vertex with series had no point: the figures there are gaps. */
export interface WindowGap {
  from: number;
  to: number;
  /** The most subtasks missing at one step of the run. */
  subtasksMissing: number;
}

export interface WindowRead {
  /** One sample per step read, oldest first (`source: 'prometheus'`). */
  samples: JobSample[];
  /** What the window lacks or what was left out, each in one sentence (cluster and store text made printable). */
  missing: string[];
  gaps: WindowGap[];
  /** Vertices of the layout of which the store holds no series in the window. */
  absentVertices: string[];
  /** Set when the store stopped answering part-way: the samples end before `to`. */
  incomplete?: { from: number; reason: string };
}

/**
 * Reads a job's window from a metrics store as JobSamples: range queries of the job's task series (one per job when it
 * is small, one per vertex when it is big), the range cut into chunks so that no series exceeds Prometheus' 11,000
 * points and no answer `maxPointsPerQuery`, converted chunk by chunk (rates continue across chunks). A vertex whose
 * series carry no accumulated times is asked once more for Flink's per-second gauges.
 *
 * The first chunk failing throws (nothing was read: the caller samples instead); a later one ends the read there,
 * said in `incomplete` and `missing`. An answer with a series of another job or vertex than asked is refused.
 */
export async function readWindow(client: FlinkRestClient, layout: JobLayout, from: number, to: number, stepMs: number, options: ReadWindowOptions = {}): Promise<WindowRead> {
  checkedId(layout.jobId, 'job');
  for (const v of layout.vertices) checkedId(v.id, 'vertex');
  if (!(Number.isInteger(stepMs) && stepMs >= 1000)) throw new EngineError('invalid-input', `A step of ${stepMs} ms: give whole milliseconds, at least 1 s.`);
  if (!(to >= from)) throw new EngineError('invalid-input', `The window ends (${to}) before it starts (${from}).`);
  const steps = Math.floor((to - from) / stepMs) + 1;
  if (steps > MAX_STEPS) throw new EngineError('invalid-input', `${steps} steps of ${stepMs / 1000} s are more samples than a window holds (at most ${MAX_STEPS}): choose a coarser step.`);
  const subtasks = layout.vertices.reduce((sum, v) => sum + v.parallelism, 0);
  const budget = options.maxPointsPerQuery ?? MAX_POINTS_PER_QUERY;
  // One query for the whole job while a chunk of it holds a useful number of steps; else one per vertex.
  const perVertex = subtasks * SAMPLE_METRICS.length * 60 > budget;
  const widest = perVertex ? Math.max(...layout.vertices.map((v) => v.parallelism)) : subtasks;
  const stepsPerChunk = Math.max(1, Math.min(MAX_POINTS_PER_SERIES, Math.floor(budget / (widest * SAMPLE_METRICS.length))));
  const spec = options.maxAnswerBytes ? { ...prometheusEndpoints.queryRange, maxResponseBytes: options.maxAnswerBytes } : prometheusEndpoints.queryRange;

  const rangeQuery = async (metrics: readonly string[], vertexId: string | undefined, chunk: StepGrid): Promise<{ series: RangeSeries[]; warnings: string[] }> => {
    const answer = await askStore(
      client,
      spec,
      { query: taskSeriesSelector(metrics, layout.jobId, vertexId), start: seconds(chunk.from), end: seconds(chunk.to), step: seconds(chunk.stepMs) },
      { signal: options.signal, tally: options.tally, priority: 'background' },
    );
    for (const s of answer.data.result) {
      const job = s.metric[LABEL.jobId];
      const vertex = s.metric[LABEL.taskId];
      if (job !== layout.jobId || (vertexId !== undefined && vertex !== vertexId)) {
        throw new EngineError(
          'unexpected-response',
          `GET /api/v1/query_range on ${client.baseUrl} answered with a series of ${vertexId !== undefined && job === layout.jobId ? `vertex ${shown(vertex)}` : `job ${shown(job)}`} when asked about ${vertexId ?? layout.jobId}: the store does not apply the query's matchers, its answers are not data about this job.`,
          { endpoint: 'GET /api/v1/query_range' },
        );
      }
    }
    return { series: answer.data.result, warnings: answer.warnings };
  };

  const samples: JobSample[] = [];
  const notes: ConversionNotes = { ignoredSeries: {}, duplicatedSeries: 0, offGridPoints: 0 };
  const warnings = new Set<string>();
  let incomplete: WindowRead['incomplete'];
  const groups = perVertex ? layout.vertices.map((v) => v.id) : [undefined];
  for (const chunk of chunksOf({ from, to, stepMs }, stepsPerChunk)) {
    let series: RangeSeries[];
    try {
      const answers = await Promise.all(groups.map((vertexId) => rangeQuery(SAMPLE_METRICS, vertexId, chunk)));
      series = answers.flatMap((a) => a.series);
      // A reporter without the accumulated times (an older Flink): those vertices' per-second gauges, second best.
      const withSeries = new Set<string>();
      const withClock = new Set<string>();
      for (const s of series) {
        withSeries.add(s.metric[LABEL.taskId]);
        if (s.metric.__name__ === CLOCK_SERIES) withClock.add(s.metric[LABEL.taskId]);
      }
      const withoutClock = layout.vertices.filter((v) => withSeries.has(v.id) && !withClock.has(v.id));
      const gauges = await Promise.all(withoutClock.map((v) => rangeQuery(Object.values(PER_SECOND_METRIC), v.id, chunk)));
      series.push(...gauges.flatMap((a) => a.series));
      for (const w of [...answers, ...gauges].flatMap((a) => a.warnings)) warnings.add(printable(w).slice(0, 300));
    } catch (error) {
      if (samples.length === 0) throw error;
      const reason = error instanceof EngineError ? error.info.message : String(error);
      incomplete = { from: chunk.from, reason };
      break;
    }
    const converted = toJobSamples(layout, series, chunk, samples.at(-1) ?? options.previous);
    samples.push(...converted.samples);
    for (const [reason, count] of Object.entries(converted.ignoredSeries)) notes.ignoredSeries[reason] = (notes.ignoredSeries[reason] ?? 0) + count;
    notes.duplicatedSeries += converted.duplicatedSeries;
    notes.offGridPoints += converted.offGridPoints;
  }
  return describeWindow(layout, samples, notes, [...warnings], incomplete);
}

/** The grid cut into chunks of at most `steps` steps, each starting on a step of the whole grid. */
export function chunksOf(grid: StepGrid, steps: number): StepGrid[] {
  const times = stepTimes(grid);
  const chunks: StepGrid[] = [];
  for (let i = 0; i < times.length; i += steps) chunks.push({ from: times[i], to: times[Math.min(i + steps, times.length) - 1], stepMs: grid.stepMs });
  return chunks;
}

/** What the samples lack, found in them, and said. */
function describeWindow(layout: JobLayout, samples: JobSample[], notes: ConversionNotes, warnings: string[], incomplete: WindowRead['incomplete']): WindowRead {
  const absentVertices = layout.vertices.filter((_, v) => samples.length > 0 && samples.every((s) => s.vertices[v].subtasks === null)).map((v) => v.id);
  const gaps: WindowGap[] = [];
  let previousMissing = 0;
  for (const sample of samples) {
    let missing = 0;
    for (const v of sample.vertices) if (v.subtasks) missing += v.subtasks.state.filter((code) => code !== RUNNING).length;
    const open = gaps.at(-1);
    if (missing > 0 && previousMissing > 0 && open) {
      open.to = sample.t;
      open.subtasksMissing = Math.max(open.subtasksMissing, missing);
    } else if (missing > 0) gaps.push({ from: sample.t, to: sample.t, subtasksMissing: missing });
    previousMissing = missing;
  }
  const at = (t: number) => new Date(t).toISOString();
  const name = (id: string) => printable(layout.vertices.find((v) => v.id === id)?.name ?? id).slice(0, 120);
  const missing = [
    ...absentVertices.map((id) => `Prometheus holds no series of vertex ${name(id)} (${id}) in the window: its figures are not known.`),
    ...gaps.map((g) => (g.from === g.to ? `At ${at(g.from)}` : `From ${at(g.from)} to ${at(g.to)}`) + `, up to ${g.subtasksMissing} subtask${g.subtasksMissing === 1 ? '' : 's'} had no figures in Prometheus: shown as gaps.`),
    ...Object.entries(notes.ignoredSeries).map(([reason, count]) => `${count} series ${reason} were left out.`),
    ...(notes.duplicatedSeries > 0 ? [`${notes.duplicatedSeries} series repeated others (same ids, attempt and metric): read as one.`] : []),
    ...(notes.offGridPoints > 0 ? [`${notes.offGridPoints} points at times that are no step of the query were left out.`] : []),
    ...warnings.map((w) => `Prometheus warned: ${w}`),
    ...(incomplete ? [`The window from ${at(incomplete.from)} on is not read: ${printable(incomplete.reason)}`] : []),
  ];
  return { samples, missing, gaps, absentVertices, ...(incomplete ? { incomplete } : {}) };
}

/** Epoch ms → the seconds Prometheus takes (`1700000000.5`). */
function seconds(ms: number): string {
  return String(ms / 1000);
}

/** A label value in a sentence: printable, quoted, cut short. */
function shown(value: string | undefined): string {
  return JSON.stringify(printable(value ?? '(none)').slice(0, 64));
}
