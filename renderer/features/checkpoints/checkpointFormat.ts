import type { CheckpointView } from '../../../engine/contracts/history';

/** Checkpoint durations keep their tenths where they matter: `12 ms`, `4.1 s`, `38 s`, `2m 05s`; a dash when unknown. */
export function formatMillis(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')} s`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/** A checkpoint's kind as an operator says it: `checkpoint`, `savepoint (canonical)`, `stop-with-savepoint`. */
export function checkpointKind(checkpoint: Pick<CheckpointView, 'isSavepoint' | 'savepointFormat' | 'checkpointType'>): string {
  if (!checkpoint.isSavepoint) return 'checkpoint';
  const format = checkpoint.savepointFormat ? ` (${checkpoint.savepointFormat.toLowerCase()})` : '';
  return checkpoint.checkpointType === 'SYNC_SAVEPOINT' || checkpoint.checkpointType === 'TERMINATE_SAVEPOINT' ? `stop-with-savepoint${format}` : `savepoint${format}`;
}

/** The colour family of a checkpoint's status (badge and chart). */
export function checkpointTone(checkpoint: Pick<CheckpointView, 'status' | 'isSavepoint'>): 'completed' | 'savepoint' | 'failed' | 'in-progress' | 'unknown' {
  if (checkpoint.status === 'FAILED') return 'failed';
  if (checkpoint.status === 'IN_PROGRESS') return 'in-progress';
  if (checkpoint.status !== 'COMPLETED') return 'unknown';
  return checkpoint.isSavepoint ? 'savepoint' : 'completed';
}

/** Chart colours by tone (the theme's: ok green, danger red, pending purple, muted grey). */
export const TONE_COLOR: Record<ReturnType<typeof checkpointTone>, string> = {
  completed: '#3fb950',
  savepoint: '#a371f7',
  failed: '#f85149',
  'in-progress': '#8b949e',
  unknown: '#545e6e',
};

/** A row of the checkpoint charts: one checkpoint, its key unique across JobManager runs. */
export interface CheckpointChartRow {
  key: string;
  label: string;
  id: number;
  triggerTimestamp: number;
  tone: ReturnType<typeof checkpointTone>;
  endToEndDurationMs: number | null;
  checkpointedBytes: number | null;
  stateBytes: number | null;
  processedBytes: number | null;
  persistedBytes: number | null;
}

/**
 * Pure: the checkpoints (oldest first) → chart rows; a failed checkpoint's bar is its time until it failed.
 * Sizes only for a completed checkpoint: Flink's sizes of one in progress (0 B at first) or failed are the part
 * acknowledged so far, and charted they would read as the state dropping. Unknown is a gap in the lines.
 */
export function checkpointChartRows(checkpoints: CheckpointView[]): CheckpointChartRow[] {
  return checkpoints.map((c) => {
    const sized = c.status === 'COMPLETED';
    return {
      key: checkpointKey(c),
      label: `#${c.id}`,
      id: c.id,
      triggerTimestamp: c.triggerTimestamp,
      tone: checkpointTone(c),
      endToEndDurationMs: c.endToEndDurationMs ?? (c.failureTimestamp != null ? Math.max(0, c.failureTimestamp - c.triggerTimestamp) : null),
      checkpointedBytes: sized ? c.checkpointedBytes : null,
      stateBytes: sized ? c.stateBytes : null,
      processedBytes: sized ? c.processedBytes : null,
      persistedBytes: sized ? c.persistedBytes : null,
    };
  });
}

/** Ids start over after a JobManager failover: the trigger time tells two checkpoint 1s apart. */
export function checkpointKey(c: Pick<CheckpointView, 'id' | 'triggerTimestamp'>): string {
  return `${c.triggerTimestamp}-${c.id}`;
}
