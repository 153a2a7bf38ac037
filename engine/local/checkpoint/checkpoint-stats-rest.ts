import type { components } from '../../flink-rest/generated/rest-v1.19.ts';
import { parseFlinkDuration } from '../../flink-rest/duration.ts';
import type { CheckpointKind, CheckpointStats, CheckpointStatsView, SavepointFormat, TaskCheckpointStats } from './checkpoint-stats-tracker.ts';
import { zeroStatsSummary, type StatsSummaryWire } from './stats-summary.ts';

/**
 * The checkpoint endpoints' bodies exactly as Flink 2.2.1 writes them (field names, order, nulls, "NaN"s), from a
 * {@link CheckpointStatsView}:
 * - `GET /jobs/:jobid/checkpoints` (`CheckpointingStatisticsHandler`: history entries without `tasks`),
 * - `GET /jobs/:jobid/checkpoints/details/:checkpointid` (`CheckpointStatisticDetailsHandler`: with `tasks`),
 * - `GET /jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid` (`TaskCheckpointStatisticDetailsHandler`),
 * - `GET /jobs/:jobid/checkpoints/config` (`CheckpointConfigHandler`).
 * Each returns `{status: 200, body}` or `{status: 404, message}` with Flink's message; the server wraps the message in
 * its `{"errors": [...]}` body. Shapes were checked against a real 2.2.1 (testdata/real-2.2.1/) and the spec.
 */

type S = components['schemas'];

/** Compile-time guard: every field of a wire type exists in the spec type (no invented names). */
type KeysIn<Wire, Spec> = Exclude<keyof Wire, keyof Spec> extends never ? true : { unknownFields: Exclude<keyof Wire, keyof Spec> };
const keysIn = <Wire, Spec>(ok: KeysIn<Wire, Spec>): KeysIn<Wire, Spec> => ok;

export type RestResult<T> = { status: 200; body: T } | { status: 404; message: string };

/** `TaskCheckpointStatistics` (the `tasks` map of a checkpoint's details). */
export interface TaskCheckpointStatisticsWire {
  id: number;
  status: S['CheckpointStatsStatus'];
  latest_ack_timestamp: number;
  checkpointed_size: number;
  state_size: number;
  end_to_end_duration: number;
  alignment_buffered: number;
  processed_data: number;
  persisted_data: number;
  num_subtasks: number;
  num_acknowledged_subtasks: number;
}

interface CheckpointStatisticsBaseWire {
  id: number;
  status: S['CheckpointStatsStatus'];
  is_savepoint: boolean;
  /** null for checkpoints (Flink writes unset fields as null). */
  savepointFormat: SavepointFormat | null;
  trigger_timestamp: number;
  latest_ack_timestamp: number;
  checkpointed_size: number;
  state_size: number;
  end_to_end_duration: number;
  alignment_buffered: number;
  processed_data: number;
  persisted_data: number;
  num_subtasks: number;
  num_acknowledged_subtasks: number;
  checkpoint_type: CheckpointKind;
  tasks: Record<string, TaskCheckpointStatisticsWire>;
}

export interface CompletedCheckpointStatisticsWire extends CheckpointStatisticsBaseWire {
  className: 'completed';
  external_path: string;
  discarded: boolean;
}

export interface FailedCheckpointStatisticsWire extends CheckpointStatisticsBaseWire {
  className: 'failed';
  failure_timestamp: number;
  failure_message: string;
}

export interface PendingCheckpointStatisticsWire extends CheckpointStatisticsBaseWire {
  className: 'in_progress';
}

export type CheckpointStatisticsWire = CompletedCheckpointStatisticsWire | FailedCheckpointStatisticsWire | PendingCheckpointStatisticsWire;

export interface CheckpointingStatisticsWire {
  counts: { restored: number; total: number; in_progress: number; completed: number; failed: number };
  summary: {
    checkpointed_size: StatsSummaryWire;
    state_size: StatsSummaryWire;
    end_to_end_duration: StatsSummaryWire;
    alignment_buffered: StatsSummaryWire;
    processed_data: StatsSummaryWire;
    persisted_data: StatsSummaryWire;
  };
  latest: {
    completed: CompletedCheckpointStatisticsWire | null;
    savepoint: CompletedCheckpointStatisticsWire | null;
    failed: FailedCheckpointStatisticsWire | null;
    restored: { id: number; restore_timestamp: number; is_savepoint: boolean; external_path: string } | null;
  };
  history: CheckpointStatisticsWire[];
}

