import type { endpoints, ResponseOf } from '../flink-rest/endpoints.ts';
import type { StatsSummary } from '../contracts/history.ts';
import type { CheckpointOverview, CheckpointRecord, CheckpointVertexRecord } from '../history/checkpoint-history.ts';
import {
  SUBTASK_ABORTED,
  SUBTASK_ACKNOWLEDGED,
  SUBTASK_FLAGS_UNKNOWN,
  SUBTASK_UNALIGNED,
  emptyCheckpointSubtasks,
  type CheckpointSubtaskColumns,
} from '../history/checkpoint-subtasks.ts';

export type CheckpointingStatistics = ResponseOf<typeof endpoints.jobCheckpoints>;
export type CheckpointStatistics = ResponseOf<typeof endpoints.checkpointDetails>;
export type TaskCheckpointDetails = ResponseOf<typeof endpoints.checkpointSubtaskDetails>;

/** Flink writes -1 for "not yet" (an ack timestamp, a size before the first acknowledgement): no value, not a value. */
function figure(value: number | null | undefined): number | null {
  return value === undefined || value === null || !Number.isFinite(value) || value < 0 ? null : value;
}

/** Statuses after which a checkpoint's statistics no longer change. */
export function isSettled(status: string): boolean {
  return status === 'COMPLETED' || status === 'FAILED';
}

/** Pure: one entry of `/checkpoints` (or `/checkpoints/details/:id`) → the history's record, keeping what the store already knew. */
export function toCheckpointRecord(wire: CheckpointStatistics, seenAt: number, known?: CheckpointRecord): CheckpointRecord {
  const isSavepoint = wire.is_savepoint ?? false;
  return {
    id: wire.id,
    status: wire.status,
    isSavepoint,
    savepointFormat: wire.savepointFormat ?? null,
    checkpointType: wire.checkpoint_type ?? (isSavepoint ? 'SAVEPOINT' : 'CHECKPOINT'),
    triggerTimestamp: wire.trigger_timestamp,
    latestAckTimestamp: figure(wire.latest_ack_timestamp),
    endToEndDurationMs: figure(wire.end_to_end_duration),
    checkpointedBytes: figure(wire.checkpointed_size),
    stateBytes: figure(wire.state_size),
    alignmentBufferedBytes: figure(wire.alignment_buffered),
    processedBytes: figure(wire.processed_data),
    persistedBytes: figure(wire.persisted_data),
    numSubtasks: wire.num_subtasks ?? 0,
    numAcknowledgedSubtasks: wire.num_acknowledged_subtasks ?? 0,
    externalPath: wire.external_path ?? null,
    discarded: wire.discarded ?? null,
    failureTimestamp: figure(wire.failure_timestamp),
    failureMessage: wire.failure_message ?? null,
    ...(known?.vertices && { vertices: known.vertices }),
    ...(known?.detailsUnavailable !== undefined && { detailsUnavailable: known.detailsUnavailable }),
    firstSeenAt: known?.firstSeenAt ?? seenAt,
    updatedAt: seenAt,
  };
}

/** Whether `next` says something `known` did not (a sample that repeats the same figures writes nothing). */
export function recordChanged(known: CheckpointRecord | undefined, next: CheckpointRecord): boolean {
  if (!known) return true;
  const { updatedAt: _a, firstSeenAt: _b, vertices: _c, detailsUnavailable: _d, ...before } = known;
  const { updatedAt: _e, firstSeenAt: _f, vertices: _g, detailsUnavailable: _h, ...after } = next;
  return JSON.stringify(before) !== JSON.stringify(after);
}

/** Pure: the `tasks` of `/checkpoints/details/:id` → one record per vertex. */
export function toCheckpointVertexRecords(details: CheckpointStatistics): CheckpointVertexRecord[] {
  return Object.entries(details.tasks ?? {}).map(([vertexId, task]) => ({
    vertexId,
    status: task.status,
    latestAckTimestamp: figure(task.latest_ack_timestamp),
    endToEndDurationMs: figure(task.end_to_end_duration),
    checkpointedBytes: figure(task.checkpointed_size),
    stateBytes: figure(task.state_size),
    alignmentBufferedBytes: figure(task.alignment_buffered),
    processedBytes: figure(task.processed_data),
    persistedBytes: figure(task.persisted_data),
    numSubtasks: task.num_subtasks,
    numAcknowledgedSubtasks: task.num_acknowledged_subtasks,
  }));
}

