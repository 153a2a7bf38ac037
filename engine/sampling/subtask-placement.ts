import type { VertexView } from '../contracts/jobs.ts';
import { emptySubtaskColumns, stateCode, subtaskClockMs, type SubtaskColumns, type TaskManagerRef } from '../history/job-sample.ts';
import type { SubtaskFigure, SubtaskFigures } from './subtask-figures.ts';
import type { TaskManagerIndexOf } from './sample-job.ts';

/**
 * Where a vertex's subtasks run and which attempt each is: what a reading from the subtasks' figures cannot tell
 * (see subtask-figures.ts) and the vertex details can. A subtask keeps both until it is deployed again, which shows
 * as a restart (its clock and counters start over) or in the job's vertex (its start time, its task counts), so the
 * vertex details are read once and again only then.
 */
export interface SubtaskPlacement {
  parallelism: number;
  /** The vertex's start time when the placement was read: a redeployment of the whole vertex changes it. */
  startTime: number | undefined;
  attempt: Int32Array;
  /** Per subtask, its TaskManager; null when the details did not say. */
  taskManager: Array<TaskManagerRef | null>;
}

/** Pure: the placement a details reading of a vertex gives (its columns, and the sample's TaskManagers). */
export function placementOf(columns: SubtaskColumns, taskManagers: readonly TaskManagerRef[], startTime: number | undefined): SubtaskPlacement {
  return {
    parallelism: columns.attempt.length,
    startTime,
    attempt: Int32Array.from(columns.attempt),
    taskManager: Array.from(columns.taskManager, (i) => taskManagers[i] ?? null),
  };
}

const RUNNING = 'RUNNING';

/**
 * Pure: whether a placement still describes the vertex as the job's details show it now: the same parallelism and
 * start time, and every subtask RUNNING (a subtask in any other state is being deployed, or is gone: its details say
 * which). Restarts that the job's details do not show are found in the figures (`columnsFromFigures`).
 */
export function placementHolds(placement: SubtaskPlacement, vertex: Pick<VertexView, 'parallelism' | 'startTime' | 'tasks' | 'status'>): boolean {
  return (
    vertex.status === RUNNING &&
    placement.parallelism === vertex.parallelism &&
    placement.startTime === vertex.startTime &&
    (vertex.tasks[RUNNING] ?? 0) === vertex.parallelism &&
    placement.taskManager.every((tm) => tm !== null)
  );
}

/** A subtask's clock may read a little less than before (an idle period accounted late): not a restart. */
const CLOCK_JITTER_MS = 1_000;

const COUNTER_OF: ReadonlyArray<[keyof SubtaskColumns['counters'], SubtaskFigure]> = [
  ['recordsIn', 'numRecordsIn'],
  ['recordsOut', 'numRecordsOut'],
  ['bytesIn', 'numBytesIn'],
  ['bytesOut', 'numBytesOut'],
  ['accumulatedBusyMs', 'accumulateBusyTimeMs'],
  ['accumulatedBackPressuredMs', 'accumulateBackPressuredTimeMs'],
  ['accumulatedIdleMs', 'accumulateIdleTimeMs'],
];

/** Long.MIN_VALUE: Flink's "no watermark yet". */
const NO_WATERMARK = -9223372036854775808;

/**
 * Pure: a reading of a RUNNING vertex from its subtasks' figures and its placement — the same columns its vertex
 * details and watermarks give. A subtask whose clock or counters went back since `previous` was deployed again: it
 * is given the next attempt (no rate is taken across it) and `restarted` says the placement no longer holds.
 */
export function columnsFromFigures(
  figures: SubtaskFigures,
  placement: SubtaskPlacement,
  previous: SubtaskColumns | null | undefined,
  indexOfTaskManager: TaskManagerIndexOf,
): { columns: SubtaskColumns; restarted: boolean } {
  const p = figures.parallelism;
  const columns = emptySubtaskColumns(p);
  const comparable = previous && previous.attempt.length === p ? previous : undefined;
  let restarted = false;
  for (let k = 0; k < p; k++) {
    for (const [column, figure] of COUNTER_OF) {
      const value = figures.values[figure][k];
      if (Number.isFinite(value) && value >= 0) columns.counters[column][k] = value;
    }
    const watermark = figures.values.currentInputWatermark[k];
    if (Number.isFinite(watermark) && watermark > NO_WATERMARK) columns.watermark[k] = watermark;
    columns.attempt[k] = placement.attempt[k];
    if (comparable && comparable.attempt[k] === placement.attempt[k] && wentBack(comparable, columns, k)) {
      columns.attempt[k] = placement.attempt[k] + 1;
      restarted = true;
    }
    columns.state[k] = stateCode(RUNNING);
    const tm = placement.taskManager[k];
    columns.taskManager[k] = tm ? indexOfTaskManager(tm.id, tm.endpoint) : -1;
  }
  return { columns, restarted };
}

function wentBack(before: SubtaskColumns, now: SubtaskColumns, k: number): boolean {
  if (subtaskClockMs(now, k) < subtaskClockMs(before, k) - CLOCK_JITTER_MS) return true;
  for (const column of ['recordsIn', 'recordsOut', 'bytesIn', 'bytesOut'] as const) {
    if (now.counters[column][k] < before.counters[column][k]) return true;
  }
  return false;
}
