import { describe, expect, it } from 'vitest';
import { computeConsumerLag } from './consumer-lag.ts';

const log = (topic: string, partition: number, logEndOffset: number, logStartOffset = 0) => ({ topic, partition, logStartOffset, logEndOffset });

describe('computeConsumerLag', () => {
  it('is the log end minus the committed offset, per partition, summed', () => {
    const result = computeConsumerLag(
      [
        { topic: 't', partition: 0, offset: 40 },
        { topic: 't', partition: 1, offset: 100 },
      ],
      [log('t', 1, 100), log('t', 0, 55)],
    );
    expect(result.partitions.map((p) => [p.partition, p.committedOffset, p.logEndOffset, p.lag])).toEqual([
      [0, 40, 55, 15],
      [1, 100, 100, 0],
    ]);
    expect(result.totalLag).toBe(15);
    expect(result.partitionsWithoutCommit).toBe(0);
  });

  it('shows a partition without a committed offset as such, not as zero lag, and leaves it out of the total', () => {
    const result = computeConsumerLag([{ topic: 't', partition: 0, offset: -1 }], [log('t', 0, 70), log('t', 1, 30)]);
    expect(result.partitions).toEqual([
      { topic: 't', partition: 0, committedOffset: null, logEndOffset: 70, logStartOffset: 0, lag: null },
      { topic: 't', partition: 1, committedOffset: null, logEndOffset: 30, logStartOffset: 0, lag: null },
    ]);
    expect(result.totalLag).toBe(0);
    expect(result.partitionsWithoutCommit).toBe(2);
  });

  it('never reports a negative lag (a committed offset past a recreated topic\'s end)', () => {
    expect(computeConsumerLag([{ topic: 't', partition: 0, offset: 500 }], [log('t', 0, 20)]).partitions[0].lag).toBe(0);
  });

  it('keeps topics apart and sorts by topic, then partition', () => {
    const result = computeConsumerLag(
      [
        { topic: 'b', partition: 0, offset: 1 },
        { topic: 'a', partition: 0, offset: 2 },
      ],
      [log('b', 0, 5), log('a', 1, 9), log('a', 0, 3)],
    );
    expect(result.partitions.map((p) => `${p.topic}/${p.partition}:${p.lag}`)).toEqual(['a/0:1', 'a/1:null', 'b/0:4']);
    expect(result.totalLag).toBe(5);
  });
});