export type SubtaskCheckpointStatisticsWire =
  | {
      className: 'completed';
      index: number;
      ack_timestamp: number;
      end_to_end_duration: number;
      checkpointed_size: number;
      state_size: number;
      checkpoint: { sync: number; async: number };
      alignment: { buffered: number; processed: number; persisted: number; duration: number };
      start_delay: number;
      unaligned_checkpoint: boolean;
      aborted: boolean;
      status: 'completed';
    }
  | { className: 'pending'; index: number; status: 'pending_or_failed' };

export interface TaskCheckpointStatisticsWithSubtaskDetailsWire extends TaskCheckpointStatisticsWire {
  summary: {
    checkpointed_size: StatsSummaryWire;
    state_size: StatsSummaryWire;
    end_to_end_duration: StatsSummaryWire;
    checkpoint_duration: { sync: StatsSummaryWire; async: StatsSummaryWire };
    alignment: { buffered: StatsSummaryWire; processed: StatsSummaryWire; persisted: StatsSummaryWire; duration: StatsSummaryWire };
    start_delay: StatsSummaryWire;
  };
  subtasks: SubtaskCheckpointStatisticsWire[];
}

/** `CheckpointConfigInfo` on the wire (`mode` is lower case there, unlike the spec's enum). */
export interface CheckpointConfigWire {
  mode: 'exactly_once' | 'at_least_once';
  interval: number;
  timeout: number;
  min_pause: number;
  max_concurrent: number;
  externalization: { enabled: boolean; delete_on_cancellation: boolean };
  state_backend: string;
  checkpoint_storage: string;
  unaligned_checkpoints: boolean;
  tolerable_failed_checkpoints: number;
  aligned_checkpoint_timeout: number;
  checkpoints_after_tasks_finish: boolean;
  state_changelog_enabled: boolean;
  changelog_periodic_materialization_interval: number;
  changelog_storage: string;
}

// Field names checked against the generated spec types at compile time.
keysIn<TaskCheckpointStatisticsWire, S['TaskCheckpointStatistics']>(true);
keysIn<CompletedCheckpointStatisticsWire, S['CompletedCheckpointStatistics']>(true);
keysIn<FailedCheckpointStatisticsWire, S['FailedCheckpointStatistics']>(true);
keysIn<PendingCheckpointStatisticsWire, S['PendingCheckpointStatistics']>(true);
keysIn<CheckpointingStatisticsWire, S['CheckpointingStatistics']>(true);
keysIn<CheckpointingStatisticsWire['counts'], S['Counts']>(true);
keysIn<CheckpointingStatisticsWire['summary'], S['CheckpointStatisticsSummary']>(true);
keysIn<CheckpointingStatisticsWire['latest'], S['LatestCheckpoints']>(true);
keysIn<NonNullable<CheckpointingStatisticsWire['latest']['restored']>, S['RestoredCheckpointStatistics']>(true);
keysIn<StatsSummaryWire, S['StatsSummaryDto']>(true);
keysIn<TaskCheckpointStatisticsWithSubtaskDetailsWire, S['TaskCheckpointStatisticsWithSubtaskDetails']>(true);
keysIn<TaskCheckpointStatisticsWithSubtaskDetailsWire['summary'], S['TaskCheckpointStatisticsWithSubtaskDetailsSummary']>(true);
keysIn<Extract<SubtaskCheckpointStatisticsWire, { className: 'completed' }>, S['CompletedSubtaskCheckpointStatistics']>(true);
keysIn<CheckpointConfigWire, S['CheckpointConfigInfo']>(true);

function taskWire(checkpoint: CheckpointStats, task: TaskCheckpointStats): TaskCheckpointStatisticsWire {
  return {
    id: checkpoint.checkpointId,
    status: checkpoint.status,
    latest_ack_timestamp: task.latestAckTimestamp,
    checkpointed_size: task.checkpointedSize,
    state_size: task.stateSize,
    end_to_end_duration: task.endToEndDuration(checkpoint.triggerTimestamp),
    alignment_buffered: 0,
    processed_data: task.processedData,
    persisted_data: task.persistedData,
    num_subtasks: task.parallelism,
    num_acknowledged_subtasks: task.numAcknowledged,
  };
}

