import { javaStringHashCode } from '../../analysis/key-groups/java-hash.ts';
import type { InputStatus, Source, SourceEmit, SourceReader, SourceReaderContext } from '../api/datastream.ts';
import { COMMITTED_OFFSET, EARLIEST_OFFSET, LATEST_OFFSET, type KafkaFetcher, type PartitionBuffer } from './kafka-fetcher.ts';

/** One split of the Kafka source: a topic-partition and the next offset to read (Flink's `KafkaPartitionSplit`). */
export interface KafkaSplitState {
  topic: string;
  partition: number;
  /** The next offset to read, or a special starting offset (-1 latest, -2 earliest, -3 committed) not yet resolved. */
  offset: number;
  /** Bounded reading: stop before this offset (set when the split was created). */
  stoppingOffset?: number;
}

export type StartingOffsets = 'committed' | 'earliest' | 'latest';

export interface KafkaSourceOptions {
  topic: string;
  /** The job's consumer group (`group.id`): offsets are committed under it on every completed checkpoint. */
  groupId: string;
  /** The topic's partitions when the job was built. */
  partitions: readonly number[];
  /** Where a fresh split starts. @default 'committed' (the group's committed offset, else the earliest) */
  startingOffsets?: StartingOffsets;
  /** Bounded reading (Flink's `setBounded`): per partition, the offset to stop before. */
  stoppingOffsets?: ReadonlyMap<number, number>;
  /** The job's fetcher (one kafkajs consumer shared by its readers), made on first use. */
  fetcher: () => KafkaFetcher;
}

/**
 * `KafkaSourceEnumerator.getSplitOwner`: which reader of `numReaders` a fresh partition goes to, so a job started at a
 * parallelism reads the same partitions per subtask as a real Flink would.
 */
export function splitOwner(topic: string, partition: number, numReaders: number): number {
  const startIndex = (Math.imul(javaStringHashCode(topic), 31) & 0x7fffffff) % numReaders;
  return (startIndex + partition) % numReaders;
}

const SPECIAL: Record<StartingOffsets, number> = { committed: COMMITTED_OFFSET, earliest: EARLIEST_OFFSET, latest: LATEST_OFFSET };

function isSplitState(v: unknown): v is KafkaSplitState {
  const s = v as Record<string, unknown>;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.topic === 'string' &&
    Number.isInteger(s.partition) &&
    Number.isInteger(s.offset) &&
    (s.offset as number) >= COMMITTED_OFFSET &&
    (s.stoppingOffset === undefined || Number.isInteger(s.stoppingOffset))
  );
}

/**
 * Flink's `KafkaSource` on the local engine: a split per topic-partition; a split's offset is the reader's operator
 * state (SPLIT_DISTRIBUTE), so a restored job — after a TaskManager kill, a savepoint, a rescale — reads every
 * partition again from exactly the offset its state was checkpointed with, and state and offsets stay together.
 * Offsets are committed to the job's group when a checkpoint completes (`KafkaSourceReader.notifyCheckpointComplete`),
 * so the group's lag saw-tooths with the checkpoint interval, as with a real Flink.
 */
export class KafkaSource implements Source<string> {
  private fetcherInstance: KafkaFetcher | undefined;

  constructor(readonly options: KafkaSourceOptions) {}

  get bounded(): boolean {
    return this.options.stoppingOffsets !== undefined;
  }

  private get fetcher(): KafkaFetcher {
    this.fetcherInstance ??= this.options.fetcher();
    return this.fetcherInstance;
  }

  createReader(context: SourceReaderContext): KafkaSourceReader {
    const { topic, partitions, stoppingOffsets } = this.options;
    const start = SPECIAL[this.options.startingOffsets ?? 'committed'];
    const states: KafkaSplitState[] = context.restoredState
      ? context.restoredState.map((raw) => {
          if (!isSplitState(raw)) throw new Error(`The source state holds an invalid split ${JSON.stringify(raw)}: it was not written by the Kafka source.`);
          if (raw.topic !== topic) throw new Error(`The source state reads topic "${raw.topic}", this job reads "${topic}": restore it with the same --topic.`);
          return { ...raw };
        })
      : partitions
          .filter((p) => splitOwner(topic, p, context.parallelism) === context.subtaskIndex)
          .map((p) => ({ topic, partition: p, offset: start, ...(stoppingOffsets ? { stoppingOffset: stoppingOffsets.get(p) ?? 0 } : {}) }));
    return new KafkaSourceReader(states, this.fetcher, this.bounded);
  }

  close(): void {
    void this.fetcherInstance?.close();
  }
}

interface Split {
  state: KafkaSplitState;
  buffer: PartitionBuffer;
  ended: boolean;
}

