import type { InputStatus, Source, SourceReader, SourceReaderContext } from './datastream.ts';

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

/**
 * A simple rate-controlled source for tests and custom jobs: subtask s emits record i at `start + i / rate`
 * (virtual processing time), like a topic filled at a steady rate and read without lag unless back-pressured.
 */
export class SequenceSource<T> implements Source<T> {
  constructor(private readonly options: SequenceSourceOptions<T>) {}

  get bounded(): boolean {
    return this.options.countPerSubtask !== undefined;
  }

  createReader(context: SourceReaderContext): SourceReader<T> {
    const { ratePerSubtask, countPerSubtask, record, timestamp } = this.options;
    const interval = Number.isFinite(ratePerSubtask) ? 1000 / ratePerSubtask : 0;
    let next = 0;
    return {
      pollNext(now: number, max: number, emit: (value: T, ts: number) => void): InputStatus {
        for (let n = 0; n < max; n++) {
          if (countPerSubtask !== undefined && next >= countPerSubtask) return 'END_OF_INPUT';
          const scheduledAt = context.startTime + next * interval;
          if (scheduledAt > now) return 'NOTHING_AVAILABLE';
          const ts = timestamp ? timestamp(next, scheduledAt, context.subtaskIndex) : scheduledAt;
          emit(record(next, context.subtaskIndex), ts);
          next++;
        }
        if (countPerSubtask !== undefined && next >= countPerSubtask) return 'END_OF_INPUT';
        return 'MORE_AVAILABLE';
      },
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
