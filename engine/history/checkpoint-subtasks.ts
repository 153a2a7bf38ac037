import type { CheckpointSubtaskView } from '../contracts/history.ts';

/**
 * A vertex's subtasks in one checkpoint (`/checkpoints/details/:id/subtasks/:vertexid`): stored as columns (one array
 * per figure, indexed by subtask, NaN = not reported), read as rows by views and analyses. A vertex of parallelism
 * 1,024 stores in ~90 KB and decodes without parsing a number at a time.
 */

/** One subtask's part in a checkpoint, as a row: exactly what the Checkpoints tab shows, so the contract's type. */
export type CheckpointSubtaskRecord = CheckpointSubtaskView;

/** The figures of a subtask's checkpoint statistics, in the order they are stored. */
export const CHECKPOINT_SUBTASK_FIGURES = [
  'ackTimestamp',
  'endToEndDurationMs',
  'checkpointedBytes',
  'stateBytes',
  'syncDurationMs',
  'asyncDurationMs',
  'alignmentBufferedBytes',
  'alignmentProcessedBytes',
  'alignmentPersistedBytes',
  'alignmentDurationMs',
  'startDelayMs',
] as const;
export type CheckpointSubtaskFigure = (typeof CHECKPOINT_SUBTASK_FIGURES)[number];

/** Bits of `CheckpointSubtaskColumns.flags`. */
export const SUBTASK_ACKNOWLEDGED = 1;
export const SUBTASK_UNALIGNED = 2;
export const SUBTASK_ABORTED = 4;
/** The unaligned / aborted flags were not reported (older Flink). */
export const SUBTASK_FLAGS_UNKNOWN = 8;

export interface CheckpointSubtaskColumns {
  figures: Record<CheckpointSubtaskFigure, Float64Array>;
  flags: Uint8Array;
}

/** Empty columns for `parallelism` subtasks: every figure NaN, nothing acknowledged. */
export function emptyCheckpointSubtasks(parallelism: number): CheckpointSubtaskColumns {
  return {
    figures: Object.fromEntries(CHECKPOINT_SUBTASK_FIGURES.map((f) => [f, new Float64Array(parallelism).fill(Number.NaN)])) as Record<CheckpointSubtaskFigure, Float64Array>,
    flags: new Uint8Array(parallelism),
  };
}

/** Columns → rows (plain JSON: what crosses to the UI). */
export function checkpointSubtaskRows(columns: CheckpointSubtaskColumns): CheckpointSubtaskRecord[] {
  const value = (figure: CheckpointSubtaskFigure, k: number): number | null => {
    const v = columns.figures[figure][k];
    return Number.isNaN(v) ? null : v;
  };
  return Array.from(columns.flags, (flags, index) => {
    const known = (flags & SUBTASK_FLAGS_UNKNOWN) === 0;
    return {
      index,
      status: flags & SUBTASK_ACKNOWLEDGED ? 'completed' : 'pending_or_failed',
      ackTimestamp: value('ackTimestamp', index),
      endToEndDurationMs: value('endToEndDurationMs', index),
      checkpointedBytes: value('checkpointedBytes', index),
      stateBytes: value('stateBytes', index),
      syncDurationMs: value('syncDurationMs', index),
      asyncDurationMs: value('asyncDurationMs', index),
      alignmentBufferedBytes: value('alignmentBufferedBytes', index),
      alignmentProcessedBytes: value('alignmentProcessedBytes', index),
      alignmentPersistedBytes: value('alignmentPersistedBytes', index),
      alignmentDurationMs: value('alignmentDurationMs', index),
      startDelayMs: value('startDelayMs', index),
      unaligned: known ? (flags & SUBTASK_UNALIGNED) !== 0 : null,
      aborted: known ? (flags & SUBTASK_ABORTED) !== 0 : null,
    };
  });
}

/**
 * The on-disk form: the subtask count, then the figures' raw bytes in a fixed order (as `sample-codec.ts` does for
 * samples, and for the same reasons).
 *
 *   u32 subtask count | padding to 8 | f64 figure columns | u8 flags
 */
export function encodeCheckpointSubtasks(columns: CheckpointSubtaskColumns): Buffer {
  const n = columns.flags.length;
  const out = Buffer.alloc(8 + n * (8 * CHECKPOINT_SUBTASK_FIGURES.length + 1));
  out.writeUInt32LE(n, 0);
  let at = 8;
  for (const figure of CHECKPOINT_SUBTASK_FIGURES) {
    const column = columns.figures[figure];
    out.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), at);
    at += column.byteLength;
  }
  out.set(columns.flags, at);
  return out;
}

export function decodeCheckpointSubtasks(bytes: Uint8Array): CheckpointSubtaskColumns {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.readUInt32LE(0);
  let at = 8;
  // Copied out: the source may be a view into memory the store reuses.
  const take = (length: number): ArrayBuffer => {
    const buffer = new ArrayBuffer(length);
    new Uint8Array(buffer).set(view.subarray(at, at + length));
    at += length;
    return buffer;
  };
  const figures = Object.fromEntries(CHECKPOINT_SUBTASK_FIGURES.map((f) => [f, new Float64Array(take(8 * n))])) as Record<CheckpointSubtaskFigure, Float64Array>;
  return { figures, flags: new Uint8Array(take(n)) };
}
