import type { BeforeAfter } from '../contracts/before-after.ts';
import type { CheckpointOutlier, DiagnosisWindow, Finding, JobDiagnosis, LoadPattern, MetricSkew } from '../contracts/diagnosis.ts';
import { computeKeyGroupRangeForOperatorIndex } from '../analysis/key-groups/key-group-range-assignment.ts';
import type { JobWindowStats, VertexWindowStats } from '../analysis/window-stats.ts';
import type { CheckpointRecord } from '../history/checkpoint-history.ts';
import { stateName } from '../history/job-sample.ts';
import { SUBTASK_COLUMNS, type SubtaskColumnKey } from './report-columns.ts';
import type { ReportState } from './report-state.ts';

/**
 * A skew report: everything an incident ticket needs about one job over one window. The JSON format is this object
 * (its number columns written as arrays, see `jsonVertex`); CSV and HTML are views of it. Built only from
 * samples and stored checkpoints, never from the clock: the same samples give the same report, byte for byte.
 */
export const SKEW_REPORT_SCHEMA_VERSION = 1;

export interface ReportCluster {
  /** The console's id of the cluster (the history is keyed by it). */
  id: string;
  name: string | null;
  url: string | null;
  flinkVersion: string | null;
}

export interface ReportWindow extends DiagnosisWindow {
  /** Mean time between samples (ms): the span over the intervals; null with fewer than 2 samples. */
  intervalMs: number | null;
  /** Gaps in the sampling inside the window (cluster unreachable, 5xx), and restarts: from the history's events. */
  events: Array<{ t: number; kind: string; message: string }>;
}

export interface ReportCheckpoint {
  id: number;
  status: string;
  isSavepoint: boolean;
  triggerTimestamp: number;
  endToEndDurationMs: number | null;
  checkpointedBytes: number | null;
  stateBytes: number | null;
  failureMessage: string | null;
}

type TextColumnKey = Extract<(typeof SUBTASK_COLUMNS)[number], { type: 'string' }>['json'];

/**
 * Per subtask, one array per column (see report-columns.ts), indexed by subtask. Number columns are Float64Arrays,
 * NaN where a figure is unknown (null in the JSON and an empty CSV cell): 200 × 1,024 subtasks × 24 columns held as
 * JavaScript arrays of boxed numbers and nulls took 60 MB and put the report's peak memory past its 300 MB target.
 */
export type ReportSubtaskColumns = { [K in SubtaskColumnKey]: K extends TextColumnKey ? Array<string | null> : Float64Array };

export interface ReportVertex {
  id: string;
  name: string;
  parallelism: number;
  maxParallelism: number | null;
  keyed: boolean;
  status: string;
  pattern: LoadPattern;
  backpressureLevel: 'ok' | 'low' | 'high' | null;
  /** The hot subtasks on the vertex's load metric. */
  hotSubtasks: number[];
  restartedSubtasks: number[];
  unavailable: string | null;
  /** Flink's skew % and max/mean, max/median per metric, over the subtasks' window means. */
  metrics: MetricSkew[];
  subtasks: ReportSubtaskColumns;
}

export interface ReportHotKey {
  key: string;
  share: number;
  keyGroup: number;
  /** The subtask of the keyed vertex the key lands on. */
  subtask: number;
}

export interface SkewReport {
  schemaVersion: typeof SKEW_REPORT_SCHEMA_VERSION;
  /** The time the figures describe: the window's last sample (ISO 8601, UTC). */
  asOf: string | null;
  cluster: ReportCluster;
  job: { id: string; name: string; state: string };
  window: ReportWindow;
  finding: Finding;
  otherFindings: Finding[];
  confidence: JobDiagnosis['confidence'];
  notKnown: string[];
  vertices: ReportVertex[];
  /** The checkpoints triggered inside the window, oldest first. */
  checkpoints: ReportCheckpoint[];
  checkpointOutliers: CheckpointOutlier[] | null;
  /** Hot keys, when a key sample of the job's source is known; null otherwise. */
  hotKeys: ReportHotKey[] | null;
  /** Where the state lives and how fast it grows (the State view's sentence); null without checkpoints, absent in older reports. */
  state?: ReportState | null;
  /** Before vs after each rescale or resubmit of the job in the window; absent when it had none (and in older reports). */
  operations?: BeforeAfter[];
}

