import { MIN_WATERMARK } from './operator.ts';

/**
 * `WatermarkStrategy.forBoundedOutOfOrderness(maxOutOfOrderness)[.withIdleness(idleTimeout)]`, with the record
 * timestamp the source attaches (like a Kafka record's timestamp).
 */
export interface WatermarkStrategy {
  /** Bound on out-of-orderness in ms. */
  maxOutOfOrdernessMs: number;
  /** Mark the source subtask idle after this long without records (processing time); undefined = never. */
  idleTimeoutMs?: number;
}

export function forBoundedOutOfOrderness(maxOutOfOrdernessMs: number, idleTimeoutMs?: number): WatermarkStrategy {
  if (!(maxOutOfOrdernessMs >= 0)) throw new RangeError('maxOutOfOrderness cannot be negative');
  if (idleTimeoutMs !== undefined && !(idleTimeoutMs > 0)) throw new RangeError('The idle timeout must be positive');
  return { maxOutOfOrdernessMs, idleTimeoutMs };
}

export interface WatermarkSink {
  emitWatermark(watermark: number): void;
  markIdle(): void;
  markActive(): void;
}

/**
 * One source subtask's watermark generation: Flink's `BoundedOutOfOrdernessWatermarks` (periodic watermark
 * `maxTimestamp − outOfOrderness − 1`) wrapped in `WatermarksWithIdleness`, behind the source's
 * `WatermarkToDataOutput`, which only forwards increasing watermarks and toggles idle/active status.
 */
export class SourceWatermarkGenerator {
  private maxTimestamp: number;
  private lastEmitted = MIN_WATERMARK;
  private idle = false;
  private activitySinceCheck = false;
  private inactiveSince = Number.NaN;

  constructor(private readonly strategy: WatermarkStrategy, private readonly sink: WatermarkSink) {
    this.maxTimestamp = MIN_WATERMARK;
  }

  /** Every record's timestamp passes here (`onEvent`). */
  onEvent(timestamp: number): void {
    if (timestamp > this.maxTimestamp) this.maxTimestamp = timestamp;
    this.activitySinceCheck = true;
    if (this.idle) {
      this.idle = false;
      this.sink.markActive();
    }
  }

  /** Every `pipeline.auto-watermark-interval` (`onPeriodicEmit`), at processing time `now`. */
  onPeriodicEmit(now: number): void {
    if (this.strategy.idleTimeoutMs !== undefined) {
      if (this.activitySinceCheck) {
        this.activitySinceCheck = false;
        this.inactiveSince = Number.NaN;
      } else {
        if (Number.isNaN(this.inactiveSince)) this.inactiveSince = now;
        if (!this.idle && now - this.inactiveSince > this.strategy.idleTimeoutMs) {
          this.idle = true;
          this.sink.markIdle();
        }
      }
      if (this.idle) return;
    }
    if (this.maxTimestamp === MIN_WATERMARK) return;
    this.emit(this.maxTimestamp - this.strategy.maxOutOfOrdernessMs - 1);
  }

  /** Emits a watermark if it is higher than any before (also used for the end-of-input MAX_WATERMARK). */
  emit(watermark: number): void {
    if (watermark <= this.lastEmitted) return;
    this.lastEmitted = watermark;
    if (this.idle) {
      this.idle = false;
      this.sink.markActive();
    }
    this.sink.emitWatermark(watermark);
  }

  get currentWatermark(): number {
    return this.lastEmitted;
  }

  get isIdle(): boolean {
    return this.idle;
  }
}

/**
 * Combines the watermarks and idle/active statuses of a task's input channels (Flink's `StatusWatermarkValve`):
 * the output watermark is the minimum over active, aligned channels; idle channels are ignored; when every channel
 * is idle the output becomes idle.
 */
export class StatusWatermarkValve {
  private readonly watermarks: number[];
  private readonly active: boolean[];
  private readonly aligned: boolean[];
  private lastOutputWatermark = MIN_WATERMARK;
  private outputIdle = false;

  constructor(
    numChannels: number,
    private readonly onWatermark: (watermark: number) => void,
    private readonly onStatus: (idle: boolean) => void,
  ) {
    this.watermarks = new Array(numChannels).fill(MIN_WATERMARK);
    this.active = new Array(numChannels).fill(true);
    this.aligned = new Array(numChannels).fill(true);
  }

  get currentWatermark(): number {
    return this.lastOutputWatermark;
  }

  inputWatermark(watermark: number, channel: number): void {
    if (this.outputIdle || !this.active[channel]) return;
    if (watermark > this.watermarks[channel]) {
      this.watermarks[channel] = watermark;
      if (!this.aligned[channel] && watermark >= this.lastOutputWatermark) this.aligned[channel] = true;
      this.findAndOutputNewMinWatermarkAcrossAlignedChannels();
    }
  }

  inputWatermarkStatus(idle: boolean, channel: number): void {
    if (idle && this.active[channel]) {
      this.active[channel] = false;
      this.aligned[channel] = false;
      if (!this.active.includes(true)) {
        // Every input is idle: flush the highest watermark, then go idle.
        this.findAndOutputMaxWatermarkAcrossAllChannels();
        this.outputIdle = true;
        this.onStatus(true);
      } else if (this.watermarks[channel] === this.lastOutputWatermark) {
        this.findAndOutputNewMinWatermarkAcrossAlignedChannels();
      }
    } else if (!idle && !this.active[channel]) {
      this.active[channel] = true;
      if (this.watermarks[channel] >= this.lastOutputWatermark) this.aligned[channel] = true;
      if (this.outputIdle) {
        this.outputIdle = false;
        this.onStatus(false);
      }
    }
  }

  private findAndOutputNewMinWatermarkAcrossAlignedChannels(): void {
    let min = Number.POSITIVE_INFINITY;
    let hasAligned = false;
    for (let i = 0; i < this.watermarks.length; i++) {
      if (this.aligned[i] && this.active[i]) {
        hasAligned = true;
        if (this.watermarks[i] < min) min = this.watermarks[i];
      }
    }
    if (hasAligned && min > this.lastOutputWatermark) {
      this.lastOutputWatermark = min;
      this.onWatermark(min);
    }
  }

  private findAndOutputMaxWatermarkAcrossAllChannels(): void {
    let max = MIN_WATERMARK;
    for (const w of this.watermarks) if (w > max) max = w;
    if (max > this.lastOutputWatermark) {
      this.lastOutputWatermark = max;
      this.onWatermark(max);
    }
  }
}
