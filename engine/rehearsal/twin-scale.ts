import type { RehearsalRun } from '../contracts/rehearsal.ts';
import type { TwinShape } from './twin-scenario.ts';

/**
 * A twin of a busy job runs scaled down: every key's rate and every subtask's capacity times f, a record's cost
 * divided by f, so each subtask is exactly as busy (busy = records × cost) and saturates at the same share of its
 * load; the rates it measures are divided by f again. What the twin can generate in its bounded time sets f. Pure.
 */

/** 1 when production's rate fits the twin, else the factor that brings it to `maxRecordsPerSecond`. */
export function twinScale(totalRecordsPerSecond: number, maxRecordsPerSecond: number): number {
  return totalRecordsPerSecond > maxRecordsPerSecond ? maxRecordsPerSecond / totalRecordsPerSecond : 1;
}

export function scaleShape(shape: TwinShape, f: number): TwinShape {
  if (f === 1) return shape;
  return {
    ...shape,
    recordsPerSecond: Object.fromEntries(Object.entries(shape.recordsPerSecond).map(([key, r]) => [key, r * f])),
    capacityRecordsPerSecond: shape.capacityRecordsPerSecond * f,
    costPerRecordMs: shape.costPerRecordMs / f,
  };
}

/** The run's rates at production's scale (busy and back-pressure are per second of time: unchanged). */
export function unscaleRun(run: RehearsalRun, f: number): RehearsalRun {
  if (f === 1) return run;
  return {
    ...run,
    throughputRecordsPerSecond: run.throughputRecordsPerSecond / f,
    subtasks: run.subtasks.map((s) => ({ ...s, recordsInPerSecond: s.recordsInPerSecond === null ? null : s.recordsInPerSecond / f })),
  };
}
