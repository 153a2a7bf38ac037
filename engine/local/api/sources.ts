import type { InputStatus, Source, SourceEmit, SourceReader, SourceReaderContext } from './datastream.ts';

export interface SequenceSourceOptions<T> {
  /** Records per second per subtask; Infinity = as fast as the pipeline takes them. */
  ratePerSubtask: number;
  /** Total records per subtask; undefined = unbounded. */
  countPerSubtask?: number;
  /** The record for sequence number `i` of subtask `subtask`. */
  record: (i: number, subtask: number) => T;
  /** Event time of record `i` (default: its scheduled emission time). */
  timestamp?: (i: number, scheduledAt: number, subtask: number) => number;
}

/** The position of one split of a {@link SequenceSource} (its operator state). */
export interface SequenceSplitState {
  split: number;
  /** Splits of the stream: the source parallelism of the job's first run. */
  numSplits: number;
  /** The first run's start: split timings are relative to it. */
  startTime: number;
  /** Records of this split emitted so far. */
  next: number;
}

/**
 * A simple rate-controlled source for tests and custom jobs: split s emits record i at `start + i / rate`
 * (virtual processing time), like a topic partition filled at a steady rate and read without lag unless
 * back-pressured. A fresh job has one split per source subtask; the splits' positions are the reader's operator state,
 * so a restored job (at any parallelism) continues every split where it was.
 */
export class SequenceSource<T> implements Source<T> {
  constructor(private readonly options: SequenceSourceOptions<T>) {}

  get bounded(): boolean {
    return this.options.countPerSubtask !== undefined;
  }

  createReader(context: SourceReaderContext): SourceReader<T> {
    const { ratePerSubtask, countPerSubtask, record, timestamp } = this.options;
    const interval = Number.isFinite(ratePerSubtask) ? 1000 / ratePerSubtask : 0;
    const splits: SequenceSplitState[] = context.restoredState
      ? context.restoredState.map((s) => ({ ...(s as SequenceSplitState) }))
      : [{ split: context.subtaskIndex, numSplits: context.parallelism, startTime: context.startTime, next: 0 }];
    const done = (s: SequenceSplitState) => countPerSubtask !== undefined && s.next >= countPerSubtask;
    let turn = 0;
    return {
      pollNext(now: number, max: number, emit: SourceEmit<T>): InputStatus {
        let n = 0;
        let more = false;
        for (let k = 0; k < splits.length && n < max; k++) {
          const s = splits[(turn + k) % splits.length];
          while (n < max && !done(s)) {
            const scheduledAt = s.startTime + s.next * interval;
            if (scheduledAt > now) break;
            const ts = timestamp ? timestamp(s.next, scheduledAt, s.split) : scheduledAt;
            emit(record(s.next, s.split), ts, s.split);
            s.next++;
            n++;
          }
          if (!done(s) && s.startTime + s.next * interval <= now) more = true;
        }
        turn++;
        if (countPerSubtask !== undefined && splits.every(done)) return 'END_OF_INPUT';
        return more ? 'MORE_AVAILABLE' : 'NOTHING_AVAILABLE';
      },
      activeSplits: () => splits.filter((s) => !done(s)).map((s) => s.split),
      snapshotState: () => splits.map((s) => ({ ...s })),
    };
  }
}

/** A sink that keeps everything in memory (tests, and the UI's result view). */
export class CollectSink<T> {
  readonly values: Array<{ value: T; timestamp: number; subtask: number }> = [];

  createWriter(context: { subtaskIndex: number }) {
    return {
      write: (value: T, timestamp: number) => {
        this.values.push({ value, timestamp, subtask: context.subtaskIndex });
      },
    };
  }
}
