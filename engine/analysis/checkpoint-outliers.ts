import type { CheckpointOutlierView, CheckpointSubtaskView, CheckpointVertexView } from '../contracts/history.ts';
import { bytesInWords, durationInWords, roundBoundAbove, shortVertexName, subtaskList } from './in-words.ts';

/** What the analysis reads of a subtask's part in a checkpoint (a row of `/checkpoints/details/:id/subtasks/:vid`). */
export type CheckpointSubtaskFigures = Pick<CheckpointSubtaskView, 'index' | 'status' | OutlierFigure>;

/** What the analysis reads of a vertex's part in a checkpoint: its name and the subtasks' figures. */
export interface CheckpointVertexFigures extends Pick<CheckpointVertexView, 'vertexId' | 'name'> {
  subtasks: CheckpointSubtaskFigures[];
}

/** The figures a subtask can stand out by in a checkpoint. */
export type OutlierFigure = CheckpointOutlierView['figure'];

export interface OutlierThresholds {
  /** A duration below this never stands out, however uneven. @default 500 ms */
  minDurationMs: number;
  /** A state below this never stands out. @default 1 MiB */
  minStateBytes: number;
  /** The outliers must be this many times above the others' highest value (values under 10 ms count as 10 ms). @default 4 */
  ratio: number;
}

export const DEFAULT_OUTLIER_THRESHOLDS: OutlierThresholds = { minDurationMs: 500, minStateBytes: 1024 * 1024, ratio: 4 };

/** Below this, differences are scheduling noise (a few ms). */
const NOISE_MS = 10;

const WHAT: Record<OutlierFigure, { did: (value: string, many: boolean) => string; others: string; cause: string }> = {
  startDelayMs: {
    did: (v, many) => `started ${many ? 'their' : 'its'} checkpoint ${v} late`,
    others: 'took',
    cause: 'data skew or backpressure on that subtask is the usual cause',
  },
  alignmentDurationMs: {
    did: (v) => `waited ${v} for the barrier on all of its inputs (alignment)`,
    others: 'took',
    cause: 'one of its input channels is back-pressured or skewed; unaligned checkpoints would not wait',
  },
  syncDurationMs: {
    did: (v) => `took ${v} for the synchronous part of its snapshot`,
    others: 'took',
    cause: 'a large state copied on the task thread, or a task thread held up (long GC pauses), is the usual cause',
  },
  asyncDurationMs: {
    did: (v) => `took ${v} to write its state`,
    others: 'took',
    cause: 'a larger state on that subtask (key skew) or slow checkpoint storage is the usual cause',
  },
  endToEndDurationMs: {
    did: (v) => `acknowledged ${v} after the trigger`,
    others: 'took',
    cause: 'its start delay, alignment and snapshot durations in the table say which part was slow',
  },
  stateBytes: {
    did: (v, many) => `${many ? 'hold' : 'holds'} ${v} of state`,
    others: 'hold',
    cause: 'key skew (a few keys with most of the state) is the usual cause',
  },
};

/** Figures in reading order: the end-to-end duration last, and only when nothing else explains it. */
const FIGURES: OutlierFigure[] = ['startDelayMs', 'alignmentDurationMs', 'syncDurationMs', 'asyncDurationMs', 'endToEndDurationMs', 'stateBytes'];

/**
 * Pure: the subtasks of a checkpoint that stand out from their siblings, per vertex and figure, worst first.
 *
 * Within a vertex, a figure's values are sorted; the outliers are the top k (at most a quarter of the subtasks, at
 * least one) before the widest ratio between neighbours. They stand out when that ratio is at least `ratio`, the
 * smallest outlier is above the floor (500 ms, 1 MiB), and the others' highest value is the comparison. A subtask's
 * slow end-to-end duration is named only when none of its parts (start delay, alignment, sync, async) is.
 */
