import type { z } from 'zod';
import type { RecentCheckpoints, SavepointProgress } from '../contracts/operations.ts';
import type { CheckpointingStatistics, CheckpointStatistics } from '../flink-rest/schemas.ts';
import { savepointBehindFailure, type CheckpointMoment } from './checkpoint-failure.ts';
import { durationInWords } from './in-words.ts';

/**
 * Pure: what a job's checkpoint statistics (`GET /jobs/:id/checkpoints`, `/checkpoints/details/:id`) say about a
 * savepoint while it runs and after: its acknowledged subtasks, how long recent checkpoints took, and the checkpoints
 * it made Flink abandon.
 */

export type CheckpointingStatisticsBody = z.output<typeof CheckpointingStatistics>;
type CheckpointEntry = z.output<typeof CheckpointStatistics>;

/** The console's and the JobManager's clocks may differ by this much (as in savepoint-history.ts). */
const SKEW_MS = 2_000;

export function momentOf(e: CheckpointEntry): CheckpointMoment {
  return {
    id: e.id,
    status: e.status,
    isSavepoint: e.is_savepoint === true,
    checkpointType: e.checkpoint_type ?? (e.is_savepoint ? 'SAVEPOINT' : 'CHECKPOINT'),
    triggerTimestamp: e.trigger_timestamp,
    endToEndDurationMs: e.end_to_end_duration ?? null,
    failureTimestamp: e.failure_timestamp ?? null,
    failureMessage: e.failure_message ?? null,
  };
}

/** A stop's savepoint is a SYNC_SAVEPOINT; a plain savepoint is a SAVEPOINT. */
function isOfKind(e: CheckpointEntry, kind: 'savepoint' | 'stop'): boolean {
  if (e.is_savepoint !== true) return false;
  if (e.checkpoint_type === undefined) return true;
  return kind === 'stop' ? e.checkpoint_type === 'SYNC_SAVEPOINT' : e.checkpoint_type !== 'SYNC_SAVEPOINT';
}

/**
 * The savepoint an operation started at `since` (epoch ms), in flight: the newest IN_PROGRESS savepoint of its kind
 * triggered since then. null when there is none (not triggered yet, already settled, or an older Flink).
 */
export function savepointInFlight(body: CheckpointingStatisticsBody, kind: 'savepoint' | 'stop', since: number, readAt: number): SavepointProgress | null {
  const entry = (body.history ?? [])
    .filter((e) => e.status === 'IN_PROGRESS' && isOfKind(e, kind) && e.trigger_timestamp >= since - SKEW_MS)
    .sort((a, b) => b.id - a.id)[0];
  if (!entry || entry.num_subtasks === undefined || entry.num_acknowledged_subtasks === undefined) return null;
  return {
    checkpointId: entry.id,
    acknowledged: entry.num_acknowledged_subtasks,
    total: entry.num_subtasks,
    triggerTimestamp: entry.trigger_timestamp,
    vertices: null,
    readAt,
  };
}

/** Per vertex, from the savepoint's details (`tasks`), in the order of `vertices` (the job's), named from it. */
export function vertexProgress(details: CheckpointEntry, vertices: ReadonlyArray<{ id: string; name: string }>): NonNullable<SavepointProgress['vertices']> {
  const tasks = details.tasks ?? {};
  const order = new Map(vertices.map((v, i) => [v.id, i]));
  const names = new Map(vertices.map((v) => [v.id, v.name]));
  return Object.entries(tasks)
    .map(([vertexId, t]) => ({ vertexId, name: names.get(vertexId) ?? vertexId, acknowledged: t.num_acknowledged_subtasks, total: t.num_subtasks }))
    .sort((a, b) => (order.get(a.vertexId) ?? Infinity) - (order.get(b.vertexId) ?? Infinity));
}

/**
 * "Savepoint 3 in progress: 1 of 3 subtasks acknowledged; waiting on tenant-cost (0 of 1)." No duration: while it
 * runs, Flink's `end_to_end_duration` is its latest acknowledgement's, not the time so far.
 */
export function describeProgress(p: SavepointProgress, kind: 'savepoint' | 'stop'): string {
  const what = kind === 'stop' ? 'Stop-with-savepoint: savepoint' : 'Savepoint';
  const waiting = (p.vertices ?? []).filter((v) => v.acknowledged < v.total);
  const on = waiting.length > 0 ? `; waiting on ${waiting.slice(0, 3).map((v) => `${v.name} (${v.acknowledged} of ${v.total})`).join(', ')}${waiting.length > 3 ? ` and ${waiting.length - 3} more` : ''}` : '';
  return `${what} ${p.checkpointId} in progress: ${p.acknowledged} of ${p.total} subtasks acknowledged${on}.`;
}