/** Pure: `/checkpoints/details/:id/subtasks/:vertexid` → the vertex's subtasks as columns (NaN where Flink gives nothing). */
export function toCheckpointSubtaskColumns(details: TaskCheckpointDetails): CheckpointSubtaskColumns {
  const n = Math.max(details.num_subtasks, ...details.subtasks.map((s) => s.index + 1));
  const columns = emptyCheckpointSubtasks(n);
  const f = columns.figures;
  const set = (column: Float64Array, k: number, value: number | null | undefined) => {
    const v = figure(value);
    if (v !== null) column[k] = v;
  };
  for (const s of details.subtasks) {
    const k = s.index;
    if (k < 0 || k >= n) continue;
    let flags = s.status === 'completed' ? SUBTASK_ACKNOWLEDGED : 0;
    if (s.unaligned_checkpoint === undefined && s.aborted === undefined) flags |= SUBTASK_FLAGS_UNKNOWN;
    if (s.unaligned_checkpoint) flags |= SUBTASK_UNALIGNED;
    if (s.aborted) flags |= SUBTASK_ABORTED;
    columns.flags[k] = flags;
    set(f.ackTimestamp, k, s.ack_timestamp);
    set(f.endToEndDurationMs, k, s.end_to_end_duration);
    set(f.checkpointedBytes, k, s.checkpointed_size);
    set(f.stateBytes, k, s.state_size);
    set(f.syncDurationMs, k, s.checkpoint?.sync);
    set(f.asyncDurationMs, k, s.checkpoint?.async);
    set(f.alignmentBufferedBytes, k, s.alignment?.buffered);
    set(f.alignmentProcessedBytes, k, s.alignment?.processed);
    set(f.alignmentPersistedBytes, k, s.alignment?.persisted);
    set(f.alignmentDurationMs, k, s.alignment?.duration);
    set(f.startDelayMs, k, s.start_delay);
  }
  return columns;
}

type WireSummary = NonNullable<NonNullable<CheckpointingStatistics['summary']>['end_to_end_duration']>;

function summaryOf(wire: WireSummary | undefined): StatsSummary | null {
  if (!wire) return null;
  const v = (x: number | null | undefined) => (x === undefined ? null : x);
  return { min: v(wire.min), max: v(wire.max), avg: v(wire.avg), p50: v(wire.p50), p90: v(wire.p90), p95: v(wire.p95), p99: v(wire.p99), p999: v(wire.p999) };
}

/** Pure: the job-wide part of `/checkpoints` (counts, summary, the restored checkpoint). */
export function toCheckpointOverview(statistics: CheckpointingStatistics, reportedAt: number): CheckpointOverview {
  const c = statistics.counts;
  const s = statistics.summary;
  const restored = statistics.latest?.restored;
  return {
    counts: { restored: c.restored, total: c.total, inProgress: c.in_progress, completed: c.completed, failed: c.failed },
    summary: {
      endToEndDurationMs: summaryOf(s?.end_to_end_duration),
      checkpointedBytes: summaryOf(s?.checkpointed_size),
      stateBytes: summaryOf(s?.state_size),
      processedBytes: summaryOf(s?.processed_data),
      persistedBytes: summaryOf(s?.persisted_data),
    },
    restored: restored
      ? { id: restored.id, restoreTimestamp: restored.restore_timestamp, isSavepoint: restored.is_savepoint ?? false, externalPath: restored.external_path ?? null }
      : null,
    reportedAt,
  };
}

/** Every checkpoint a `/checkpoints` response names (latest and history), once each. */
export function checkpointsIn(statistics: CheckpointingStatistics): CheckpointStatistics[] {
  const latest = statistics.latest;
  const all = [...(statistics.history ?? []), latest?.completed, latest?.savepoint, latest?.failed].filter((c): c is CheckpointStatistics => !!c);
  const seen = new Set<string>();
  return all.filter((c) => {
    const key = `${c.trigger_timestamp}/${c.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
