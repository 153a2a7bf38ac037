import type { OperatorStateSnapshot } from '../checkpoint/snapshot-model.ts';
import { AbstractStreamOperator } from './operator.ts';
import type { Collector, RuntimeContext } from './functions.ts';
import { createRuntimeContext } from './functions.ts';

/**
 * Broadcast state (Flink's `BroadcastState` behind a `MapStateDescriptor`): a non-keyed map that the broadcast side
 * of a `BroadcastProcessFunction` writes and the other side only reads. Every subtask receives every broadcast record,
 * so every subtask holds the same table, and, as in Flink, every subtask writes its own copy into each checkpoint
 * (operator state in `BROADCAST` mode): the job's total is parallelism × the table.
 */

/** Names a broadcast state (Flink's `MapStateDescriptor<K, V>`). */
export interface BroadcastStateDescriptor {
  name: string;
}

export interface ReadOnlyBroadcastState<K, V> {
  get(key: K): V | undefined;
  contains(key: K): boolean;
  readonly size: number;
}

export interface BroadcastState<K, V> extends ReadOnlyBroadcastState<K, V> {
  put(key: K, value: V): void;
  remove(key: K): void;
}

export interface BroadcastReadOnlyContext {
  readonly timestamp: number;
  getBroadcastState<K, V>(descriptor: BroadcastStateDescriptor): ReadOnlyBroadcastState<K, V>;
}

export interface BroadcastContext {
  readonly timestamp: number;
  getBroadcastState<K, V>(descriptor: BroadcastStateDescriptor): BroadcastState<K, V>;
}

/** Flink's `BroadcastProcessFunction<IN1, IN2, OUT>`: IN1 the non-broadcast input, IN2 the broadcast one. */
export interface BroadcastProcessFunction<I, B, O> {
  open?(context: RuntimeContext): void;
  processElement(value: I, context: BroadcastReadOnlyContext, out: Collector<O>): void;
  processBroadcastElement(value: B, context: BroadcastContext, out: Collector<O>): void;
}

class MapBroadcastState<K, V> implements BroadcastState<K, V> {
  readonly map = new Map<K, V>();

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  contains(key: K): boolean {
    return this.map.has(key);
  }

  get size(): number {
    return this.map.size;
  }

  put(key: K, value: V): void {
    this.map.set(key, value);
  }

  remove(key: K): void {
    this.map.delete(key);
  }
}

/** Runs a `BroadcastProcessFunction` (Flink's `CoBroadcastWithNonKeyedOperator`). */
export class BroadcastProcessOperator<I, B, O> extends AbstractStreamOperator<I, O> {
  private currentTimestamp = 0;
  private readonly states = new Map<string, MapBroadcastState<unknown, unknown>>();
  private readonly fn: BroadcastProcessFunction<I, B, O>;
  private readonly collector: Collector<O>;
  private readonly ctx: BroadcastContext;

  constructor(fn: BroadcastProcessFunction<I, B, O>) {
    super();
    // One copy of the function per subtask, as for ProcessOperator.
    this.fn = Object.create(fn) as BroadcastProcessFunction<I, B, O>;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    this.collector = {
      collect(value: O) {
        self.output.collect(value, self.currentTimestamp);
      },
    };
    this.ctx = {
      get timestamp() {
        return self.currentTimestamp;
      },
      getBroadcastState: <K, V>(descriptor: BroadcastStateDescriptor) => self.state(descriptor.name) as unknown as BroadcastState<K, V>,
    };
  }

  private state(name: string): MapBroadcastState<unknown, unknown> {
    let state = this.states.get(name);
    if (!state) this.states.set(name, (state = new MapBroadcastState()));
    return state;
  }

  override open(): void {
    this.fn.open?.(createRuntimeContext(this.context, () => {
      throw new Error(`"${this.context.operatorName}" is a BroadcastProcessFunction: it has broadcast state, no keyed state.`);
    }));
  }

  processElement(value: I, timestamp: number): void {
    this.currentTimestamp = timestamp;
    // The read-only view is the same object: the function's contract (Flink's ReadOnlyContext) keeps it from writing.
    this.fn.processElement(value, this.ctx, this.collector);
  }

  processBroadcastElement(value: B, timestamp: number): void {
    this.currentTimestamp = timestamp;
    this.fn.processBroadcastElement(value, this.ctx, this.collector);
  }

  /** Every broadcast state as operator state in `BROADCAST` mode: one partition per map entry, `[key, value]`. */
  snapshotOperatorState(): OperatorStateSnapshot {
    const out: OperatorStateSnapshot = {};
    for (const [name, state] of this.states) out[name] = { mode: 'BROADCAST', partitions: [...state.map].map(([k, v]) => [k, v]) };
    return out;
  }

  operatorStateNames(): string[] {
    return [...this.states.keys()];
  }

  /** A restored subtask's copy of broadcast state `name` (the entries `snapshotOperatorState` wrote). */
  restoreOperatorState(name: string, partitions: readonly unknown[]): void {
    const state = this.state(name);
    for (const entry of partitions) {
      const [k, v] = entry as [unknown, unknown];
      state.put(k, v);
    }
  }
}
