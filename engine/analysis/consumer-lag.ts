import type { PartitionLag } from '../contracts/kafka.ts';

/** A group's committed offset of one partition, as the coordinator answers (`-1`: none). */
export interface CommittedOffset {
  topic: string;
  partition: number;
  offset: number;
}

/** A partition's log bounds (ListOffsets earliest and latest). */
export interface LogOffsets {
  topic: string;
  partition: number;
  logStartOffset: number;
  logEndOffset: number;
}

export interface LagTotals {
  partitions: PartitionLag[];
  totalLag: number;
  partitionsWithoutCommit: number;
}

/**
 * Consumer lag per partition: log-end offset − committed offset. A partition the group never committed is kept with
 * `committedOffset: null` and `lag: null` (not 0: nothing says the group read it), and is left out of the total.
 * A committed offset beyond the log end (the topic was recreated) counts as 0, not negative.
 * Partitions come out sorted by topic, then partition.
 */
export function computeConsumerLag(committed: readonly CommittedOffset[], logs: readonly LogOffsets[]): LagTotals {
  const byPartition = new Map(committed.map((c) => [`${c.topic}\u0000${c.partition}`, c.offset]));
  const partitions = logs
    .map((log): PartitionLag => {
      const offset = byPartition.get(`${log.topic}\u0000${log.partition}`);
      const committedOffset = offset !== undefined && offset >= 0 ? offset : null;
      return {
        topic: log.topic,
        partition: log.partition,
        committedOffset,
        logEndOffset: log.logEndOffset,
        logStartOffset: log.logStartOffset,
        lag: committedOffset === null ? null : Math.max(0, log.logEndOffset - committedOffset),
      };
    })
    .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
  let totalLag = 0;
  let partitionsWithoutCommit = 0;
  for (const p of partitions) {
    if (p.lag === null) partitionsWithoutCommit++;
    else totalLag += p.lag;
  }
  return { partitions, totalLag, partitionsWithoutCommit };
}
