import { describe, expect, it } from 'vitest';
import { javaStringHashCode } from '../../analysis/key-groups/java-hash.ts';
import { COMMITTED_OFFSET, PartitionBuffer, type KafkaFetcher } from './kafka-fetcher.ts';
import { KafkaSource, splitOwner } from './kafka-source.ts';
import { ManualClock } from '../time/clock.ts';

/** The fetcher's side the reader uses, in memory: buffers the test fills, commits it records. */
function memoryFetcher() {
  const buffers = new Map<number, PartitionBuffer>();
  const commits: Array<Map<number, number>> = [];
  const fetcher = {
    assign: (partition: number, offset: number) => {
      const b = new PartitionBuffer(partition, offset);
      buffers.set(partition, b);
      return b;
    },
    release: (b: PartitionBuffer) => void (b.released = true),
    drained: () => {},
    commit: (offsets: ReadonlyMap<number, number>) => {
      commits.push(new Map(offsets));
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  } as unknown as KafkaFetcher;
  const fill = (partition: number, from: number, n: number) => {
    const b = buffers.get(partition)!;
    if (b.startOffset < 0) b.startOffset = b.next = from; // the background resolved the starting offset
    for (let i = 0; i < n; i++) b.records.push({ offset: from + i, value: `{"p":${partition},"o":${from + i}}`, timestamp: 1000 + i });
    b.highWatermark = from + n;
  };
  return { fetcher, buffers, commits, fill };
}

const context = (subtaskIndex: number, parallelism: number, restoredState?: unknown[]) => ({ subtaskIndex, parallelism, startTime: 0, clock: new ManualClock(0), ...(restoredState ? { restoredState } : {}) });

describe('the Kafka source', () => {
  it('gives partitions to readers as Flink\'s enumerator does', () => {
    const topic = 'gateway-events';
    const start = (Math.imul(javaStringHashCode(topic), 31) & 0x7fffffff) % 4;
    expect(splitOwner(topic, 0, 4)).toBe(start);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((p) => splitOwner(topic, p, 4))).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((p) => (start + p) % 4));
  });

  it('reads its splits from the buffers, snapshots offsets and commits a checkpoint\'s offsets when it completes', async () => {
    const mem = memoryFetcher();
    const source = new KafkaSource({ topic: 't', groupId: 'g', partitions: [0, 1, 2, 3], fetcher: () => mem.fetcher });
    const owned = [0, 1, 2, 3].filter((p) => splitOwner('t', p, 2) === 0);
    const reader = source.createReader(context(0, 2));
    expect(reader.snapshotState().map((s) => [s.partition, s.offset])).toEqual(owned.map((p) => [p, COMMITTED_OFFSET]));
    mem.fill(owned[0], 10, 5);
    mem.fill(owned[1], 0, 3);
    const seen: Array<[string, number, number | undefined]> = [];
    expect(reader.pollNext(0, 100, (v, ts, split) => seen.push([v, ts, split]))).toBe('NOTHING_AVAILABLE');
    expect(seen).toHaveLength(8);
    const snapshot = reader.snapshotState(7);
    expect(snapshot.map((s) => [s.partition, s.offset])).toEqual([
      [owned[0], 15],
      [owned[1], 3],
    ]);
    expect(reader.metrics()).toMatchObject({ pendingRecords: 0, [`KafkaSourceReader.topic.t.partition.${owned[0]}.currentOffset`]: 15 });
    reader.notifyCheckpointComplete(7);
    await Promise.resolve();
    expect(mem.commits).toEqual([new Map([[owned[0], 15], [owned[1], 3]])]);
    expect(reader.metrics()['KafkaSourceReader.commitsSucceeded']).toBe(1);
  });

  it('a restored reader reads from the checkpointed offsets; a bounded one ends at its stopping offsets', () => {
    const mem = memoryFetcher();
    const source = new KafkaSource({ topic: 't', groupId: 'g', partitions: [0], stoppingOffsets: new Map([[0, 12]]), fetcher: () => mem.fetcher });
    const reader = source.createReader(context(0, 1, [{ topic: 't', partition: 0, offset: 10, stoppingOffset: 12 }]));
    expect(mem.buffers.get(0)!.startOffset).toBe(10);
    mem.fill(0, 10, 5);
    const offsets: number[] = [];
    expect(reader.pollNext(0, 100, (v) => offsets.push((JSON.parse(v) as { o: number }).o))).toBe('END_OF_INPUT');
    expect(offsets).toEqual([10, 11]);
    expect(() => source.createReader(context(0, 1, [{ topic: 'other', partition: 0, offset: 1 }]))).toThrow(/reads topic "other"/);
  });
});
