/**
 * Flink's metric "views": values recomputed every `UPDATE_INTERVAL_SECONDS` (5 s) by the metric registry's view
 * updater, over a time span (60 s for the task I/O metrics). Same update rules as Flink's `MeterView` and
 * `TimerGauge`, so a chart of the local engine ramps and settles like a real cluster's.
 */

/** `View.UPDATE_INTERVAL_SECONDS`. */
export const UPDATE_INTERVAL_SECONDS = 5;
export const UPDATE_INTERVAL_MS = UPDATE_INTERVAL_SECONDS * 1000;

export interface View {
  update(): void;
}

/** A monotonically increasing count (Flink's `SimpleCounter`). */
export class Counter {
  count = 0;

  inc(n = 1): void {
    this.count += n;
  }

  getCount(): number {
    return this.count;
  }
}

/**
 * `MeterView(counter, timeSpanInSeconds)`: rate = (count now − count one time span ago) / time span, from a circular
 * history updated every 5 s. During the first time span the "ago" count is 0, so a fresh task's rate ramps up, as in
 * Flink.
 */
export class MeterView implements View {
  private readonly timeSpanInSeconds: number;
  private readonly values: number[];
  private time = 0;
  private currentRate = 0;

  constructor(private readonly counter: { getCount(): number }, timeSpanInSeconds = 60) {
    const span = Math.max(timeSpanInSeconds, UPDATE_INTERVAL_SECONDS);
    this.timeSpanInSeconds = span - (span % UPDATE_INTERVAL_SECONDS);
    this.values = new Array(this.timeSpanInSeconds / UPDATE_INTERVAL_SECONDS + 1).fill(0);
  }

  getCount(): number {
    return this.counter.getCount();
  }

  getRate(): number {
    return this.currentRate;
  }

  update(): void {
    this.time = (this.time + 1) % this.values.length;
    this.values[this.time] = this.counter.getCount();
    this.currentRate = (this.values[this.time] - this.values[(this.time + 1) % this.values.length]) / this.timeSpanInSeconds;
  }
}

/**
 * `TimerGauge`: milliseconds per second spent in a state (idle, back-pressured), averaged over the filled part of a
 * 60 s window of 5 s buckets, clamped to [0, 1000]. The engine adds measured time with `add(ms)` instead of
 * markStart/markEnd, since it accounts time per scheduling step.
 */
export class TimerGauge implements View {
  private readonly values: number[];
  private idx = 0;
  private fullWindow = false;
  private currentCount = 0;
  private currentValue = 0;
  private accumulated = 0;
  private currentMax = 0;
  private previousMax = 0;
  private run = 0;

  constructor(timeSpanInSeconds = 60) {
    const span = Math.max(timeSpanInSeconds - (timeSpanInSeconds % UPDATE_INTERVAL_SECONDS), UPDATE_INTERVAL_SECONDS);
    this.values = new Array(span / UPDATE_INTERVAL_SECONDS).fill(0);
  }

  /** Adds `ms` spent in the state; `continuesRun` says whether it extends the previous measurement (for the max). */
  add(ms: number, continuesRun: boolean): void {
    if (ms <= 0) {
      if (!continuesRun) this.run = 0;
      return;
    }
    this.currentCount += ms;
    this.accumulated += ms;
    this.run = continuesRun ? this.run + ms : ms;
    if (this.run > this.currentMax) this.currentMax = this.run;
  }

  /** Ends the current uninterrupted period (for `getMaxSingleMeasurement`). */
  endRun(): void {
    this.run = 0;
  }

  update(): void {
    if (this.idx === this.values.length - 1) this.fullWindow = true;
    this.values[this.idx] = this.currentCount;
    this.idx = (this.idx + 1) % this.values.length;
    const maxIndex = this.fullWindow ? this.values.length : this.idx;
    let total = 0;
    for (let i = 0; i < maxIndex; i++) total += this.values[i];
    this.currentValue = Math.max(Math.min(Math.floor(total / (UPDATE_INTERVAL_SECONDS * maxIndex)), 1000), 0);
    this.previousMax = this.currentMax;
    this.currentMax = this.run;
    this.currentCount = 0;
  }

  /** ms per second over the window (Flink: a `Long`). */
  getValue(): number {
    return this.currentValue;
  }

  /** The longest uninterrupted period seen in the last update interval (e.g. `maxHardBackPressureTimeMs`). */
  getMaxSingleMeasurement(): number {
    return this.previousMax;
  }

  /** Total ms ever added (the `accumulate…TimeMs` metrics). */
  getAccumulatedCount(): number {
    return this.accumulated;
  }
}