export function findCheckpointOutliers(vertices: CheckpointVertexFigures[], thresholds: OutlierThresholds = DEFAULT_OUTLIER_THRESHOLDS): CheckpointOutlierView[] {
  const timeOutliers: Array<CheckpointOutlierView & { excess: number }> = [];
  const stateOutliers: Array<CheckpointOutlierView & { excess: number }> = [];
  for (const vertex of vertices) {
    const explained = new Set<number>();
    for (const figure of FIGURES) {
      const found = outlierOf(vertex, figure, thresholds);
      if (!found) continue;
      if (figure === 'endToEndDurationMs' && found.subtasks.every((k) => explained.has(k))) continue;
      if (figure !== 'stateBytes') found.subtasks.forEach((k) => explained.add(k));
      (figure === 'stateBytes' ? stateOutliers : timeOutliers).push(found);
    }
  }
  const byExcess = (a: { excess: number }, b: { excess: number }) => b.excess - a.excess;
  return [...timeOutliers.sort(byExcess), ...stateOutliers.sort(byExcess)].map(({ excess: _excess, ...outlier }) => outlier);
}

function outlierOf(vertex: CheckpointVertexFigures, figure: OutlierFigure, t: OutlierThresholds): (CheckpointOutlierView & { excess: number }) | undefined {
  const values = vertex.subtasks
    .filter((s) => s.status === 'completed')
    .map((s) => ({ index: s.index, value: s[figure] }))
    .filter((s): s is { index: number; value: number } => s.value !== null && Number.isFinite(s.value) && s.value >= 0)
    .sort((a, b) => b.value - a.value || a.index - b.index);
  if (values.length < 2) return undefined;
  const floor = figure === 'stateBytes' ? 1 : NOISE_MS;
  const maxOutliers = Math.max(1, Math.floor(values.length / 4));
  let k = 0;
  let widest = 0;
  for (let i = 0; i < Math.min(maxOutliers, values.length - 1); i++) {
    const gap = values[i].value / Math.max(values[i + 1].value, floor);
    if (gap > widest) {
      widest = gap;
      k = i + 1;
    }
  }
  const outliers = values.slice(0, k);
  const othersMax = values[k].value;
  const minimum = figure === 'stateBytes' ? t.minStateBytes : t.minDurationMs;
  if (widest < t.ratio || outliers[outliers.length - 1].value < minimum) return undefined;
  const sentence = sentenceOf(vertex.name, figure, outliers.map((o) => o.index), outliers.map((o) => o.value), othersMax);
  return {
    vertexId: vertex.vertexId,
    vertexName: vertex.name,
    figure,
    subtasks: outliers.map((o) => o.index),
    values: outliers.map((o) => o.value),
    othersMax,
    sentence,
    excess: outliers[0].value - othersMax,
  };
}

function sentenceOf(vertexName: string, figure: OutlierFigure, subtasks: number[], values: number[], othersMax: number): string {
  const inWords = figure === 'stateBytes' ? bytesInWords : durationInWords;
  const what = WHAT[figure];
  const many = subtasks.length > 1;
  const value = many ? `${inWords(values[values.length - 1])} to ${inWords(values[0])}` : inWords(values[0]);
  const bound = figure === 'stateBytes' ? bytesBoundAbove(othersMax) : roundBoundAbove(othersMax);
  return `${subtaskList(subtasks)} of ${shortVertexName(vertexName)} ${what.did(value, many)} while the others ${what.others} < ${inWords(bound)}: ${what.cause}.`;
}

/** A round bound above a byte count, in its own unit: < 5 MiB for 3.2 MiB. */
function bytesBoundAbove(bytes: number): number {
  let unit = 1;
  while (bytes / unit >= 1000 && unit < 1024 ** 4) unit *= 1024;
  return roundBoundAbove(bytes / unit) * unit;
}

/** The one sentence for a checkpoint: its worst outlier, or that no subtask stands out. */
export function checkpointFinding(outliers: CheckpointOutlierView[], vertices: CheckpointVertexFigures[]): string {
  if (outliers.length > 0) return outliers[0].sentence;
  const hasSubtasks = vertices.some((v) => v.subtasks.some((s) => s.status === 'completed'));
  if (!hasSubtasks) return 'No per-subtask details for this checkpoint: no subtask can be compared with its siblings.';
  let slowest: { vertex: string; index: number; value: number } | undefined;
  for (const v of vertices) {
    for (const s of v.subtasks) {
      if (s.startDelayMs !== null && (!slowest || s.startDelayMs > slowest.value)) slowest = { vertex: v.name, index: s.index, value: s.startDelayMs };
    }
  }
  const detail = slowest ? `; the longest start delay was ${durationInWords(slowest.value)} (subtask ${slowest.index} of ${shortVertexName(slowest.vertex)})` : '';
  return `No subtask stands out from its siblings${detail}.`;
}