/** `CheckpointStatistics.generateCheckpointStatistics(stats, includeTasks)`. */
export function checkpointStatisticsWire(c: CheckpointStats, includeTasks: boolean): CheckpointStatisticsWire {
  const tasks: Record<string, TaskCheckpointStatisticsWire> = {};
  if (includeTasks) for (const [vertexId, task] of c.tasks) tasks[vertexId] = taskWire(c, task);
  const base = {
    id: c.checkpointId,
    status: c.status,
    is_savepoint: c.isSavepoint,
    savepointFormat: c.savepointFormat ?? null,
    trigger_timestamp: c.triggerTimestamp,
    latest_ack_timestamp: c.latestAckTimestamp,
    checkpointed_size: c.checkpointedSize,
    state_size: c.stateSize,
    end_to_end_duration: c.endToEndDuration,
    alignment_buffered: 0,
    processed_data: c.processedData,
    persisted_data: c.persistedData,
    num_subtasks: c.numSubtasks,
    num_acknowledged_subtasks: c.numAcknowledged,
    checkpoint_type: c.kind,
    tasks,
  };
  if (c.status === 'COMPLETED') return { className: 'completed', ...base, external_path: c.externalPath!, discarded: c.discarded };
  if (c.status === 'FAILED') return { className: 'failed', ...base, failure_timestamp: c.failureTimestamp!, failure_message: c.failureMessage! };
  return { className: 'in_progress', ...base };
}

/** `GET /jobs/:jobid/checkpoints`; `view` undefined = checkpointing disabled for the job. */
export function renderCheckpointingStatistics(view: CheckpointStatsView | undefined): RestResult<CheckpointingStatisticsWire> {
  if (!view) return { status: 404, message: 'Checkpointing has not been enabled.' };
  const completed = view.latestCompleted();
  const savepoint = view.latestSavepoint();
  const failed = view.latestFailed();
  const restored = view.latestRestored();
  const s = view.summary;
  return {
    status: 200,
    body: {
      counts: {
        restored: view.counts.restored,
        total: view.counts.total,
        in_progress: view.counts.inProgress,
        completed: view.counts.completed,
        failed: view.counts.failed,
      },
      summary: {
        checkpointed_size: s.checkpointedSize.toWire(),
        state_size: s.stateSize.toWire(),
        end_to_end_duration: s.endToEndDuration.toWire(),
        alignment_buffered: zeroStatsSummary(),
        processed_data: s.processedData.toWire(),
        persisted_data: s.persistedData.toWire(),
      },
      latest: {
        completed: completed ? (checkpointStatisticsWire(completed, false) as CompletedCheckpointStatisticsWire) : null,
        savepoint: savepoint ? (checkpointStatisticsWire(savepoint, false) as CompletedCheckpointStatisticsWire) : null,
        failed: failed ? (checkpointStatisticsWire(failed, false) as FailedCheckpointStatisticsWire) : null,
        restored: restored
          ? { id: restored.checkpointId, restore_timestamp: restored.restoreTimestamp, is_savepoint: restored.isSavepoint, external_path: restored.externalPath }
          : null,
      },
      history: view.history().map((c) => checkpointStatisticsWire(c, false)),
    },
  };
}

function notFoundCheckpoint(checkpointId: number): { status: 404; message: string } {
  return { status: 404, message: `Could not find checkpointing statistics for checkpoint ${checkpointId}.` };
}

/** `GET /jobs/:jobid/checkpoints/details/:checkpointid`. */
export function renderCheckpointDetails(view: CheckpointStatsView | undefined, checkpointId: number): RestResult<CheckpointStatisticsWire> {
  if (!view) return { status: 404, message: 'Checkpointing has not been enabled.' };
  const c = view.byId(checkpointId);
  if (!c) return notFoundCheckpoint(checkpointId);
  return { status: 200, body: checkpointStatisticsWire(c, true) };
}

