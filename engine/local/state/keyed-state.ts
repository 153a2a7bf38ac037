import type { HeapKeyedStateBackend } from './keyed-state-backend.ts';
import { IncrementalCleanupCursor, VOID_NAMESPACE, type Namespace, type StateTable } from './state-table.ts';
import { ttlExpired, ttlPolicy, type StateTtlConfig, type TtlPolicy, type TtlValue } from './ttl.ts';

/**
 * Keyed state scoped to the backend's current key (and, for window state, the current namespace), with Flink's
 * semantics: `ValueState`, `ListState`, `MapState`, `ReducingState`, `AggregatingState`, each with optional TTL
 * (the TTL rules follow `TtlValueState`, `TtlListState`, `TtlMapState`, `TtlReduceFunction`, `TtlAggregateFunction`).
 */

export interface StateDescriptor {
  name: string;
  ttl?: StateTtlConfig;
}

/** Flink's `AggregateFunction<IN, ACC, OUT>`. */
export interface AggregateFunction<IN, ACC, OUT> {
  createAccumulator(): ACC;
  add(value: IN, accumulator: ACC): ACC;
  getResult(accumulator: ACC): OUT;
  merge(a: ACC, b: ACC): ACC;
}

abstract class AbstractKeyedState<S> {
  protected readonly table: StateTable<S>;
  protected readonly ttl: TtlPolicy | null;
  protected namespace: Namespace = VOID_NAMESPACE;
  private readonly cleanup: IncrementalCleanupCursor<S> | null;

  constructor(
    protected readonly backend: HeapKeyedStateBackend,
    descriptor: StateDescriptor,
    namespaced: boolean,
  ) {
    this.table = backend.table<S>(descriptor.name, namespaced);
    this.ttl = ttlPolicy(descriptor.ttl);
    this.cleanup = this.ttl && this.ttl.cleanupSize > 0 ? new IncrementalCleanupCursor(this.table) : null;
  }

  /** Scopes the following calls to a namespace (a window's start). */
  setCurrentNamespace(ns: Namespace): void {
    this.namespace = ns;
  }

  clear(): void {
    this.table.remove(this.backend.currentKeyGroupIndex, this.backend.currentKey, this.namespace);
  }

  protected raw(): S | undefined {
    return this.table.get(this.backend.currentKeyGroupIndex, this.backend.currentKey, this.namespace);
  }

  protected store(value: S): void {
    this.table.put(this.backend.currentKeyGroupIndex, this.backend.currentKey, this.namespace, value);
  }

  protected now(): number {
    return this.backend.ttlClock.now();
  }

  protected expired(value: TtlValue<unknown>): boolean {
    return ttlExpired(value.ts, this.ttl!.ttlMs, this.now());
  }

  /** Runs incremental TTL cleanup on access (Flink's `TtlIncrementalCleanup` with `runCleanupForEveryRecord=false`). */
  protected accessed(): void {
    if (this.cleanup) this.cleanup.run(this.ttl!.cleanupSize, (value) => this.cleanEntry(value));
  }

  /** The entry to keep after dropping expired data, or undefined to remove it. */
  protected cleanEntry(value: S): S | undefined {
    return this.expired(value as TtlValue<unknown>) ? undefined : value;
  }

  /** `AbstractTtlDecorator.getWrappedWithTtlCheckAndUpdate` for single-value states. */
  protected readSingle<V>(): V | undefined {
    const stored = this.raw() as TtlValue<V> | undefined;
    if (stored === undefined) return undefined;
    if (this.expired(stored)) {
      this.clear();
      return this.ttl!.returnExpired ? stored.v : undefined;
    }
    if (this.ttl!.updateTsOnRead) this.store({ v: stored.v, ts: this.now() } as S);
    return stored.v;
  }

  /** `getUnexpired`: the user value unless expired and not visible. */
  protected unexpired<V>(stored: TtlValue<V> | undefined): V | undefined {
    if (stored === undefined) return undefined;
    return this.expired(stored) && !this.ttl!.returnExpired ? undefined : stored.v;
  }
}

/** `ValueState<T>`: one value per key (and namespace). */
export class ValueState<T> extends AbstractKeyedState<T | TtlValue<T>> {
  constructor(backend: HeapKeyedStateBackend, descriptor: StateDescriptor, namespaced = false) {
    super(backend, descriptor, namespaced);
  }