/** The savepoint an operation ended with, by its path (the poll's `location`), in the history. */
export function savepointByPath(body: CheckpointingStatisticsBody, path: string): CheckpointEntry | null {
  const all = [...(body.history ?? []), ...(body.latest?.savepoint ? [body.latest.savepoint] : [])];
  return all.find((e) => e.is_savepoint === true && e.external_path === path) ?? null;
}

/**
 * The checkpoints the savepoint `savepointId` made Flink abandon (a stop suspends periodic checkpointing; a
 * savepoint's barrier overtakes an aligning checkpoint), in a sentence for the operation's result; null if none.
 */
export function abandonedCheckpointsNote(body: CheckpointingStatisticsBody, savepointId: number): string | null {
  const moments = [...(body.history ?? []), ...(body.latest?.failed ? [body.latest.failed] : [])].map(momentOf);
  const seen = new Set<number>();
  const abandoned = moments.filter((m) => {
    if (seen.has(m.id)) return false;
    seen.add(m.id);
    return savepointBehindFailure(m, moments)?.savepoint.id === savepointId;
  });
  if (abandoned.length === 0) return null;
  const stop = moments.find((m) => m.id === savepointId)?.checkpointType === 'SYNC_SAVEPOINT';
  const which = abandoned.map((m) => m.id).join(', ');
  const plural = abandoned.length > 1;
  const message = abandoned[0].failureMessage;
  return `Checkpoint${plural ? 's' : ''} ${which}, in flight when the ${stop ? 'stop' : 'savepoint'} began, ${plural ? 'were' : 'was'} abandoned by it (Flink marks ${plural ? 'them' : 'it'} FAILED: "${message}"): expected, not a fault.`;
}

/**
 * How long the job's recent checkpoints took, for a savepoint's confirmation: the completed entries of the history
 * (Flink keeps the last `web.checkpoints.history`, 10 by default), p50 from Flink's summary when it has one. With
 * nothing completed yet, the sentence says so.
 */
export function recentCheckpoints(body: CheckpointingStatisticsBody): RecentCheckpoints {
  const durations = (body.history ?? [])
    .filter((e) => e.status === 'COMPLETED' && e.end_to_end_duration !== undefined && e.end_to_end_duration >= 0)
    .map((e) => e.end_to_end_duration!)
    .sort((a, b) => a - b);
  const stopNote =
    'Stopping suspends periodic checkpointing: a checkpoint in flight when the stop begins is abandoned and shows as FAILED ("Checkpoint Coordinator is suspending."). That is expected.';
  const inFlight = (body.history ?? []).find((e) => e.status === 'IN_PROGRESS');
  const now =
    inFlight && inFlight.num_subtasks !== undefined
      ? ` ${inFlight.is_savepoint ? 'Savepoint' : 'Checkpoint'} ${inFlight.id} is in flight now (${inFlight.num_acknowledged_subtasks ?? 0} of ${inFlight.num_subtasks} subtasks acknowledged).`
      : '';
  if (durations.length === 0) {
    return { completed: 0, minMs: null, maxMs: null, p50Ms: null, sentence: `No recent checkpoint of this job has completed, so how long the savepoint will take is not known.${now}`, stopNote };
  }
  const minMs = durations[0];
  const maxMs = durations[durations.length - 1];
  const p50Ms = body.summary?.end_to_end_duration?.p50 ?? durations[Math.floor((durations.length - 1) / 2)];
  const range = rangeInWords(minMs, maxMs);
  const head = durations.length === 1 ? `The last checkpoint took ${range}` : `Recent checkpoints took ${range} (p50 ${durationInWords(p50Ms)}, last ${durations.length})`;
  return { completed: durations.length, minMs, maxMs, p50Ms, sentence: `${head}: this savepoint will likely take about as long, under backpressure longer.${now}`, stopNote };
}

/** "19–21 s", "850 ms–4.1 s", "7.1 s". */
function rangeInWords(minMs: number, maxMs: number): string {
  const [low, high] = [durationInWords(minMs), durationInWords(maxMs)];
  if (low === high) return low;
  const unit = (words: string) => /^[\d.]+ (ms|s)$/.exec(words)?.[1];
  return unit(low) !== undefined && unit(low) === unit(high) ? `${low.replace(/ \w+$/, '')}–${high}` : `${low}–${high}`;
}
