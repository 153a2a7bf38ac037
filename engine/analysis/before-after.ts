import type { JobWindowStats } from './window-stats.ts';
import type { BeforeAfterRow, OperationWindowFigures } from '../contracts/before-after.ts';

/** The figures of a checkpoint the comparison reads (a CheckpointRecord of the history has them). */
export interface CheckpointFigures {
  status: string;
  isSavepoint: boolean;
  triggerTimestamp: number;
  endToEndDurationMs: number | null;
  stateBytes: number | null;
}

const finite = (n: number) => Number.isFinite(n);

/**
 * Pure: the job's figures over one window of the history — the most skewed vertex by busy time, the busiest subtask,
 * the sources' throughput, the completed checkpoints' durations and the last one's state size.
 */
export function windowFigures(window: JobWindowStats, checkpoints: readonly CheckpointFigures[]): OperationWindowFigures {
  let skew: OperationWindowFigures['skew'] = null;
  let busiest: OperationWindowFigures['busiest'] = null;
  const withInput = new Set(window.edges.map((e) => e.target));
  let throughput: number | null = null;
  for (const v of window.vertices) {
    const busy = Array.from(v.mean.busyTimeMsPerSecond);
    const known = busy.filter(finite);
    if (known.length > 0) {
      const max = Math.max(...known);
      const mean = known.reduce((a, b) => a + b, 0) / known.length;
      if (v.parallelism > 1 && mean > 0 && (!skew || max / mean > skew.maxOverMean)) {
        skew = { vertexId: v.id, vertexName: v.name, maxOverMean: max / mean, maxBusyMsPerSecond: max, meanBusyMsPerSecond: mean };
      }
      if (!busiest || max > busiest.busyTimeMsPerSecond) busiest = { vertexId: v.id, vertexName: v.name, subtask: busy.indexOf(max), busyTimeMsPerSecond: max };
    }
    if (!withInput.has(v.id)) {
      const out = Array.from(v.mean.recordsOutPerSecond).filter(finite);
      if (out.length > 0) throughput = (throughput ?? 0) + out.reduce((a, b) => a + b, 0);
    }
  }
  const inWindow = checkpoints
    .filter((c) => c.status === 'COMPLETED' && !c.isSavepoint && c.triggerTimestamp >= window.from && c.triggerTimestamp <= window.to)
    .sort((a, b) => a.triggerTimestamp - b.triggerTimestamp);
  const durations = inWindow.map((c) => c.endToEndDurationMs).filter((d): d is number => d !== null && finite(d));
  const withState = inWindow.filter((c) => c.stateBytes !== null);
  return {
    jobId: window.jobId,
    from: window.from,
    to: window.to,
    samples: window.samples,
    skew,
    busiest,
    throughputRecordsPerSecond: throughput,
    checkpoints: durations.length > 0 ? { count: durations.length, meanDurationMs: durations.reduce((a, b) => a + b, 0) / durations.length, maxDurationMs: Math.max(...durations) } : null,
    stateBytes: withState.at(-1)?.stateBytes ?? null,
  };
}

/** Pure: before vs after, figure by figure, with the ratio after / before. */
export function compareWindows(before: OperationWindowFigures | null, after: OperationWindowFigures | null): BeforeAfterRow[] {
  const row = (figure: BeforeAfterRow['figure'], label: string, unit: BeforeAfterRow['unit'], pick: (f: OperationWindowFigures) => number | null): BeforeAfterRow => {
    const b = before ? pick(before) : null;
    const a = after ? pick(after) : null;
    return { figure, label, unit, before: b, after: a, change: a !== null && b !== null && b !== 0 ? a / b : null };
  };
  return [
    row('skew', 'Skew (max/mean busy of the most skewed vertex)', 'ratio', (f) => f.skew?.maxOverMean ?? null),
    row('busiest', 'Busiest subtask', 'ms/s', (f) => f.busiest?.busyTimeMsPerSecond ?? null),
    row('throughput', 'Throughput (out of the sources)', 'records/s', (f) => f.throughputRecordsPerSecond),
    row('checkpointDuration', 'Checkpoint duration (mean)', 'ms', (f) => f.checkpoints?.meanDurationMs ?? null),
    row('stateSize', 'State size (last checkpoint)', 'bytes', (f) => f.stateBytes),
  ];
}
