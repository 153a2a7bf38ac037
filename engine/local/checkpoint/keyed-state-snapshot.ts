import { keyGroupRangeContains } from '../../analysis/key-groups/key-group-range-assignment.ts';
import type { HeapKeyedStateBackend } from '../state/keyed-state-backend.ts';
import type { TimerQueue } from '../state/timer-service.ts';
import { VOID_NAMESPACE } from '../state/state-table.ts';
import type { KeyGroupSnapshot, KeyedStateEntry, TimerEntry } from './snapshot-model.ts';

/**
 * The bridge between E3's heap keyed state (`HeapKeyedStateBackend` → `StateTable` per state, split by key group;
 * `TimerQueue`s indexed by key group) and the storage's plain per-key-group records. Copy-on-snapshot: the records
 * hold deep copies (`structuredClone`), so the task can keep mutating its state while the files are written, as
 * Flink's heap backend snapshots copy-on-write.
 */

/** The timer queues of one keyed operator, by service name (Flink's `InternalTimeServiceManager`). */
export type TimerServices = ReadonlyMap<string, { eventTime: TimerQueue; processingTime: TimerQueue }>;

/**
 * Copies one key group of a keyed operator: every state entry and timer whose key is in that key group. With
 * `copy: false` the records share the live values: only for a caller that writes them before the task touches its
 * state again (a synchronous write); values that operators mutate in place (assemble's `open`) would otherwise change
 * under the snapshot.
 */
export function snapshotKeyGroup(backend: HeapKeyedStateBackend, timers: TimerServices, keyGroup: number, options: { copy?: boolean } = {}): KeyGroupSnapshot {
  const copy = options.copy ?? true;
  const clone = copy ? <T>(v: T): T => structuredClone(v) : <T>(v: T): T => v;
  if (!keyGroupRangeContains(backend.keyGroupRange, keyGroup)) {
    throw new RangeError(
      `Key group ${keyGroup} is outside this subtask's range [${backend.keyGroupRange.startKeyGroup}, ${backend.keyGroupRange.endKeyGroup}].`,
    );
  }
  const entries: KeyedStateEntry[] = [];
  for (const [name, table] of backend.tables) {
    for (const [key, namespace, value] of table.entriesOf(keyGroup)) {
      entries.push(table.namespaced ? { stateName: name, key, namespace, value: clone(value) } : { stateName: name, key, value: clone(value) });
    }
  }
  const timerEntries: TimerEntry[] = [];
  for (const [service, queues] of timers) {
    for (const t of queues.eventTime.timersOf(keyGroup)) timerEntries.push({ service, domain: 'EVENT_TIME', timestamp: t.timestamp, key: t.key, namespace: t.namespace });
    for (const t of queues.processingTime.timersOf(keyGroup)) timerEntries.push({ service, domain: 'PROCESSING_TIME', timestamp: t.timestamp, key: t.key, namespace: t.namespace });
  }
  return { entries, timers: timerEntries };
}

/**
 * Puts one key group's records into a (fresh) backend and timer queues of the subtask that now owns the key group.
 * A state missing from the backend is created with the namespacing its entries show; timers of a service the
 * operator does not have are an error (the operator must register its timer services before restore).
 */
export function restoreKeyGroup(backend: HeapKeyedStateBackend, timers: TimerServices, keyGroup: number, snapshot: KeyGroupSnapshot): void {
  if (!keyGroupRangeContains(backend.keyGroupRange, keyGroup)) {
    throw new RangeError(
      `Key group ${keyGroup} is not owned by this subtask [${backend.keyGroupRange.startKeyGroup}, ${backend.keyGroupRange.endKeyGroup}]: the restore assignment is wrong.`,
    );
  }
  const index = keyGroup - backend.keyGroupRange.startKeyGroup;
  for (const e of snapshot.entries) {
    const table = backend.table<unknown>(e.stateName, e.namespace !== undefined);
    table.put(index, e.key, e.namespace ?? VOID_NAMESPACE, e.value);
  }
  for (const t of snapshot.timers) {
    const queues = timers.get(t.service);
    if (!queues) {
      throw new Error(`The snapshot has timers of service "${t.service}" that this operator does not have (it has: ${[...timers.keys()].join(', ') || 'none'}).`);
    }
    (t.domain === 'EVENT_TIME' ? queues.eventTime : queues.processingTime).add(t.timestamp, t.key, t.namespace, keyGroup);
  }
}
