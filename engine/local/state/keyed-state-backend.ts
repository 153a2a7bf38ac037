import { javaHashCode, type JavaKey } from '../../analysis/key-groups/java-hash.ts';
import {
  computeKeyGroupForKeyHash,
  keyGroupRangeContains,
  type KeyGroupRange,
} from '../../analysis/key-groups/key-group-range-assignment.ts';
import type { Clock } from '../time/clock.ts';
import { StateTable, type StateKey } from './state-table.ts';

/**
 * The heap keyed state backend of one keyed operator subtask (Flink's `HeapKeyedStateBackend`): owns the
 * subtask's key-group range, the current key (set by the runtime before each record or timer), and one
 * key-group-partitioned table per registered state.
 */
export class HeapKeyedStateBackend {
  /** The key of the record or timer being processed. */
  currentKey: StateKey = '';
  /** Absolute key group of the current key. */
  currentKeyGroup = 0;
  /** currentKeyGroup − keyGroupRange.startKeyGroup: the index into each table's groups. */
  currentKeyGroupIndex = 0;
  readonly tables = new Map<string, StateTable<unknown>>();

  constructor(
    readonly maxParallelism: number,
    readonly keyGroupRange: KeyGroupRange,
    /** Processing time for TTL (Flink's `TtlTimeProvider`). */
    readonly ttlClock: Clock,
  ) {}

  /** Sets the current key; `keyGroup` may be passed when the network layer already computed it. */
  setCurrentKey(key: StateKey, keyGroup?: number): void {
    const kg = keyGroup ?? computeKeyGroupForKeyHash(javaHashCode(key as JavaKey), this.maxParallelism);
    if (!keyGroupRangeContains(this.keyGroupRange, kg)) {
      throw new Error(
        `Key ${JSON.stringify(String(key))} is in key group ${kg}, outside this subtask's range ` +
          `[${this.keyGroupRange.startKeyGroup}, ${this.keyGroupRange.endKeyGroup}]: the input is not partitioned by this key.`,
      );
    }
    this.currentKey = key;
    this.currentKeyGroup = kg;
    this.currentKeyGroupIndex = kg - this.keyGroupRange.startKeyGroup;
  }

  /** The table for a state name, created on first use. A name is bound to one kind of namespace. */
  table<V>(name: string, namespaced: boolean): StateTable<V> {
    let table = this.tables.get(name);
    if (!table) {
      table = new StateTable<unknown>(name, this.keyGroupRange, namespaced);
      this.tables.set(name, table);
    } else if (table.namespaced !== namespaced) {
      throw new Error(`State "${name}" is already registered ${table.namespaced ? 'with' : 'without'} a namespace.`);
    }
    return table as StateTable<V>;
  }

  /** Total entries over all states. */
  numEntries(): number {
    let n = 0;
    for (const t of this.tables.values()) n += t.size;
    return n;
  }
}
