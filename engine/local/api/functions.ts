import { AbstractStreamOperator, type OperatorContext, type OutputTag } from './operator.ts';
import type { HeapKeyedStateBackend } from '../state/keyed-state-backend.ts';
import type { InternalTimer } from '../state/timer-service.ts';
import {
  AggregatingState,
  ListState,
  MapState,
  ReducingState,
  ValueState,
  type AggregateFunction,
  type StateDescriptor,
} from '../state/keyed-state.ts';
import { VOID_NAMESPACE, type StateKey } from '../state/state-table.ts';
import type { Counter } from '../metrics/views.ts';

/** Flink's `Collector<T>`: emits with the timestamp of the element or timer being processed. */
export interface Collector<T> {
  collect(value: T): void;
}

/** What user functions can reach at open time (Flink's `RuntimeContext`). */
export interface RuntimeContext {
  subtaskIndex: number;
  parallelism: number;
  getState<T>(descriptor: StateDescriptor): ValueState<T>;
  getListState<T>(descriptor: StateDescriptor): ListState<T>;
  getMapState<K, V>(descriptor: StateDescriptor): MapState<K, V>;
  getReducingState<T>(descriptor: StateDescriptor, reduce: (a: T, b: T) => T): ReducingState<T>;
  getAggregatingState<IN, ACC, OUT>(descriptor: StateDescriptor, fn: AggregateFunction<IN, ACC, OUT>): AggregatingState<IN, ACC, OUT>;
  counter(name: string): Counter;
  gauge(name: string, read: () => number | string): void;
}

export interface ProcessContext {
  /** The element's timestamp (or the timer's, in onTimer). */
  readonly timestamp: number;
  output<X>(tag: OutputTag<X>, value: X): void;
}

export interface KeyedProcessContext<K> extends ProcessContext {
  readonly currentKey: K;
  readonly timerService: {
    currentWatermark(): number;
    currentProcessingTime(): number;
    registerEventTimeTimer(time: number): void;
    deleteEventTimeTimer(time: number): void;
    registerProcessingTimeTimer(time: number): void;
    deleteProcessingTimeTimer(time: number): void;
  };
}

/** Flink's `ProcessFunction<I, O>` (also covers map and flatMap). */
export interface ProcessFunction<I, O> {
  open?(context: RuntimeContext): void;
  processElement(value: I, context: ProcessContext, out: Collector<O>): void;
}

/** Flink's `KeyedProcessFunction<K, I, O>`. */
export interface KeyedProcessFunction<K, I, O> {
  open?(context: RuntimeContext): void;
  processElement(value: I, context: KeyedProcessContext<K>, out: Collector<O>): void;
  onTimer?(timestamp: number, context: KeyedProcessContext<K> & { readonly timeDomain: 'EVENT_TIME' | 'PROCESSING_TIME' }, out: Collector<O>): void;
}

/**
 * Runs a `ProcessFunction` (Flink's `ProcessOperator`) or, with a keyed input, a `KeyedProcessFunction`
 * (`KeyedProcessOperator`). Context and collector objects are reused across records: no per-record allocation.
 */
export class ProcessOperator<I, O> extends AbstractStreamOperator<I, O> {
  private currentTimestamp = 0;
  private timeDomain: 'EVENT_TIME' | 'PROCESSING_TIME' = 'EVENT_TIME';
  private readonly collector: Collector<O>;
  private readonly ctx: KeyedProcessContext<StateKey> & { readonly timeDomain: 'EVENT_TIME' | 'PROCESSING_TIME' };

  private readonly fn: ProcessFunction<I, O> | KeyedProcessFunction<StateKey, I, O>;

  /**
   * Each subtask gets its own instance of the function (Flink deserializes a copy per subtask): fields a function
   * sets in `open` stay per subtask. The copy delegates to the given object for everything it does not set.
   */
  constructor(fn: ProcessFunction<I, O> | KeyedProcessFunction<StateKey, I, O>) {
    super();
    this.fn = Object.create(fn) as typeof fn;
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
      get timeDomain() {
        return self.timeDomain;
      },
      output<X>(tag: OutputTag<X>, value: X) {
        self.output.collectSide(tag.id, value, self.currentTimestamp);
      },
      get currentKey() {
        return self.backend().currentKey;
      },
      timerService: {
        currentWatermark: () => self.timerService().currentWatermark,
        currentProcessingTime: () => self.context.clock.now(),
        registerEventTimeTimer: (time: number) => self.timerService().registerEventTimeTimer(VOID_NAMESPACE, time),
        deleteEventTimeTimer: (time: number) => self.timerService().deleteEventTimeTimer(VOID_NAMESPACE, time),
        registerProcessingTimeTimer: (time: number) => self.timerService().registerProcessingTimeTimer(VOID_NAMESPACE, time),
        deleteProcessingTimeTimer: (time: number) => self.timerService().deleteProcessingTimeTimer(VOID_NAMESPACE, time),
      },
    };
  }

  override open(): void {
    if (this.context.keyed) this.timerService();
    this.fn.open?.(createRuntimeContext(this.context, () => this.backend()));
  }

  processElement(value: I, timestamp: number): void {
    this.currentTimestamp = timestamp;
    (this.fn as ProcessFunction<I, O>).processElement(value, this.ctx, this.collector);
  }

  override onEventTime(timer: InternalTimer): void {
    this.fireTimer(timer, 'EVENT_TIME');
  }

  override onProcessingTime(timer: InternalTimer): void {
    this.fireTimer(timer, 'PROCESSING_TIME');
  }

  private fireTimer(timer: InternalTimer, domain: 'EVENT_TIME' | 'PROCESSING_TIME'): void {
    const onTimer = (this.fn as KeyedProcessFunction<StateKey, I, O>).onTimer;
    if (!onTimer) return;
    this.currentTimestamp = timer.timestamp;
    this.timeDomain = domain;
    onTimer.call(this.fn, timer.timestamp, this.ctx, this.collector);
    this.timeDomain = 'EVENT_TIME';
  }
}

/** The `RuntimeContext` of an operator: state (keyed operators only) and metrics. */
export function createRuntimeContext(ctx: OperatorContext, backend: () => HeapKeyedStateBackend): RuntimeContext {
  return {
    subtaskIndex: ctx.subtaskIndex,
    parallelism: ctx.parallelism,
    getState: (d) => new ValueState(backend(), d),
    getListState: (d) => new ListState(backend(), d),
    getMapState: (d) => new MapState(backend(), d),
    getReducingState: (d, reduce) => new ReducingState(backend(), d, reduce),
    getAggregatingState: (d, fn) => new AggregatingState(backend(), d, fn),
    counter: (name) => ctx.metrics.counter(name),
    gauge: (name, read) => ctx.metrics.gauge(name, read),
  };
}

/** `map` as a process function. */
export function mapFunction<I, O>(fn: (value: I) => O): ProcessFunction<I, O> {
  return {
    processElement(value, _ctx, out) {
      out.collect(fn(value));
    },
  };
}