  value(): T | undefined {
    if (!this.ttl) return this.raw() as T | undefined;
    this.accessed();
    return this.readSingle<T>();
  }

  /** `update(null)` clears, as in Flink. */
  update(value: T | undefined | null): void {
    if (value === undefined || value === null) {
      this.clear();
      return;
    }
    if (!this.ttl) {
      this.store(value);
      return;
    }
    this.accessed();
    this.store({ v: value, ts: this.now() });
  }
}

/** `ListState<T>`: a list per key; with TTL every element expires on its own. */
export class ListState<T> extends AbstractKeyedState<T[] | TtlValue<T>[]> {
  constructor(backend: HeapKeyedStateBackend, descriptor: StateDescriptor, namespaced = false) {
    super(backend, descriptor, namespaced);
  }

  /** The visible elements (an empty array when there are none). Do not mutate it. */
  get(): readonly T[] {
    if (!this.ttl) return (this.raw() as T[] | undefined) ?? [];
    this.accessed();
    const stored = (this.raw() as TtlValue<T>[] | undefined) ?? [];
    if (stored.length === 0) return [];
    const now = this.now();
    if (this.ttl.updateTsOnRead) {
      const refreshed = stored.filter((e) => !ttlExpired(e.ts, this.ttl!.ttlMs, now)).map((e) => ({ v: e.v, ts: now }));
      if (refreshed.length > 0) this.store(refreshed);
    }
    const visible: T[] = [];
    let anyUnexpired = false;
    for (const e of stored) {
      const unexpired = !ttlExpired(e.ts, this.ttl.ttlMs, now);
      if (unexpired) anyUnexpired = true;
      if (unexpired || this.ttl.returnExpired) visible.push(e.v);
    }
    if (!anyUnexpired) this.clear();
    return visible;
  }

  add(value: T): void {
    if (value === undefined || value === null) throw new TypeError('You cannot add null to a ListState.');
    if (!this.ttl) {
      const list = this.raw() as T[] | undefined;
      if (list) list.push(value);
      else this.store([value]);
      return;
    }
    this.accessed();
    const list = this.raw() as TtlValue<T>[] | undefined;
    const wrapped = { v: value, ts: this.now() };
    if (list) list.push(wrapped);
    else this.store([wrapped]);
  }

  addAll(values: readonly T[]): void {
    for (const v of values) this.add(v);
  }

  /** Replaces the list; an empty list clears the state. */
  update(values: readonly T[]): void {
    if (values.some((v) => v === undefined || v === null)) throw new TypeError('You cannot have null element in a ListState.');
    if (values.length === 0) {
      this.clear();
      return;
    }
    if (!this.ttl) {
      this.store([...values]);
      return;
    }
    const now = this.now();
    this.store(values.map((v) => ({ v, ts: now })));
  }

  protected override cleanEntry(value: T[] | TtlValue<T>[]): T[] | TtlValue<T>[] | undefined {
    const now = this.now();
    const kept = (value as TtlValue<T>[]).filter((e) => !ttlExpired(e.ts, this.ttl!.ttlMs, now));
    return kept.length === 0 ? undefined : kept.length === value.length ? value : kept;
  }
}

/** `MapState<UK, UV>`: a map per key; with TTL every entry expires on its own. */
export class MapState<UK, UV> extends AbstractKeyedState<Map<UK, UV | TtlValue<UV>>> {
  constructor(backend: HeapKeyedStateBackend, descriptor: StateDescriptor, namespaced = false) {
    super(backend, descriptor, namespaced);
  }

  private map(create: boolean): Map<UK, UV | TtlValue<UV>> | undefined {
    let m = this.raw();
    if (m === undefined && create) {
      m = new Map();
      this.store(m);
    }
    return m;
  }

  get(userKey: UK): UV | undefined {
    const m = this.map(false);
    if (!m) return undefined;
    if (!this.ttl) return m.get(userKey) as UV | undefined;
    this.accessed();
    const stored = m.get(userKey) as TtlValue<UV> | undefined;
    if (stored === undefined) return undefined;
    if (this.expired(stored)) {
      this.removeEntry(m, userKey);
      return this.ttl.returnExpired ? stored.v : undefined;
    }
    if (this.ttl.updateTsOnRead) m.set(userKey, { v: stored.v, ts: this.now() });
    return stored.v;
  }