export interface SkewReportInput {
  cluster: ReportCluster;
  window: JobWindowStats;
  diagnosis: JobDiagnosis;
  events: ReportWindow['events'];
  checkpoints: CheckpointRecord[];
  /** Per vertex id, each subtask's start delay in the newest completed checkpoint with details (ms; NaN = unknown). */
  checkpointStartDelays: Map<string, Float64Array>;
  hotKeys?: ReportHotKey[] | null;
  state?: ReportState | null;
  operations?: BeforeAfter[];
}

/** Pure: the report from a window's figures and its diagnosis. */
export function buildSkewReport(input: SkewReportInput): SkewReport {
  const { window, diagnosis } = input;
  const byId = new Map(diagnosis.vertices.map((v) => [v.vertexId, v]));
  const vertices = window.vertices.map((stats): ReportVertex => {
    const d = byId.get(stats.id);
    const load = d?.metrics.find((m) => m.metric === d.loadMetric);
    const hot = (load?.hot ?? []).map((h) => h.subtask).sort((a, b) => a - b);
    return {
      id: stats.id,
      name: stats.name,
      parallelism: stats.parallelism,
      maxParallelism: stats.maxParallelism,
      keyed: d?.keyed ?? false,
      status: stats.status,
      pattern: d?.pattern ?? 'unknown',
      backpressureLevel: d?.backpressureLevel ?? null,
      hotSubtasks: hot,
      restartedSubtasks: d?.restartedSubtasks ?? [],
      unavailable: d?.unavailable ?? stats.unavailable ?? null,
      metrics: (d?.metrics ?? []).map(roundMetric),
      subtasks: subtaskColumns(window, stats, d?.keyed ?? false, new Set(hot), input.checkpointStartDelays.get(stats.id)),
    };
  });
  const known = window.samples > 0;
  return {
    schemaVersion: SKEW_REPORT_SCHEMA_VERSION,
    asOf: known ? new Date(window.to).toISOString() : null,
    cluster: input.cluster,
    job: { id: diagnosis.jobId, name: diagnosis.jobName, state: diagnosis.jobState },
    window: { ...diagnosis.window, intervalMs: meanInterval(input.window), events: input.events },
    finding: diagnosis.finding,
    otherFindings: diagnosis.otherFindings,
    confidence: diagnosis.confidence,
    notKnown: [...diagnosis.notKnown, ...(input.hotKeys ? [] : ['Hot keys: no key sample of the job\'s source (sample them on the Skew tab with a Kafka connection).'])],
    vertices,
    checkpoints: input.checkpoints.map((c) => ({
      id: c.id,
      status: c.status,
      isSavepoint: c.isSavepoint,
      triggerTimestamp: c.triggerTimestamp,
      endToEndDurationMs: c.endToEndDurationMs,
      checkpointedBytes: c.checkpointedBytes,
      stateBytes: c.stateBytes,
      failureMessage: c.failureMessage,
    })),
    checkpointOutliers: diagnosis.checkpointOutliers,
    hotKeys: input.hotKeys ?? null,
    state: input.state ?? null,
    ...(input.operations?.length ? { operations: input.operations } : {}),
  };
}

