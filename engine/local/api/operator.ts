import type { Clock } from '../time/clock.ts';
import { Counter } from '../metrics/views.ts';
import type { HeapKeyedStateBackend } from '../state/keyed-state-backend.ts';
import { InternalTimerService, type InternalTimer, type TimerQueue } from '../state/timer-service.ts';
import type { StateKey } from '../state/state-table.ts';

/** "No timestamp" (Flink's StreamRecord without timestamp; window assigners reject it like Long.MIN_VALUE). */
export const NO_TIMESTAMP = Number.NEGATIVE_INFINITY;
/** Long.MIN_VALUE: no watermark yet. */
export const MIN_WATERMARK = Number.NEGATIVE_INFINITY;
/** Long.MAX_VALUE: end of event time (a bounded source emits it when it ends). */
export const MAX_WATERMARK = Number.POSITIVE_INFINITY;

/** Where an operator sends what it produces (Flink's `Output<StreamRecord<T>>`). */
export interface Output<T> {
  collect(value: T, timestamp: number): void;
  /** Emits to a side output (Flink's `OutputTag`), identified by its id. */
  collectSide(tag: string, value: unknown, timestamp: number): void;
  emitWatermark(watermark: number): void;
  emitWatermarkStatus(idle: boolean): void;
}

/** Metrics an operator registers beside the built-in ones, shown as `<operator>.<name>`. */
export interface OperatorMetricGroup {
  counter(name: string): Counter;
  gauge(name: string, read: () => number | string): void;
}

/** What the runtime hands an operator instance before `open`. */
export interface OperatorContext {
  operatorName: string;
  uid: string;
  subtaskIndex: number;
  parallelism: number;
  maxParallelism: number;
  /** Processing time. */
  clock: Clock;
  metrics: OperatorMetricGroup;
  /** Present when the operator's input is keyed (a keyBy before it). */
  keyed?: { backend: HeapKeyedStateBackend; keySelector: (value: unknown) => StateKey };
}

/** Flink's `StreamOperator` / `OneInputStreamOperator`, reduced to what the local engine runs. */
export interface StreamOperator<IN = unknown, OUT = unknown> {
  setup(context: OperatorContext, output: Output<OUT>): void;
  open(): void;
  processElement(value: IN, timestamp: number): void;
  processWatermark(watermark: number): void;
  processWatermarkStatus(idle: boolean): void;
  /** End of input (bounded streams), before close. */
  finish(): void;
  close(): void;
  /** The keyed backend of a keyed operator (for snapshots and the key context). */
  readonly keyedBackend?: HeapKeyedStateBackend;
  /**
   * The timer queues of a keyed operator by timer-service name (Flink's `InternalTimeServiceManager`), snapshotted and
   * restored with its keyed state. Exists after `open`.
   */
  timerServicesForSnapshot?(): Map<string, { eventTime: TimerQueue; processingTime: TimerQueue }>;
  /** Before the barrier: work that must finish before the checkpoint may be acknowledged (a sink's flush). */
  prepareSnapshotPreBarrier?(): Promise<void> | void;
}

/** Shared plumbing: context, output, key context, timers and watermark forwarding (Flink's `AbstractStreamOperator`). */
export abstract class AbstractStreamOperator<IN, OUT> implements StreamOperator<IN, OUT>, InternalTimerTarget {
  protected context!: OperatorContext;
  protected output!: Output<OUT>;
  private timers: InternalTimerService | undefined;
  /** The name of this operator's timer service in snapshots (Flink: "user-timers", "window-timers"). */
  protected readonly timerServiceName: string = 'user-timers';

  setup(context: OperatorContext, output: Output<OUT>): void {
    this.context = context;
    this.output = output;
  }

  get keyedBackend(): HeapKeyedStateBackend | undefined {
    return this.context?.keyed?.backend;
  }

  /** The backend of a keyed operator; a clear error for a non-keyed one. */
  protected backend(): HeapKeyedStateBackend {
    const keyed = this.context.keyed;
    if (!keyed) throw new Error(`Operator "${this.context.operatorName}" uses keyed state or timers but its input is not keyed (add keyBy).`);
    return keyed.backend;
  }

  /** This operator's timer service (keyed operators only), created on first use. */
  protected timerService(): InternalTimerService {
    if (!this.timers) this.timers = new InternalTimerService(this.backend(), this);
    return this.timers;
  }

  get internalTimerService(): InternalTimerService | undefined {
    return this.timers;
  }

  timerServicesForSnapshot(): Map<string, { eventTime: TimerQueue; processingTime: TimerQueue }> {
    const out = new Map<string, { eventTime: TimerQueue; processingTime: TimerQueue }>();
    if (this.timers) out.set(this.timerServiceName, { eventTime: this.timers.eventTimeTimers, processingTime: this.timers.processingTimeTimers });
    return out;
  }

  open(): void {}

  abstract processElement(value: IN, timestamp: number): void;

  processWatermark(watermark: number): void {
    if (this.timers) this.timers.advanceWatermark(watermark);
    this.output.emitWatermark(watermark);
  }

  /** Fires due processing-time timers (called by the runtime as processing time advances). */
  advanceProcessingTime(now: number): void {
    if (this.timers && this.timers.numProcessingTimeTimers() > 0) this.timers.advanceProcessingTime(now);
  }

  processWatermarkStatus(idle: boolean): void {
    this.output.emitWatermarkStatus(idle);
  }

  finish(): void {}

  close(): void {}

  onEventTime(_timer: InternalTimer): void {}

  onProcessingTime(_timer: InternalTimer): void {}
}

export interface InternalTimerTarget {
  onEventTime(timer: InternalTimer): void;
  onProcessingTime(timer: InternalTimer): void;
}

/** Side output identity (Flink's `OutputTag<T>`). */
export class OutputTag<T> {
  declare readonly __type?: T;
  constructor(readonly id: string) {}
}
