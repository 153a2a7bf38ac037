import { printable } from '../cli/terminal-text.ts';
import type { EdgeView, VertexView } from '../contracts/jobs.ts';
import {
  COUNTER_COLUMNS,
  UNKNOWN_STATE,
  emptySubtaskColumns,
  stateCode,
  type CounterColumn,
  type JobSample,
  type RateColumn,
  type TaskManagerRef,
  type VertexSample,
} from '../history/job-sample.ts';
import { withRates } from '../sampling/sample-rates.ts';
import type { RangeSeries } from './prometheus-schemas.ts';
import { COUNTER_METRIC, LABEL, PER_SECOND_METRIC, TASK_SCOPE_PREFIX, WATERMARK_METRIC, reporterLabelValue } from './reporter-series.ts';

/** A job's vertices and edges as the console knows them from the REST job details: what the series are joined to. */
export interface JobLayout {
  clusterId: string;
  jobId: string;
  jobName: string;
  /** The job's start time as the JobManager reports it. */
  jobStartTime: number;
  vertices: Array<Pick<VertexView, 'id' | 'name' | 'parallelism' | 'maxParallelism' | 'status'>>;
  edges: EdgeView[];
  /** The TaskManagers the REST API lists: a series' `tm_id` is matched to their ids (as the reporter writes ids). */
  taskManagers?: TaskManagerRef[];
}

/** The steps of a range query: `from`, `from + stepMs`, … up to `to` (epoch ms), as Prometheus evaluates them. */
export interface StepGrid {
  from: number;
  to: number;
  stepMs: number;
}

export function stepTimes(grid: StepGrid): number[] {
  const n = Math.floor((grid.to - grid.from) / grid.stepMs) + 1;
  return Array.from({ length: Math.max(0, n) }, (_, i) => grid.from + i * grid.stepMs);
}

/** What the conversion did not use, counted: by reason (in words), duplicated series, points between steps. */
export interface ConversionNotes {
  ignoredSeries: Record<string, number>;
  /** Series that repeat another's ids and metric (two scrape jobs, or two replicas of a store without deduplication). */
  duplicatedSeries: number;
  /** Points at a time that is no step of the grid (a store that answers other times than it was asked). */
  offGridPoints: number;
}

export interface ConvertedWindow extends ConversionNotes {
  /** One sample per step, oldest first, `source: 'prometheus'`, rates computed. */
  samples: JobSample[];
}

/** Long.MIN_VALUE, Flink's "no watermark yet", as a float. */
const NO_WATERMARK_BELOW = -9.2e18;
const RUNNING = stateCode('RUNNING');
/** Flink's largest max parallelism (2^15): a vertex without one has no subtask beyond it. */
const MAX_SUBTASKS = 32_768;

type MetricKind = { counter: CounterColumn } | { perSecond: RateColumn } | { watermark: true };
const METRIC_KIND = new Map<string, MetricKind>([
  ...COUNTER_COLUMNS.map((c): [string, MetricKind] => [`${TASK_SCOPE_PREFIX}${COUNTER_METRIC[c]}`, { counter: c }]),
  ...Object.entries(PER_SECOND_METRIC).map(([rate, metric]): [string, MetricKind] => [`${TASK_SCOPE_PREFIX}${metric}`, { perSecond: rate as RateColumn }]),
  [`${TASK_SCOPE_PREFIX}${WATERMARK_METRIC}`, { watermark: true }],
]);

/** One execution attempt of one subtask: each metric's value at each step (NaN: none), and where a series was live. */
interface AttemptSeries {
  attempt: number;
  values: Map<string, Float64Array>;
  /** 1 at a step where any of its series had a point. */
  live: Uint8Array;
  taskManager: string | undefined;
}

