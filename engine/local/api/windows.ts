import { AbstractStreamOperator, NO_TIMESTAMP, type OutputTag } from './operator.ts';
import type { Collector } from './functions.ts';
import { AggregatingState, type AggregateFunction } from '../state/keyed-state.ts';
import type { InternalTimer } from '../state/timer-service.ts';
import type { Counter } from '../metrics/views.ts';

/** Flink's `TimeWindow`: [start, end) in ms. */
export interface TimeWindow {
  start: number;
  end: number;
}

/** `TimeWindow.maxTimestamp()`: the last ms that belongs to the window. */
export function windowMaxTimestamp(window: TimeWindow): number {
  return window.end - 1;
}

/** `TimeWindow.getWindowStartWithOffset(timestamp, offset, windowSize)`, correct for negative timestamps too. */
export function windowStartWithOffset(timestamp: number, offset: number, windowSize: number): number {
  const remainder = (timestamp - offset) % windowSize;
  return remainder < 0 ? timestamp - (remainder + windowSize) : timestamp - remainder;
}

/** An event-time window assigner (tumbling or sliding) of fixed-size windows. */
export interface WindowAssigner {
  readonly size: number;
  /** Window starts the timestamp belongs to, written into `out`; returns how many. */
  assignWindows(timestamp: number, out: number[]): number;
  describe(): string;
}

function checkTimestamp(timestamp: number): void {
  if (timestamp === NO_TIMESTAMP) {
    throw new Error(
      'Record has Long.MIN_VALUE timestamp (= no timestamp marker). Is the time characteristic set to ' +
        "'ProcessingTime', or did you forget to call 'DataStream.assignTimestampsAndWatermarks(...)'?",
    );
  }
}

/** Flink's `TumblingEventTimeWindows.of(size, offset)`. */
export class TumblingEventTimeWindows implements WindowAssigner {
  private constructor(readonly size: number, readonly offset: number) {}

  static of(sizeMs: number, offsetMs = 0): TumblingEventTimeWindows {
    if (!(sizeMs > 0) || Math.abs(offsetMs) >= sizeMs) {
      throw new RangeError('TumblingEventTimeWindows parameters must satisfy abs(offset) < size');
    }
    return new TumblingEventTimeWindows(sizeMs, offsetMs);
  }

  assignWindows(timestamp: number, out: number[]): number {
    checkTimestamp(timestamp);
    out[0] = windowStartWithOffset(timestamp, this.offset, this.size);
    return 1;
  }

  describe(): string {
    return `TumblingEventTimeWindows(${this.size})`;
  }
}

/** Flink's `SlidingEventTimeWindows.of(size, slide, offset)`. */
export class SlidingEventTimeWindows implements WindowAssigner {
  private constructor(readonly size: number, readonly slide: number, readonly offset: number) {}

  static of(sizeMs: number, slideMs: number, offsetMs = 0): SlidingEventTimeWindows {
    if (Math.abs(offsetMs) >= slideMs || !(sizeMs > 0)) {
      throw new RangeError('SlidingEventTimeWindows parameters must satisfy abs(offset) < slide and size > 0');
    }
    return new SlidingEventTimeWindows(sizeMs, slideMs, offsetMs);
  }

  assignWindows(timestamp: number, out: number[]): number {
    checkTimestamp(timestamp);
    let n = 0;
    const lastStart = windowStartWithOffset(timestamp, this.offset, this.slide);
    for (let start = lastStart; start > timestamp - this.size; start -= this.slide) out[n++] = start;
    return n;
  }

  describe(): string {
    return `SlidingEventTimeWindows(${this.size}, ${this.slide})`;
  }
}

/** Flink's `ProcessWindowFunction` over the pre-aggregated result of `aggregate(aggFn, windowFn)`. */
export interface ProcessWindowFunction<R, OUT, K> {
  process(key: K, window: TimeWindow, aggregate: R, out: Collector<OUT>): void;
}

export interface WindowOperatorSpec<IN, ACC, R, OUT, K> {
  assigner: WindowAssigner;
  aggregate: AggregateFunction<IN, ACC, R>;
  windowFunction: ProcessWindowFunction<R, OUT, K>;
  /** @default 0 */
  allowedLatenessMs?: number;
  /** Late elements go here instead of being dropped (`sideOutputLateData`). */
  lateDataTag?: OutputTag<IN>;
}