  put(userKey: UK, value: UV): void {
    const m = this.map(true)!;
    if (!this.ttl) m.set(userKey, value);
    else {
      this.accessed();
      m.set(userKey, { v: value, ts: this.now() });
    }
  }

  putAll(entries: Iterable<[UK, UV]>): void {
    for (const [k, v] of entries) this.put(k, v);
  }

  remove(userKey: UK): void {
    const m = this.map(false);
    if (m) this.removeEntry(m, userKey);
  }

  contains(userKey: UK): boolean {
    return this.get(userKey) !== undefined;
  }

  /** The visible entries; expired ones met on the way are removed (and refreshed on read when configured). */
  entries(): Array<[UK, UV]> {
    const m = this.map(false);
    if (!m) return [];
    if (!this.ttl) return [...(m as Map<UK, UV>)];
    this.accessed();
    const now = this.now();
    const out: Array<[UK, UV]> = [];
    for (const [k, stored] of [...(m as Map<UK, TtlValue<UV>>)]) {
      if (ttlExpired(stored.ts, this.ttl.ttlMs, now)) {
        this.removeEntry(m, k);
        if (this.ttl.returnExpired) out.push([k, stored.v]);
      } else {
        if (this.ttl.updateTsOnRead) m.set(k, { v: stored.v, ts: now });
        out.push([k, stored.v]);
      }
    }
    return out;
  }

  keys(): UK[] {
    return this.entries().map(([k]) => k);
  }

  values(): UV[] {
    return this.entries().map(([, v]) => v);
  }

  isEmpty(): boolean {
    return this.entries().length === 0;
  }

  private removeEntry(m: Map<UK, unknown>, userKey: UK): void {
    m.delete(userKey);
    if (m.size === 0) this.clear();
  }

  protected override cleanEntry(value: Map<UK, UV | TtlValue<UV>>): Map<UK, UV | TtlValue<UV>> | undefined {
    const now = this.now();
    for (const [k, stored] of [...value]) {
      if (ttlExpired((stored as TtlValue<UV>).ts, this.ttl!.ttlMs, now)) value.delete(k);
    }
    return value.size === 0 ? undefined : value;
  }
}

/** `ReducingState<T>`: values folded with a reduce function as they are added. */
export class ReducingState<T> extends AbstractKeyedState<T | TtlValue<T>> {
  constructor(
    backend: HeapKeyedStateBackend,
    descriptor: StateDescriptor,
    private readonly reduce: (a: T, b: T) => T,
    namespaced = false,
  ) {
    super(backend, descriptor, namespaced);
  }

  get(): T | undefined {
    if (!this.ttl) return this.raw() as T | undefined;
    this.accessed();
    return this.readSingle<T>();
  }

  add(value: T): void {
    if (!this.ttl) {
      const current = this.raw() as T | undefined;
      this.store(current === undefined ? value : this.reduce(current, value));
      return;
    }
    this.accessed();
    const current = this.unexpired(this.raw() as TtlValue<T> | undefined);
    this.store({ v: current === undefined ? value : this.reduce(current, value), ts: this.now() });
  }
}

/** `AggregatingState<IN, OUT>`: values added into an accumulator of an `AggregateFunction`. */
export class AggregatingState<IN, ACC, OUT> extends AbstractKeyedState<ACC | TtlValue<ACC>> {
  constructor(
    backend: HeapKeyedStateBackend,
    descriptor: StateDescriptor,
    private readonly fn: AggregateFunction<IN, ACC, OUT>,
    namespaced = false,
  ) {
    super(backend, descriptor, namespaced);
  }

  get(): OUT | undefined {
    if (!this.ttl) {
      const acc = this.raw() as ACC | undefined;
      return acc === undefined ? undefined : this.fn.getResult(acc);
    }
    this.accessed();
    const acc = this.readSingle<ACC>();
    return acc === undefined ? undefined : this.fn.getResult(acc);
  }

  add(value: IN): void {
    if (!this.ttl) {
      const acc = this.raw() as ACC | undefined;
      const next = this.fn.add(value, acc === undefined ? this.fn.createAccumulator() : acc);
      if (next !== acc) this.store(next);
      return;
    }
    this.accessed();
    const acc = this.unexpired(this.raw() as TtlValue<ACC> | undefined);
    this.store({ v: this.fn.add(value, acc === undefined ? this.fn.createAccumulator() : acc), ts: this.now() });
  }
}