/** `GET /jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid`. */
export function renderTaskCheckpointDetails(
  view: CheckpointStatsView | undefined,
  checkpointId: number,
  vertexId: string,
): RestResult<TaskCheckpointStatisticsWithSubtaskDetailsWire> {
  if (!view) return { status: 404, message: 'Checkpointing has not been enabled.' };
  const c = view.byId(checkpointId);
  if (!c) return notFoundCheckpoint(checkpointId);
  const task = c.tasks.get(vertexId);
  if (!task) return { status: 404, message: `There is no checkpoint statistics for task ${vertexId}.` };
  const trigger = c.triggerTimestamp;
  const ack = task.summary.ackTimestamp;
  const subtasks: SubtaskCheckpointStatisticsWire[] = task.subtasks.map((r, index) =>
    r === undefined
      ? { className: 'pending', index, status: 'pending_or_failed' }
      : {
          className: 'completed',
          index,
          ack_timestamp: r.ackTimestamp,
          end_to_end_duration: Math.max(0, r.ackTimestamp - trigger),
          checkpointed_size: r.checkpointedSize,
          state_size: r.stateSize,
          checkpoint: { sync: r.syncDurationMs, async: r.asyncDurationMs },
          alignment: { buffered: 0, processed: r.processedData, persisted: r.persistedData, duration: r.alignmentDurationMs },
          start_delay: r.startDelayMs,
          unaligned_checkpoint: r.unalignedCheckpoint ?? false,
          aborted: !(r.completed ?? true),
          status: 'completed',
        },
  );
  const s = task.summary;
  return {
    status: 200,
    body: {
      ...taskWire(c, task),
      summary: {
        checkpointed_size: s.checkpointedSize.toWire(),
        state_size: s.stateSize.toWire(),
        // Flink derives it from the ack timestamps: max(0, ack stat − trigger) for min, max and (truncated) avg.
        end_to_end_duration: {
          ...ack.toWire(),
          min: Math.max(0, ack.min - trigger),
          max: Math.max(0, ack.max - trigger),
          avg: Math.max(0, ack.average - trigger),
        },
        checkpoint_duration: { sync: s.syncDuration.toWire(), async: s.asyncDuration.toWire() },
        alignment: {
          buffered: zeroStatsSummary(),
          processed: s.processedData.toWire(),
          persisted: s.persistedData.toWire(),
          duration: s.alignmentDuration.toWire(),
        },
        start_delay: s.startDelay.toWire(),
      },
      subtasks,
    },
  };
}

/** `execution.checkpointing.externalized-checkpoint-retention`. */
export type CheckpointRetention = 'NO_EXTERNALIZED_CHECKPOINTS' | 'RETAIN_ON_CANCELLATION' | 'DELETE_ON_CANCELLATION';

/** A job's checkpointing configuration (Flink 2.x keys in the comments; 1.x keys are read too). */
export interface CheckpointingConfig {
  /** `execution.checkpointing.interval` (ms). */
  intervalMs: number;
  /** `execution.checkpointing.timeout`. @default 600000 (10 min) */
  timeoutMs: number;
  /** `execution.checkpointing.min-pause`. @default 0 */
  minPauseMs: number;
  /** `execution.checkpointing.max-concurrent-checkpoints`. @default 1 */
  maxConcurrent: number;
  /** `execution.checkpointing.mode`. @default 'EXACTLY_ONCE' */
  mode: 'EXACTLY_ONCE' | 'AT_LEAST_ONCE';
  /** `execution.checkpointing.externalized-checkpoint-retention`. @default 'NO_EXTERNALIZED_CHECKPOINTS' */
  retention: CheckpointRetention;
  /** `execution.checkpointing.unaligned.enabled`. @default false */
  unaligned: boolean;
  /** `execution.checkpointing.aligned-checkpoint-timeout` (ms). @default 0 */
  alignedCheckpointTimeoutMs: number;
  /** `execution.checkpointing.tolerable-failed-checkpoints`. @default 0 */
  tolerableFailedCheckpoints: number;
  /** `execution.checkpointing.checkpoints-after-tasks-finish`. @default true */
  checkpointsAfterTasksFinish: boolean;
  /** `execution.checkpointing.num-retained` (1.x `state.checkpoints.num-retained`). @default 1 */
  numRetained: number;
  /** `execution.checkpointing.dir` (1.x `state.checkpoints.dir`). */
  directory?: string;
  /** `execution.checkpointing.savepoint-dir` (1.x `state.savepoints.dir`). */
  savepointDirectory?: string;
}

