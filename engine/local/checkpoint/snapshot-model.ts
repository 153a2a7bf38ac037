import type { KeyGroupRange } from '../../analysis/key-groups/key-group-range-assignment.ts';
import type { Namespace, StateKey } from '../state/state-table.ts';
import type { CheckpointKind } from './checkpoint-stats-tracker.ts';

/**
 * What a checkpoint or savepoint holds, independent of how it is stored: keyed state one key group at a time (state
 * entries and timers, as E3's `StateTable` / `TimerQueue` hold them per key group), and operator (non-keyed) state per
 * subtask as named lists with Flink's redistribution modes. Plain data; values must be JSON-encodable with
 * `json-codec.ts` (Map, Set, bigint and non-finite numbers are fine).
 */

/** One entry of a keyed state in one key group: `(state, key[, namespace]) → value`. */
export interface KeyedStateEntry {
  stateName: string;
  key: StateKey;
  /** Present for namespaced (window) state only; absent means the state is not namespaced. */
  namespace?: Namespace;
  value: unknown;
  /** Last-access timestamp of a TTL state, when the value is stored unwrapped. */
  ttlTimestamp?: number;
}

/** A registered timer of a keyed operator (`TimerHeapInternalTimer`), in a named timer service. */
export interface TimerEntry {
  /** The timer service (Flink names them, e.g. "window-timers", "user-timers"). */
  service: string;
  domain: 'EVENT_TIME' | 'PROCESSING_TIME';
  timestamp: number;
  key: StateKey;
  namespace: Namespace;
}

/** Everything of one operator in one key group. */
export interface KeyGroupSnapshot {
  entries: KeyedStateEntry[];
  timers: TimerEntry[];
}

/** `OperatorStateHandle.Mode`: how a list state is redistributed when the parallelism changes. */
export type OperatorStateMode = 'SPLIT_DISTRIBUTE' | 'UNION' | 'BROADCAST';

/** One named operator state of one subtask: a list of partitions (e.g. source splits with their offsets). */
export interface NamedOperatorState {
  mode: OperatorStateMode;
  partitions: unknown[];
}

/** The operator (non-keyed) state of one subtask: state name → list. */
export type OperatorStateSnapshot = Record<string, NamedOperatorState>;

/** `_metadata`'s format marker and version. */
export const METADATA_FORMAT = 'flink-ops-local-engine/checkpoint-metadata';
export const METADATA_VERSION = 1;
/** The metadata file of a completed checkpoint or savepoint (Flink's `_metadata`). */
export const METADATA_FILE_NAME = '_metadata';

export interface KeyedStateFileRef {
  keyGroup: number;
  /** Relative to the checkpoint folder. */
  file: string;
  bytes: number;
  entries: number;
  timers: number;
}

export interface OperatorStateFileRef {
  subtask: number;
  file: string;
  bytes: number;
  /** Names of the states in the file. */
  states: string[];
}

/** One operator in a snapshot: how it ran and where its state is. */
export interface OperatorSnapshotMetadata {
  /** Flink's OperatorID: 32 hex (the local engine derives it from the uid as Flink does). */
  operatorId: string;
  uid?: string;
  name?: string;
  parallelism: number;
  maxParallelism: number;
  /** The key-group range of each subtask when the snapshot was taken (keyed operators). */
  keyGroupRanges?: KeyGroupRange[];
  keyedState: KeyedStateFileRef[];
  operatorState: OperatorStateFileRef[];
}

export interface SnapshotMetadata {
  format: typeof METADATA_FORMAT;
  version: typeof METADATA_VERSION;
  jobId: string;
  checkpointId: number;
  triggerTimestamp: number;
  completedTimestamp: number;
  isSavepoint: boolean;
  checkpointType: CheckpointKind;
  /** Savepoints are written in Flink's CANONICAL format; checkpoints use the same layout here. */
  snapshotFormat: 'CANONICAL';
  operators: OperatorSnapshotMetadata[];
  totalBytes: number;
}

/** Whether an operator in a snapshot has any state (Flink's `OperatorSubtaskState.hasState`). */
export function operatorHasState(op: OperatorSnapshotMetadata): boolean {
  return op.keyedState.some((f) => f.entries > 0 || f.timers > 0) || op.operatorState.some((f) => f.states.length > 0);
}

const HEX32 = /^[0-9a-f]{32}$/;

/**
 * Checks a parsed `_metadata` document; returns the problems found (empty when valid), each naming the field.
 */
export function metadataProblems(doc: unknown): string[] {
  const problems: string[] = [];
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return ['the document is not a JSON object'];
  const m = doc as Record<string, unknown>;
  if (m.format !== METADATA_FORMAT) problems.push(`"format" is ${JSON.stringify(m.format)}, expected "${METADATA_FORMAT}"`);
  if (m.version !== METADATA_VERSION) problems.push(`"version" is ${JSON.stringify(m.version)}, this engine reads version ${METADATA_VERSION}`);
  if (typeof m.jobId !== 'string' || !HEX32.test(m.jobId)) problems.push('"jobId" must be 32 lower-case hex characters');
  for (const k of ['checkpointId', 'triggerTimestamp', 'completedTimestamp', 'totalBytes']) {
    if (!Number.isInteger(m[k]) || (m[k] as number) < 0) problems.push(`"${k}" must be a whole number >= 0`);
  }
  if (typeof m.isSavepoint !== 'boolean') problems.push('"isSavepoint" must be true or false');
  if (!Array.isArray(m.operators)) {
    problems.push('"operators" must be a list');
    return problems;
  }
  m.operators.forEach((raw, i) => {
    const at = `operators[${i}]`;
    if (typeof raw !== 'object' || raw === null) {
      problems.push(`${at} is not an object`);
      return;
    }
    const op = raw as Record<string, unknown>;
    if (typeof op.operatorId !== 'string' || !HEX32.test(op.operatorId)) problems.push(`${at}.operatorId must be 32 lower-case hex characters`);
    if (!Number.isInteger(op.parallelism) || (op.parallelism as number) < 1) problems.push(`${at}.parallelism must be >= 1`);
    if (!Number.isInteger(op.maxParallelism) || (op.maxParallelism as number) < 1) problems.push(`${at}.maxParallelism must be >= 1`);
    if (!Array.isArray(op.keyedState)) problems.push(`${at}.keyedState must be a list`);
    else {
      for (const f of op.keyedState as Array<Record<string, unknown>>) {
        if (!Number.isInteger(f?.keyGroup) || (f.keyGroup as number) < 0 || (f.keyGroup as number) >= (op.maxParallelism as number)) {
          problems.push(`${at}.keyedState has key group ${JSON.stringify(f?.keyGroup)} outside 0..${(op.maxParallelism as number) - 1}`);
        }
        if (typeof f?.file !== 'string') problems.push(`${at}.keyedState entry without "file"`);
      }
    }
    if (!Array.isArray(op.operatorState)) problems.push(`${at}.operatorState must be a list`);
    else for (const f of op.operatorState as Array<Record<string, unknown>>) if (typeof f?.file !== 'string') problems.push(`${at}.operatorState entry without "file"`);
  });
  return problems;
}
