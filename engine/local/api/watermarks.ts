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

interface SplitWatermarkState {
  maxTimestamp: number;
  idle: boolean;
  activitySinceCheck: boolean;
  /** Relative (unpaused) time since which the split saw no record; NaN while active. */
  inactiveSince: number;
}

/**
 * Watermarks of a FLIP-27 source subtask that reads several splits (Flink's per-split watermarks: one
 * `BoundedOutOfOrdernessWatermarks` + `WatermarksWithIdleness` per split behind a `WatermarkOutputMultiplexer`):
 * - each split has its own max timestamp and idleness; a split without records holds the output at Long.MIN_VALUE;
 * - the subtask emits the minimum over its non-idle splits, only when it increases; when every split is idle (or the
 *   subtask has no split at all) the subtask is idle;
 * - a finished split is released: it no longer holds the others back;
 * - the idleness clock pauses while the subtask is back-pressured (FLIP-471, FLINK-35886), so a source that cannot
 *   emit because its output is full is not taken for idle.
 * With one split it is Flink's `BoundedOutOfOrdernessWatermarks` (periodic watermark `maxTimestamp − outOfOrderness − 1`)
 * wrapped in `WatermarksWithIdleness`, behind the source's `WatermarkToDataOutput` (only increasing watermarks are
 * forwarded; idle/active status is toggled).
 */
export class SplitWatermarkMultiplexer {
  private readonly splits = new Map<number, SplitWatermarkState>();
  private lastEmitted = MIN_WATERMARK;
  private idle = false;
  /** Relative time: processing time minus the time spent back-pressured. */
  private relativeNow = 0;
  private lastCheck = Number.NaN;
  /** The split of the previous record (records come in runs per split). */
  private lastSplit = -1;
  private lastState: SplitWatermarkState | undefined;

  constructor(
    private readonly strategy: WatermarkStrategy,
    private readonly sink: WatermarkSink,
    splits: readonly number[] = [0],
  ) {
    for (const s of splits) this.addSplit(s);
  }

  addSplit(split: number): void {
    if (!this.splits.has(split)) this.splits.set(split, { maxTimestamp: MIN_WATERMARK, idle: false, activitySinceCheck: false, inactiveSince: Number.NaN });
  }

  /** The split was read to its end: its output is released. */
  removeSplit(split: number): void {
    this.splits.delete(split);
    if (this.lastSplit === split) this.lastSplit = -1;
  }

  get numSplits(): number {
    return this.splits.size;
  }

  splitIds(): number[] {
    return [...this.splits.keys()];
  }

  /** Every record's timestamp passes here, with the split it came from. */
  onEvent(timestamp: number, split = 0): void {
    let s = split === this.lastSplit ? this.lastState : this.splits.get(split);
    if (s === undefined) {
      this.addSplit(split);
      s = this.splits.get(split)!;
    }
    this.lastSplit = split;
    this.lastState = s;
    if (timestamp > s.maxTimestamp) s.maxTimestamp = timestamp;
    s.activitySinceCheck = true;
    s.idle = false;
    if (this.idle) {
      this.idle = false;
      this.sink.markActive();
    }
  }

  /**
   * Every `pipeline.auto-watermark-interval` at processing time `now`; `backPressured` pauses the idleness clock for
   * the time since the previous call.
   */
  onPeriodicEmit(now: number, backPressured = false): void {
    if (!Number.isNaN(this.lastCheck) && !backPressured) this.relativeNow += now - this.lastCheck;
    this.lastCheck = now;
    const timeout = this.strategy.idleTimeoutMs;
    let min = Number.POSITIVE_INFINITY;
    let active = 0;
    for (const s of this.splits.values()) {
      if (timeout !== undefined) {
        if (s.activitySinceCheck) {
          s.activitySinceCheck = false;
          s.inactiveSince = Number.NaN;
        } else {
          if (Number.isNaN(s.inactiveSince)) s.inactiveSince = this.relativeNow;
          if (!s.idle && this.relativeNow - s.inactiveSince > timeout) s.idle = true;
        }
        if (s.idle) continue;
      }
      active++;
      const wm = s.maxTimestamp === MIN_WATERMARK ? MIN_WATERMARK : s.maxTimestamp - this.strategy.maxOutOfOrdernessMs - 1;
      if (wm < min) min = wm;
    }
    if (active === 0) {
      // Every split idle, or no split at all (more subtasks than splits): the subtask is idle.
      if (timeout !== undefined || this.splits.size === 0) {
        if (!this.idle) {
          this.idle = true;
          this.sink.markIdle();
        }
      }
      return;
    }
    if (min === MIN_WATERMARK) return;
    this.emit(min);
  }

  /** Emits a watermark if it is higher than any before (also the end-of-input MAX_WATERMARK). */
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