/** Defaults of Flink 2.x for everything but the interval. */
export const CHECKPOINTING_DEFAULTS: Omit<CheckpointingConfig, 'intervalMs'> = {
  timeoutMs: 600_000,
  minPauseMs: 0,
  maxConcurrent: 1,
  mode: 'EXACTLY_ONCE',
  retention: 'NO_EXTERNALIZED_CHECKPOINTS',
  unaligned: false,
  alignedCheckpointTimeoutMs: 0,
  tolerableFailedCheckpoints: 0,
  checkpointsAfterTasksFinish: true,
  numRetained: 1,
};

/** An invalid checkpointing option: names the key and the fix. */
export class CheckpointConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointConfigError';
  }
}

/**
 * Reads checkpointing from Flink configuration entries (`config.yaml` / `flinkConfiguration` keys). Returns undefined
 * when no interval is set (checkpointing disabled). Throws {@link CheckpointConfigError} naming the key on bad values.
 */
export function parseCheckpointingConfig(conf: Readonly<Record<string, string>>): CheckpointingConfig | undefined {
  const get = (...keys: string[]): [string, string] | undefined => {
    for (const k of keys) if (conf[k] !== undefined) return [k, conf[k]];
    return undefined;
  };
  const duration = (keys: string[], fallback: number): number => {
    const found = get(...keys);
    if (!found) return fallback;
    const ms = parseFlinkDuration(found[1]);
    if (ms === null || ms < 0) throw new CheckpointConfigError(`${found[0]}: "${found[1]}" is not a duration; write e.g. "10 s", "1 min" or milliseconds.`);
    return ms;
  };
  const int = (keys: string[], fallback: number, min: number): number => {
    const found = get(...keys);
    if (!found) return fallback;
    const n = Number(found[1]);
    if (!(Number.isInteger(n) && n >= min)) throw new CheckpointConfigError(`${found[0]}: "${found[1]}" must be a whole number >= ${min}.`);
    return n;
  };
  const bool = (keys: string[], fallback: boolean): boolean => {
    const found = get(...keys);
    if (!found) return fallback;
    const v = found[1].trim().toLowerCase();
    if (v !== 'true' && v !== 'false') throw new CheckpointConfigError(`${found[0]}: "${found[1]}" must be true or false.`);
    return v === 'true';
  };
  const interval = get('execution.checkpointing.interval');
  if (!interval) return undefined;
  const intervalMs = duration(['execution.checkpointing.interval'], 0);
  if (intervalMs <= 0) return undefined;
  const d = CHECKPOINTING_DEFAULTS;
  const modeEntry = get('execution.checkpointing.mode');
  const mode = modeEntry ? modeEntry[1].trim().toUpperCase() : d.mode;
  if (mode !== 'EXACTLY_ONCE' && mode !== 'AT_LEAST_ONCE') throw new CheckpointConfigError(`execution.checkpointing.mode: "${modeEntry![1]}" must be EXACTLY_ONCE or AT_LEAST_ONCE.`);
  const retentionEntry = get('execution.checkpointing.externalized-checkpoint-retention');
  const retention = retentionEntry ? retentionEntry[1].trim().toUpperCase() : d.retention;
  if (!['NO_EXTERNALIZED_CHECKPOINTS', 'RETAIN_ON_CANCELLATION', 'DELETE_ON_CANCELLATION'].includes(retention)) {
    throw new CheckpointConfigError(
      `execution.checkpointing.externalized-checkpoint-retention: "${retentionEntry![1]}" must be NO_EXTERNALIZED_CHECKPOINTS, RETAIN_ON_CANCELLATION or DELETE_ON_CANCELLATION.`,
    );
  }
  return {
    intervalMs,
    timeoutMs: duration(['execution.checkpointing.timeout'], d.timeoutMs),
    minPauseMs: duration(['execution.checkpointing.min-pause'], d.minPauseMs),
    maxConcurrent: int(['execution.checkpointing.max-concurrent-checkpoints'], d.maxConcurrent, 1),
    mode,
    retention: retention as CheckpointRetention,
    unaligned: bool(['execution.checkpointing.unaligned.enabled', 'execution.checkpointing.unaligned'], d.unaligned),
    alignedCheckpointTimeoutMs: duration(['execution.checkpointing.aligned-checkpoint-timeout', 'execution.checkpointing.alignment-timeout'], d.alignedCheckpointTimeoutMs),
    tolerableFailedCheckpoints: int(['execution.checkpointing.tolerable-failed-checkpoints'], d.tolerableFailedCheckpoints, 0),
    checkpointsAfterTasksFinish: bool(
      ['execution.checkpointing.checkpoints-after-tasks-finish', 'execution.checkpointing.checkpoints-after-tasks-finish.enabled'],
      d.checkpointsAfterTasksFinish,
    ),
    numRetained: int(['execution.checkpointing.num-retained', 'state.checkpoints.num-retained'], d.numRetained, 1),
    directory: get('execution.checkpointing.dir', 'state.checkpoints.dir')?.[1],
    savepointDirectory: get('execution.checkpointing.savepoint-dir', 'state.savepoints.dir')?.[1],
  };
}

