import type { KeyGroupRange } from '../../analysis/key-groups/key-group-range-assignment.ts';

/** The namespace of state that is not scoped to a window (Flink's `VoidNamespace`). */
export const VOID_NAMESPACE = 0;
/** A namespace value: a window's start for window state, VOID_NAMESPACE otherwise. */
export type Namespace = number | string;
export type StateKey = string | number | bigint | boolean;

/**
 * The heap backend's table for one state (Flink's `StateTable`/`CopyOnWriteStateMap`), split by key group so that
 * a subtask's state can be snapshotted and redistributed one key group at a time. Non-namespaced state maps
 * key → value directly; namespaced (window) state maps key → namespace → value.
 */
export class StateTable<V> {
  /** groups[kg - startKeyGroup]. */
  readonly groups: Array<Map<StateKey, unknown>>;
  private entries = 0;

  constructor(
    readonly name: string,
    readonly keyGroupRange: KeyGroupRange,
    readonly namespaced: boolean,
  ) {
    const n = keyGroupRange.endKeyGroup - keyGroupRange.startKeyGroup + 1;
    this.groups = new Array(n);
    for (let i = 0; i < n; i++) this.groups[i] = new Map();
  }

  /** Number of (key, namespace) entries. */
  get size(): number {
    return this.entries;
  }

  get(kgIndex: number, key: StateKey, ns: Namespace): V | undefined {
    const group = this.groups[kgIndex];
    if (!this.namespaced) return group.get(key) as V | undefined;
    const inner = group.get(key) as Map<Namespace, V> | undefined;
    return inner === undefined ? undefined : inner.get(ns);
  }

  put(kgIndex: number, key: StateKey, ns: Namespace, value: V): void {
    const group = this.groups[kgIndex];
    if (!this.namespaced) {
      const before = group.size;
      group.set(key, value);
      this.entries += group.size - before;
      return;
    }
    let inner = group.get(key) as Map<Namespace, V> | undefined;
    if (inner === undefined) {
      inner = new Map();
      group.set(key, inner);
    }
    const before = inner.size;
    inner.set(ns, value);
    this.entries += inner.size - before;
  }

  remove(kgIndex: number, key: StateKey, ns: Namespace): void {
    const group = this.groups[kgIndex];
    if (!this.namespaced) {
      if (group.delete(key)) this.entries--;
      return;
    }
    const inner = group.get(key) as Map<Namespace, V> | undefined;
    if (inner === undefined) return;
    if (inner.delete(ns)) this.entries--;
    if (inner.size === 0) group.delete(key);
  }

  /** Every (key, namespace, value) of one key group (absolute key-group id), for snapshots. */
  *entriesOf(keyGroup: number): Generator<[StateKey, Namespace, V]> {
    const group = this.groups[keyGroup - this.keyGroupRange.startKeyGroup];
    for (const [key, value] of group) {
      if (!this.namespaced) yield [key, VOID_NAMESPACE, value as V];
      else for (const [ns, v] of value as Map<Namespace, V>) yield [key, ns, v];
    }
  }

  /** Keys of one namespace across all key groups (Flink's `getKeys(state, namespace)`). */
  *keys(ns: Namespace = VOID_NAMESPACE): Generator<StateKey> {
    for (const group of this.groups) {
      for (const [key, value] of group) {
        if (!this.namespaced || (value as Map<Namespace, V>).has(ns)) yield key;
      }
    }
  }

  clearKeyGroup(keyGroup: number): void {
    const group = this.groups[keyGroup - this.keyGroupRange.startKeyGroup];
    for (const value of group.values()) this.entries -= this.namespaced ? (value as Map<Namespace, V>).size : 1;
    group.clear();
  }
}

/**
 * Walks a table's entries a few at a time, wrapping around, for TTL incremental cleanup. `visit` returns the value
 * to keep (or undefined to remove the entry).
 */
export class IncrementalCleanupCursor<V> {
  private groupIndex = 0;
  private iterator: Iterator<[StateKey, unknown]> | null = null;

  constructor(private readonly table: StateTable<V>) {}

  run(budget: number, visit: (value: V) => V | undefined): void {
    const groups = this.table.groups;
    let emptyGroupsSeen = 0;
    while (budget > 0 && emptyGroupsSeen <= groups.length) {
      if (this.iterator === null) this.iterator = groups[this.groupIndex].entries();
      const next = this.iterator.next();
      if (next.done) {
        this.iterator = null;
        this.groupIndex = (this.groupIndex + 1) % groups.length;
        emptyGroupsSeen++;
        continue;
      }
      emptyGroupsSeen = 0;
      budget--;
      const [key, value] = next.value;
      const kgIndex = this.groupIndex;
      if (!this.table.namespaced) {
        const kept = visit(value as V);
        if (kept === undefined) this.table.remove(kgIndex, key, VOID_NAMESPACE);
        else if (kept !== value) this.table.put(kgIndex, key, VOID_NAMESPACE, kept);
      } else {
        for (const [ns, v] of [...(value as Map<Namespace, V>)]) {
          const kept = visit(v);
          if (kept === undefined) this.table.remove(kgIndex, key, ns);
          else if (kept !== v) this.table.put(kgIndex, key, ns, kept);
        }
      }
    }
  }
}