/** One source subtask: drains its splits' buffers in turn; snapshots and commits their offsets. */
export class KafkaSourceReader implements SourceReader<string> {
  private readonly splits: Split[];
  private turn = 0;
  private active: number[];
  private readonly offsetsToCommit = new Map<number, Map<number, number>>();
  private readonly committed = new Map<number, number>();
  private commitsSucceeded = 0;
  private commitsFailed = 0;
  private closed = false;

  constructor(
    states: KafkaSplitState[],
    private readonly fetcher: KafkaFetcher,
    private readonly bounded: boolean,
  ) {
    this.splits = states.map((state) => ({ state, buffer: fetcher.assign(state.partition, state.offset), ended: false }));
    for (const s of this.splits) this.checkEnd(s);
    this.active = this.activeOf();
  }

  private activeOf(): number[] {
    return this.splits.filter((s) => !s.ended).map((s) => s.state.partition);
  }

  /** A bounded split ends at its stopping offset. */
  private checkEnd(s: Split): boolean {
    if (!s.ended && s.state.stoppingOffset !== undefined && s.state.offset >= 0 && s.state.offset >= s.state.stoppingOffset) s.ended = true;
    return s.ended;
  }

  pollNext(_now: number, max: number, emit: SourceEmit<string>): InputStatus {
    let left = max;
    let more = false;
    let changed = false;
    const n = this.splits.length;
    for (let k = 0; k < n && left > 0; k++) {
      const s = this.splits[(this.turn + k) % n];
      if (s.ended) continue;
      const { buffer, state } = s;
      if (state.offset < 0 && buffer.startOffset >= 0) state.offset = buffer.startOffset; // resolved in the background
      if (this.checkEnd(s)) {
        changed = true;
        continue;
      }
      for (let record = buffer.peek(); record !== undefined && left > 0; record = buffer.peek()) {
        if (state.stoppingOffset !== undefined && record.offset >= state.stoppingOffset) break;
        buffer.take();
        state.offset = record.offset + 1;
        left--;
        emit(record.value, record.timestamp, state.partition);
      }
      if (this.checkEnd(s)) changed = true;
      else if (buffer.size > 0) more = true;
      this.fetcher.drained(buffer);
    }
    this.turn = n > 0 ? (this.turn + 1) % n : 0;
    if (changed) this.active = this.activeOf();
    if (this.bounded && this.active.length === 0) return 'END_OF_INPUT';
    return more ? 'MORE_AVAILABLE' : 'NOTHING_AVAILABLE';
  }

  activeSplits(): readonly number[] {
    return this.active;
  }

  /** The splits' offsets; for a checkpoint, also what to commit once it completes. */
  snapshotState(checkpointId?: number): KafkaSplitState[] {
    const states = this.splits.map((s) => ({ ...s.state }));
    if (checkpointId !== undefined) {
      const offsets = new Map<number, number>();
      for (const s of states) if (s.offset >= 0) offsets.set(s.partition, s.offset);
      this.offsetsToCommit.set(checkpointId, offsets);
    }
    return states;
  }

  /** Commits the offsets snapshotted for `checkpointId`; older pending commits are subsumed by it. */
  notifyCheckpointComplete(checkpointId: number): void {
    const offsets = this.offsetsToCommit.get(checkpointId);
    for (const id of [...this.offsetsToCommit.keys()]) if (id <= checkpointId) this.offsetsToCommit.delete(id);
    if (!offsets || offsets.size === 0) return;
    this.fetcher.commit(offsets).then(
      () => {
        this.commitsSucceeded++;
        for (const [p, o] of offsets) this.committed.set(p, o);
      },
      () => {
        this.commitsFailed++;
      },
    );
  }

  /** `pendingRecords` (log end − offset over the splits) and Flink's `KafkaSourceReader` metrics. */
  metrics(): Record<string, number> {
    let pending = 0;
    const out: Record<string, number> = {};
    for (const s of this.splits) {
      const { partition, topic, offset } = s.state;
      if (offset >= 0 && s.buffer.highWatermark >= 0) pending += Math.max(0, (s.state.stoppingOffset ?? s.buffer.highWatermark) - offset);
      out[`KafkaSourceReader.topic.${topic}.partition.${partition}.currentOffset`] = offset;
      out[`KafkaSourceReader.topic.${topic}.partition.${partition}.committedOffset`] = this.committed.get(partition) ?? -1;
    }
    out.pendingRecords = pending;
    out['KafkaSourceReader.commitsSucceeded'] = this.commitsSucceeded;
    out['KafkaSourceReader.commitsFailed'] = this.commitsFailed;
    return out;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.splits) this.fetcher.release(s.buffer);
  }
}