/**
 * Flink's `WindowOperator` for event-time, non-merging windows with the default `EventTimeTrigger` and an
 * incremental `AggregateFunction`: window contents in namespaced AggregatingState (namespace = window start),
 * a trigger timer at `maxTimestamp`, a cleanup timer at `maxTimestamp + allowedLateness`, late firing when a
 * late-but-allowed element arrives, and late elements dropped (`numLateRecordsDropped`) or sent to a side output.
 */
export class WindowOperator<IN, ACC, R, OUT, K> extends AbstractStreamOperator<IN, OUT> {
  private windowState!: AggregatingState<IN, ACC, R>;
  private numLateRecordsDropped!: Counter;
  private readonly starts: number[] = [];
  private readonly allowedLateness: number;
  private emitTimestamp = 0;
  private readonly collector: Collector<OUT>;
  protected override readonly timerServiceName = 'window-timers';

  constructor(private readonly spec: WindowOperatorSpec<IN, ACC, R, OUT, K>) {
    super();
    if ((spec.allowedLatenessMs ?? 0) < 0) throw new RangeError('The allowed lateness cannot be negative.');
    this.allowedLateness = spec.allowedLatenessMs ?? 0;
    this.collector = { collect: (value: OUT) => this.output.collect(value, this.emitTimestamp) };
  }

  override open(): void {
    this.windowState = new AggregatingState(this.backend(), { name: 'window-contents' }, this.spec.aggregate, true);
    this.numLateRecordsDropped = this.context.metrics.counter('numLateRecordsDropped');
    this.timerService();
  }

  /** `cleanupTime(window)`: maxTimestamp + allowedLateness, or +∞ on overflow. */
  private cleanupTime(maxTimestamp: number): number {
    const t = maxTimestamp + this.allowedLateness;
    return t >= maxTimestamp ? t : Number.POSITIVE_INFINITY;
  }

  processElement(value: IN, timestamp: number): void {
    const timers = this.timerService();
    const watermark = timers.currentWatermark;
    const n = this.spec.assigner.assignWindows(timestamp, this.starts);
    const size = this.spec.assigner.size;
    let skipped = true;
    for (let i = 0; i < n; i++) {
      const start = this.starts[i];
      const maxTs = start + size - 1;
      // isWindowLate: cleanupTime(window) <= currentWatermark
      if (this.cleanupTime(maxTs) <= watermark) continue;
      skipped = false;
      this.windowState.setCurrentNamespace(start);
      this.windowState.add(value);
      // EventTimeTrigger.onElement
      if (maxTs <= watermark) this.fire(start, maxTs);
      else timers.registerEventTimeTimer(start, maxTs);
      // registerCleanupTimer
      const cleanup = this.cleanupTime(maxTs);
      if (cleanup !== Number.POSITIVE_INFINITY) timers.registerEventTimeTimer(start, cleanup);
    }
    // isElementLate: timestamp + allowedLateness <= currentWatermark
    if (skipped && timestamp + this.allowedLateness <= watermark) {
      if (this.spec.lateDataTag) this.output.collectSide(this.spec.lateDataTag.id, value, timestamp);
      else this.numLateRecordsDropped.inc();
    }
  }

  override onEventTime(timer: InternalTimer): void {
    const start = timer.namespace as number;
    const maxTs = start + this.spec.assigner.size - 1;
    this.windowState.setCurrentNamespace(start);
    // EventTimeTrigger.onEventTime: FIRE when time == window.maxTimestamp()
    if (timer.timestamp === maxTs) this.fire(start, maxTs);
    if (timer.timestamp === this.cleanupTime(maxTs)) {
      // clearAllState: window contents and the trigger's timer
      this.windowState.clear();
      this.timerService().deleteEventTimeTimer(start, maxTs);
    }
  }

  private fire(start: number, maxTs: number): void {
    const result = this.windowState.get();
    if (result === undefined) return;
    this.emitTimestamp = maxTs;
    const key = this.backend().currentKey as unknown as K;
    this.spec.windowFunction.process(key, { start, end: start + this.spec.assigner.size }, result, this.collector);
  }
}