/** `GET /jobs/:jobid/checkpoints/config`; `config` undefined = checkpointing disabled. */
export function renderCheckpointConfig(jobId: string, config: CheckpointingConfig | undefined): RestResult<CheckpointConfigWire> {
  if (!config) return { status: 404, message: `Checkpointing is not enabled for this job (${jobId}).` };
  return {
    status: 200,
    body: {
      mode: config.mode === 'EXACTLY_ONCE' ? 'exactly_once' : 'at_least_once',
      interval: config.intervalMs,
      timeout: config.timeoutMs,
      min_pause: config.minPauseMs,
      max_concurrent: config.maxConcurrent,
      externalization: {
        enabled: config.retention !== 'NO_EXTERNALIZED_CHECKPOINTS',
        delete_on_cancellation: config.retention === 'DELETE_ON_CANCELLATION',
      },
      state_backend: 'HashMapStateBackend',
      checkpoint_storage: 'FileSystemCheckpointStorage',
      unaligned_checkpoints: config.unaligned,
      tolerable_failed_checkpoints: config.tolerableFailedCheckpoints,
      aligned_checkpoint_timeout: config.alignedCheckpointTimeoutMs,
      checkpoints_after_tasks_finish: config.checkpointsAfterTasksFinish,
      state_changelog_enabled: false,
      changelog_periodic_materialization_interval: 600_000,
      changelog_storage: 'memory',
    },
  };
}

/**
 * The job's checkpoint gauges (`DefaultCheckpointStatsTracker.registerMetrics`) for `GET /jobs/:jobid/metrics`, as
 * metric strings; "-1" / "n/a" until there is a value.
 */
export function jobCheckpointMetrics(view: CheckpointStatsView): Map<string, string> {
  const latest = [view.latestCompleted(), view.latestSavepoint()]
    .filter((c): c is CheckpointStats => c !== undefined)
    .sort((a, b) => b.checkpointId - a.checkpointId)[0];
  const restored = view.latestRestored();
  return new Map([
    ['totalNumberOfCheckpoints', String(view.counts.total)],
    ['numberOfInProgressCheckpoints', String(view.counts.inProgress)],
    ['numberOfCompletedCheckpoints', String(view.counts.completed)],
    ['numberOfFailedCheckpoints', String(view.counts.failed)],
    ['lastCheckpointRestoreTimestamp', String(restored?.restoreTimestamp ?? -1)],
    ['lastCheckpointSize', String(latest?.checkpointedSize ?? -1)],
    ['lastCheckpointFullSize', String(latest?.stateSize ?? -1)],
    ['lastCheckpointDuration', String(latest?.endToEndDuration ?? -1)],
    ['lastCheckpointProcessedData', String(latest?.processedData ?? -1)],
    ['lastCheckpointPersistedData', String(latest?.persistedData ?? -1)],
    ['lastCheckpointExternalPath', latest?.externalPath ?? 'n/a'],
    ['lastCompletedCheckpointId', String(latest?.checkpointId ?? -1)],
  ]);
}