function subtaskColumns(
  window: JobWindowStats,
  v: VertexWindowStats,
  keyed: boolean,
  hot: Set<number>,
  startDelays: Float64Array | undefined,
): ReportSubtaskColumns {
  const n = v.unavailable ? 0 : v.parallelism;
  const columns = Object.fromEntries(SUBTASK_COLUMNS.map((c) => [c.json, c.type === 'string' ? new Array<string | null>(n) : new Float64Array(n)])) as ReportSubtaskColumns;
  const withRanges = keyed && v.maxParallelism !== null && v.maxParallelism >= v.parallelism;
  for (let k = 0; k < n; k++) {
    const tm = window.taskManagers[v.taskManager[k]];
    const range = withRanges ? computeKeyGroupRangeForOperatorIndex(v.maxParallelism!, v.parallelism, k) : null;
    columns.subtask[k] = k;
    columns.attempt[k] = v.attempt[k];
    columns.status[k] = stateName(v.state[k]);
    columns.taskManagerId[k] = tm?.id ?? null;
    columns.endpoint[k] = tm?.endpoint ?? null;
    columns.recordsInPerSecond[k] = figure(v.mean.recordsInPerSecond[k]);
    columns.recordsOutPerSecond[k] = figure(v.mean.recordsOutPerSecond[k]);
    columns.bytesInPerSecond[k] = figure(v.mean.bytesInPerSecond[k]);
    columns.bytesOutPerSecond[k] = figure(v.mean.bytesOutPerSecond[k]);
    columns.busyMsPerSecondMean[k] = figure(v.mean.busyTimeMsPerSecond[k]);
    columns.busyMsPerSecondMax[k] = figure(v.max.busyTimeMsPerSecond?.[k]);
    columns.backPressuredMsPerSecondMean[k] = figure(v.mean.backPressuredTimeMsPerSecond[k]);
    columns.backPressuredMsPerSecondMax[k] = figure(v.max.backPressuredTimeMsPerSecond?.[k]);
    columns.idleMsPerSecondMean[k] = figure(v.mean.idleTimeMsPerSecond[k]);
    columns.idleMsPerSecondMax[k] = figure(v.max.idleTimeMsPerSecond?.[k]);
    columns.checkpointedStateBytes[k] = figure(v.checkpointedBytes[k]);
    columns.checkpointStartDelayMs[k] = figure(startDelays?.[k]);
    columns.watermarkEpochMs[k] = figure(v.watermarkLast[k]);
    columns.keyGroupStart[k] = range ? range.startKeyGroup : Number.NaN;
    columns.keyGroupEnd[k] = range ? range.endKeyGroup : Number.NaN;
    columns.restarted[k] = v.restarted[k];
    columns.hot[k] = hot.has(k) ? 1 : 0;
    columns.recordsInTotal[k] = figure(v.totals.recordsIn[k]);
    columns.recordsOutTotal[k] = figure(v.totals.recordsOut[k]);
    columns.bytesInTotal[k] = figure(v.totals.bytesIn[k]);
    columns.bytesOutTotal[k] = figure(v.totals.bytesOut[k]);
  }
  return columns;
}

/** A figure as the report holds it: 3 decimals (stable diffs, no float noise), NaN when unknown or impossible. */
function figure(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value) || value < 0) return Number.NaN;
  return Math.round(value * 1000) / 1000;
}

function roundMetric(m: MetricSkew): MetricSkew {
  const r = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);
  return {
    ...m,
    min: r(m.min),
    max: r(m.max),
    mean: r(m.mean),
    median: r(m.median),
    dataSkewPercent: r(m.dataSkewPercent),
    maxOverMean: r(m.maxOverMean),
    maxOverMedian: r(m.maxOverMedian),
    hot: m.hot.map((h) => ({ ...h, value: r(h.value)!, timesMean: r(h.timesMean) })),
  };
}

function meanInterval(window: JobWindowStats): number | null {
  if (window.samples < 2) return null;
  return Math.round((window.to - window.from) / (window.samples - 1));
}

/** A subtask's cell as the report's JSON has it: null where a number column holds NaN (unknown). */
export function subtaskCell(column: Float64Array | Array<string | null>, k: number): number | string | null {
  const value = column[k];
  return typeof value === 'number' && Number.isNaN(value) ? null : value;
}

/** A vertex as the report's JSON has it (the schema's arrays): each column a plain array, NaN (unknown) as null. */
export function jsonVertex(vertex: ReportVertex): Omit<ReportVertex, 'subtasks'> & { subtasks: Record<SubtaskColumnKey, Array<number | string | null>> } {
  const subtasks = {} as Record<SubtaskColumnKey, Array<number | string | null>>;
  for (const { json: key } of SUBTASK_COLUMNS) {
    const column = vertex.subtasks[key];
    const cells = new Array<number | string | null>(column.length);
    for (let k = 0; k < column.length; k++) cells[k] = subtaskCell(column, k);
    subtasks[key] = cells;
  }
  return { ...vertex, subtasks };
}
