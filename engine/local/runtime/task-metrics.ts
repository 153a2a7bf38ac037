import { Counter, MeterView, TimerGauge, type View } from '../metrics/views.ts';

/** Flink's metric identifiers for operator scopes replace these characters (`MetricQueryService` filter). */
export function metricScopeName(operatorName: string): string {
  return operatorName.replace(/[ .:,]/g, '_').slice(0, 80);
}

/**
 * The I/O metrics of one subtask, with Flink's names and update rules (`TaskIOMetricGroup`): counters, 60 s
 * `MeterView` rates, and the idle / back-pressured `TimerGauge`s from which busy time is derived as
 * `1000 − min(idle + backPressured, 1000)`.
 */
export class TaskIOMetrics {
  readonly numRecordsIn = new Counter();
  readonly numRecordsOut = new Counter();
  readonly numBytesInLocal = new Counter();
  readonly numBytesInRemote = new Counter();
  readonly numBytesOut = new Counter();
  readonly numBuffersInLocal = new Counter();
  readonly numBuffersInRemote = new Counter();
  readonly numBuffersOut = new Counter();
  readonly numBytesIn = { getCount: () => this.numBytesInLocal.count + this.numBytesInRemote.count };

  readonly numRecordsInPerSecond = new MeterView(this.numRecordsIn);
  readonly numRecordsOutPerSecond = new MeterView(this.numRecordsOut);
  readonly numBytesInPerSecond = new MeterView(this.numBytesIn);
  readonly numBytesOutPerSecond = new MeterView(this.numBytesOut);
  readonly numBytesInLocalPerSecond = new MeterView(this.numBytesInLocal);
  readonly numBytesInRemotePerSecond = new MeterView(this.numBytesInRemote);

  readonly idleTime = new TimerGauge();
  readonly softBackPressuredTime = new TimerGauge();
  readonly hardBackPressuredTime = new TimerGauge();

  /** Time spent busy (processing), accumulated: for `accumulated-busy-time` and the step accounting test. */
  accumulatedBusyMs = 0;
  /** The task's input watermark (`currentInputWatermark`, Long.MIN_VALUE until the first one). */
  currentInputWatermark = Number.NEGATIVE_INFINITY;

  views(): View[] {
    return [
      this.numRecordsInPerSecond,
      this.numRecordsOutPerSecond,
      this.numBytesInPerSecond,
      this.numBytesOutPerSecond,
      this.numBytesInLocalPerSecond,
      this.numBytesInRemotePerSecond,
      this.idleTime,
      this.softBackPressuredTime,
      this.hardBackPressuredTime,
    ];
  }

  /** `backPressuredTimeMsPerSecond` = soft + hard. */
  backPressuredTimeMsPerSecond(): number {
    return this.softBackPressuredTime.getValue() + this.hardBackPressuredTime.getValue();
  }

  /**
   * The accumulated times with Flink's types (`accumulated-*-time`, `accumulate*TimeMs`): idle and back-pressured are
   * whole ms (a `TimerGauge` counts `long` ms); busy is the rest of the time since the task started
   * (`getAccumulatedBusyTime`: a double, whole as in Flink). The engine accounts fractions of a ms: they stay inside.
   */
  accumulatedTimes(): { busyMs: number; idleMs: number; backPressuredMs: number } {
    const idle = this.idleTime.getAccumulatedCount();
    const soft = this.softBackPressuredTime.getAccumulatedCount();
    const hard = this.hardBackPressuredTime.getAccumulatedCount();
    const idleMs = Math.floor(idle);
    const backPressuredMs = Math.floor(soft) + Math.floor(hard);
    const elapsedMs = Math.round(this.accumulatedBusyMs + idle + soft + hard);
    return { busyMs: Math.max(elapsedMs - idleMs - backPressuredMs, 0), idleMs, backPressuredMs };
  }

  /** `getBusyTimePerSecond()`: 1000 − min(idle + backPressured, 1000). */
  busyTimeMsPerSecond(): number {
    return 1000 - Math.min(this.idleTime.getValue() + this.backPressuredTimeMsPerSecond(), 1000);
  }
}

/** Built-in metrics of one operator in a chain, plus those it registers itself. */
export class OperatorMetrics {
  readonly numRecordsIn = new Counter();
  readonly numRecordsOut = new Counter();
  readonly numRecordsInPerSecond = new MeterView(this.numRecordsIn);
  readonly numRecordsOutPerSecond = new MeterView(this.numRecordsOut);
  currentInputWatermark = Number.NEGATIVE_INFINITY;
  currentOutputWatermark = Number.NEGATIVE_INFINITY;
  readonly counters = new Map<string, Counter>();
  readonly gauges = new Map<string, () => number | string>();
  private readonly rateViews: MeterView[] = [];

  constructor(readonly scopeName: string) {}

  counter(name: string): Counter {
    let c = this.counters.get(name);
    if (!c) {
      c = new Counter();
      this.counters.set(name, c);
      if (name === 'numLateRecordsDropped') {
        const rate = new MeterView(c);
        this.rateViews.push(rate);
        this.gauges.set('lateRecordsDroppedRate', () => rate.getRate());
      }
    }
    return c;
  }

  gauge(name: string, read: () => number | string): void {
    this.gauges.set(name, read);
  }

  views(): View[] {
    return [this.numRecordsInPerSecond, this.numRecordsOutPerSecond, ...this.rateViews];
  }
}