/**
 * Pure: range-query matrices of a job's task series → one JobSample per step of the grid, as if the console had
 * sampled the job at each step, so every analysis of the history reads them unchanged.
 *
 * - Joined on ids only: `job_id` (series of another job are ignored), `task_id` (a vertex of the layout),
 *   `subtask_index` and `task_attempt_num`.
 * - The parallelism at a step is the layout's (today's), or more where subtasks beyond it had a point there: the steps
 *   before a scale-down. Steps before a scale-up show today's parallelism, the subtasks not yet deployed as gaps.
 * - Counters are the raw values of Flink's counters (exported as gauges) and its accumulated busy, back-pressured and
 *   idle times (`accumulate*TimeMs`), so `withRates` divides by the subtask's own clock exactly as for the JobManager's
 *   figures. Only where an attempt has none of the accumulated times at a step are Flink's per-second gauges taken as
 *   the rates (an average over the gauge's last update, not over the step: second best).
 * - A failover deploys a new attempt, which the reporter exports as a new series counting from zero: at each step a
 *   subtask is the newest attempt live there, and counters are never summed across attempts (a new attempt gives no
 *   rate until its second step, as in the console's own history).
 * - A subtask with no point at a step is a gap: NaN figures, state unknown. With a point it is RUNNING: the reporter
 *   exports a task's metrics while the subtask is deployed and Prometheus keeps no execution state, and the rates
 *   need a running subtask (a subtask still initializing or finishing reads as running for that scrape).
 * - Duplicated series (same ids, attempt and metric) are one: at a step where they differ, the larger value is taken
 *   (of two readings of a cumulative counter, the newer).
 *
 * `previous`: the sample just before the grid (the last of an earlier chunk), so rates continue across chunks.
 */
