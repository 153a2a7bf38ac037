import { compareWindows, windowFigures } from '../analysis/before-after.ts';
import type { BeforeAfter, OperationWindowFigures, RehearsedPrediction } from '../contracts/before-after.ts';
import type { JournalEntry } from '../contracts/operations.ts';
import { readJobWindow } from '../diagnosis/read-window.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';

/** How much of the history each side reads: the minutes before the operation, and as long once the job runs again. */
export const BEFORE_AFTER_WINDOW_MS = 2 * 60_000;

/** A rehearsal this long before the operation still counts as its prediction. */
export const PREDICTION_MAX_AGE_MS = 24 * 60 * 60_000;

/** A window's figures need two samples at least (a rate is a difference). */
const MIN_SAMPLES = 2;

/**
 * When the history first saw the job running again after the operation: its first sample since the operation started
 * with the job and every vertex RUNNING, an in-place rescale's vertices at their target parallelism. The history's own
 * time, so both windows are on the clock of the samples.
 */
function firstRunningSample(history: HistoryStore, entry: JournalEntry, jobId: string, now: number): number | null {
  const targets = entry.kind === 'rescale' && jobId === entry.jobId ? (entry.params.parallelism ?? {}) : {};
  for (const head of history.samples.heads(entry.clusterId, jobId, entry.createdAt, now)) {
    if (head.jobState !== 'RUNNING') continue;
    if (head.vertices.every((v) => v.status === 'RUNNING' && (targets[v.id] === undefined || v.parallelism === targets[v.id]))) return head.t;
  }
  return null;
}

/**
 * Before vs after a finished rescale or resubmit (a salted job deployed is a resubmit), from the history: the job's
 * samples over the minutes before the operation started, and over as long once it ran again (the new job's, after a
 * resubmit or a rescale through a savepoint).
 */
export function readBeforeAfter(history: HistoryStore, entry: JournalEntry, now: number, windowMs = BEFORE_AFTER_WINDOW_MS): BeforeAfter {
  if (entry.kind !== 'rescale' && entry.kind !== 'resubmit') throw new EngineError('invalid-input', `A ${entry.kind} changes no figures of the job: before/after compares a rescale or a resubmit.`);
  if (entry.state !== 'succeeded') throw new EngineError('invalid-input', `The ${entry.kind} ${entry.id} has not succeeded (${entry.state}): the job does not run again yet, there is nothing to compare.`);
  const notes: string[] = [];
  const side = (jobId: string | null, from: number, to: number): OperationWindowFigures | null => {
    if (!jobId || !(to > from)) return null;
    const window = readJobWindow(history, entry.clusterId, jobId, from, to);
    if (window.samples < MIN_SAMPLES) return null;
    return windowFigures(window, history.checkpoints.list(entry.clusterId, jobId, window.from, window.to));
  };
  const before = side(entry.jobId, entry.createdAt - windowMs, entry.createdAt);
  if (!before) {
    notes.push(entry.jobId ? `The history has no samples of job ${entry.jobId} in the ${windowMs / 60_000} minutes before the ${entry.kind}: the console did not watch it then.` : 'A first submit: there is no job before it to compare with.');
  }
  const afterJob = entry.newJobId ?? entry.jobId;
  const runningAgainAt = afterJob ? firstRunningSample(history, entry, afterJob, now) : null;
  const afterEnd = runningAgainAt === null ? now : Math.min(now, runningAgainAt + windowMs);
  const after = runningAgainAt === null ? null : side(afterJob, runningAgainAt, afterEnd);
  const complete = runningAgainAt !== null && now >= runningAgainAt + windowMs;
  if (!after) {
    notes.push(
      complete
        ? `The history has no samples of job ${afterJob} in the ${windowMs / 60_000} minutes after it ran again: the console did not watch it then.`
        : `No samples of job ${afterJob} running again yet: the after figures come once the console has sampled it for a while (while its page is open, or pinned).`,
    );
  } else if (!complete) {
    notes.push(`The after window is still filling: ${Math.round((after.to - after.from) / 1000)} s of ${windowMs / 1000} s so far.`);
  }
  const addedStage = entry.kind === 'resubmit' && afterJob !== null && entry.jobId !== null && addsAVertex(history, entry.clusterId, entry.jobId, afterJob, entry.createdAt, now);
  const prediction = entry.jobId ? predictionFor(entry, addedStage, history.rehearsals.list(entry.clusterId, entry.jobId, entry.createdAt - PREDICTION_MAX_AGE_MS, entry.createdAt)) : null;
  return { entryId: entry.id, kind: entry.kind, clusterId: entry.clusterId, startedAt: entry.createdAt, runningAgainAt, before, after, rows: compareWindows(before, after), complete, notes, prediction };
}

/**
 * Pure: the newest rehearsal (newest first in `predictions`) of the change the operation made: a rescale of the
 * rehearsed vertex to the rehearsed parallelism, or, after a rehearsal of salting, a resubmit whose job has a vertex
 * the old one had not (the salted job's first stage); a resubmit of the same shape is not the salting.
 */
export function predictionFor(entry: Pick<JournalEntry, 'kind' | 'params'>, addedStage: boolean, predictions: readonly RehearsedPrediction[]): RehearsedPrediction | null {
  return (
    predictions.find((p) =>
      p.proposal.kind === 'parallelism' ? entry.kind === 'rescale' && entry.params.parallelism?.[p.vertexId] === p.proposal.parallelism : entry.kind === 'resubmit' && addedStage,
    ) ?? null
  );
}

/** The new job, as the history last saw it before `now`, has a vertex (by name) the old job had not. */
function addsAVertex(history: HistoryStore, clusterId: string, oldJob: string, newJob: string, startedAt: number, now: number): boolean {
  const oldNames = new Set(history.samples.heads(clusterId, oldJob, startedAt - PREDICTION_MAX_AGE_MS, startedAt).at(-1)?.vertices.map((v) => v.name) ?? []);
  const newest = history.samples.heads(clusterId, newJob, startedAt, now).at(-1);
  return oldNames.size > 0 && newest !== undefined && newest.vertices.some((v) => !oldNames.has(v.name));
}