export function toJobSamples(layout: JobLayout, series: readonly RangeSeries[], grid: StepGrid, previous?: JobSample): ConvertedWindow {
  const times = stepTimes(grid);
  const notes: ConversionNotes = { ignoredSeries: {}, duplicatedSeries: 0, offGridPoints: 0 };
  const ignore = (reason: string) => (notes.ignoredSeries[reason] = (notes.ignoredSeries[reason] ?? 0) + 1);
  const vertexIndex = new Map(layout.vertices.map((v, i) => [v.id, i]));
  // [vertex][subtask] → attempts, newest first once sorted.
  const attempts = layout.vertices.map((v) => Array.from({ length: v.parallelism }, () => new Map<number, AttemptSeries>()));
  // Subtasks beyond today's parallelism are of steps before a scale-down: kept, up to the max parallelism.
  const widest = layout.vertices.map((v) => v.maxParallelism ?? MAX_SUBTASKS);

  for (const s of series) {
    const labels = s.metric;
    const kind = METRIC_KIND.get(labels.__name__ ?? '');
    if (!kind) {
      ignore('that are no task metric the console reads');
      continue;
    }
    if (labels[LABEL.jobId] !== layout.jobId) {
      ignore('of another job');
      continue;
    }
    const v = vertexIndex.get(labels[LABEL.taskId] ?? '');
    if (v === undefined) {
      ignore('of a vertex the job does not have');
      continue;
    }
    const k = wholeNumber(labels[LABEL.subtaskIndex]);
    if (k === undefined || k >= widest[v]) {
      ignore(`with a subtask index outside its vertex's max parallelism`);
      continue;
    }
    while (attempts[v].length <= k) attempts[v].push(new Map());
    const attempt = wholeNumber(labels[LABEL.attempt]);
    if (attempt === undefined) {
      ignore('without an attempt number');
      continue;
    }
    let entry = attempts[v][k].get(attempt);
    if (!entry) {
      entry = { attempt, values: new Map(), live: new Uint8Array(times.length), taskManager: undefined };
      attempts[v][k].set(attempt, entry);
    }
    entry.taskManager = labels[LABEL.taskManagerId] ?? entry.taskManager;
    const name = labels.__name__;
    let column = entry.values.get(name);
    if (column) notes.duplicatedSeries += 1;
    else {
      column = new Float64Array(times.length).fill(Number.NaN);
      entry.values.set(name, column);
    }
    for (const point of s.values) {
      const i = (point.t - grid.from) / grid.stepMs;
      if (!Number.isInteger(i) || i < 0 || i >= times.length) {
        notes.offGridPoints += 1;
        continue;
      }
      entry.live[i] = 1;
      const value = plausible(kind, point.value);
      if (Number.isNaN(column[i]) || value > column[i]) column[i] = value;
    }
  }

  const newestFirst = attempts.map((subtasks) => subtasks.map((byAttempt) => [...byAttempt.values()].sort((a, b) => b.attempt - a.attempt)));
  const taskManagerOf = taskManagerResolver(layout.taskManagers ?? []);
  const samples: JobSample[] = [];
  let before = previous;
  times.forEach((t, i) => {
    const taskManagers: TaskManagerRef[] = [];
    const tmIndex = new Map<string, number>();
    let anyLive = false;
    const vertices = layout.vertices.map((vertex, v): VertexSample => {
      const base = { id: vertex.id, name: vertex.name, maxParallelism: vertex.maxParallelism, status: vertex.status };
      if (newestFirst[v].every((a) => a.length === 0)) return { ...base, parallelism: vertex.parallelism, subtasks: null, unavailable: 'Prometheus holds no series of this vertex in the window.' };
      // The parallelism at this step: today's, or more where subtasks beyond it were live (before a scale-down).
      let parallelism = vertex.parallelism;
      for (let k = newestFirst[v].length - 1; k >= vertex.parallelism; k--) {
        if (newestFirst[v][k].some((a) => a.live[i] === 1)) {
          parallelism = k + 1;
          break;
        }
      }
      const columns = emptySubtaskColumns(parallelism);
      for (let k = 0; k < parallelism; k++) {
        const current = newestFirst[v][k].find((a) => a.live[i] === 1);
        if (!current) {
          columns.state[k] = UNKNOWN_STATE;
          continue;
        }
        anyLive = true;
        columns.state[k] = RUNNING;
        columns.attempt[k] = current.attempt;
        let hasClock = false;
        for (const [name, values] of current.values) {
          const kind = METRIC_KIND.get(name)!;
          if ('counter' in kind) {
            columns.counters[kind.counter][k] = values[i];
            if (kind.counter.startsWith('accumulated') && Number.isFinite(values[i])) hasClock = true;
          } else if ('watermark' in kind) columns.watermark[k] = values[i];
        }
        if (!hasClock) {
          for (const [name, values] of current.values) {
            const kind = METRIC_KIND.get(name)!;
            if ('perSecond' in kind) columns.rates[kind.perSecond][k] = values[i];
          }
        }
        if (current.taskManager !== undefined) {
          const ref = taskManagerOf(current.taskManager);
          let index = tmIndex.get(ref.id);
          if (index === undefined) {
            index = taskManagers.push(ref) - 1;
            tmIndex.set(ref.id, index);
          }
          columns.taskManager[k] = index;
        }
      }
      return { ...base, parallelism, subtasks: columns };
    });
    const sample: JobSample = {
      clusterId: layout.clusterId,
      jobId: layout.jobId,
      t,
      jobName: layout.jobName,
      // Prometheus keeps no job state: running where a subtask's series is live, else not known.
      jobState: anyLive ? 'RUNNING' : 'UNKNOWN',
      jobStartTime: layout.jobStartTime,
      vertices,
      edges: layout.edges,
      taskManagers,
      lastCompletedCheckpointId: null,
      // Read from the metrics store: the cluster was not asked.
      requests: 0,
      bytes: 0,
      source: 'prometheus',
    };
    samples.push(withRates(before, sample));
    before = sample;
  });
  return { samples, ...notes };
}

/** A label's whole number (`"3"`), or undefined for anything else (`"03"` included: not how the reporter writes it). */
function wholeNumber(text: string | undefined): number | undefined {
  if (text === undefined || !/^(0|[1-9]\d{0,8})$/.test(text)) return undefined;
  return Number(text);
}

/** NaN for what no subtask reports: a negative counter or time, Flink's "no watermark yet". */
function plausible(kind: MetricKind, value: number): number {
  if ('watermark' in kind) return value > NO_WATERMARK_BELOW ? value : Number.NaN;
  return value >= 0 ? value : Number.NaN;
}

/**
 * A `tm_id` → the REST API's TaskManager when one's id, as the reporter writes ids, is this one; else the label
 * itself, made printable and cut to a length a table can show (a label value is whatever the reporter was given).
 */
function taskManagerResolver(known: TaskManagerRef[]): (tmId: string) => TaskManagerRef {
  const byLabel = new Map<string, TaskManagerRef>();
  for (const tm of known) {
    byLabel.set(tm.id, tm);
    byLabel.set(reporterLabelValue(tm.id), tm);
  }
  return (tmId) => byLabel.get(tmId) ?? { id: printable(tmId).slice(0, 120), endpoint: null };
}
