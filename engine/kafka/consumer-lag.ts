import type { Admin } from 'kafkajs';
import type { ConsumerLag } from '../contracts/kafka.ts';
import { computeConsumerLag, type CommittedOffset, type LogOffsets } from '../analysis/consumer-lag.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { fromKafkaFailure } from './kafka-errors.ts';

export interface ConsumerLagRequest {
  groupId: string;
  /** Only these topics; default: every topic the group has committed offsets for. */
  topics?: string[];
}

/**
 * A consumer group's lag, read with the admin client: the group's state (DescribeGroups), its committed offsets
 * (OffsetFetch, one request for all partitions) and each topic's log start and end (ListOffsets earliest and latest).
 * It reads and never commits: querying the lag changes nothing on the cluster.
 */
export async function fetchConsumerLag(admin: Admin, request: ConsumerLagRequest, brokers: readonly string[], now: () => number = Date.now): Promise<ConsumerLag> {
  const groupId = request.groupId.trim();
  if (groupId === '') throw new EngineError('invalid-input', 'Which consumer group? The group id is empty.');
  let requestCount = 0;
  const count = admin.on(admin.events.REQUEST, () => requestCount++);
  try {
    const what = `reading the lag of consumer group "${groupId}"`;
    const call = async <T>(work: () => Promise<T>, topic?: string): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        const failure = fromKafkaFailure(error, brokers, what);
        if (failure.info.kind === 'not-found' && topic !== undefined) throw new EngineError('not-found', `Topic "${topic}" does not exist on ${brokers.join(',')}.`);
        throw failure;
      }
    };
    const [description] = (await call(() => admin.describeGroups([groupId]))).groups;
    let topics = request.topics?.map((t) => t.trim()).filter((t) => t !== '');
    if (!topics || topics.length === 0) {
      const known = await call(() => admin.fetchOffsets({ groupId }));
      topics = [...new Set(known.map((t) => t.topic))].sort();
      if (topics.length === 0) {
        throw new EngineError(
          'not-found',
          description.state === 'Dead'
            ? `Consumer group "${groupId}" does not exist on ${brokers.join(',')} (no members, no committed offsets). Flink commits under the source's group.id on each checkpoint.`
            : `Consumer group "${groupId}" has committed no offsets yet (state ${description.state}): name the topic to see its log-end offsets.`,
        );
      }
    }
    const committed: CommittedOffset[] = [];
    const logs: LogOffsets[] = [];
    for (const topic of topics) {
      const ends = await call(() => admin.fetchTopicOffsets(topic), topic);
      for (const p of ends) logs.push({ topic, partition: p.partition, logStartOffset: Number(p.low), logEndOffset: Number(p.high) });
    }
    const offsets = await call(() => admin.fetchOffsets({ groupId, topics: topics! }));
    for (const t of offsets) for (const p of t.partitions) committed.push({ topic: t.topic, partition: p.partition, offset: Number(p.offset) });
    const totals = computeConsumerLag(committed, logs);
    return {
      groupId,
      groupState: description.state,
      members: description.members.length,
      topics,
      ...totals,
      fetchedAt: now(),
      requestCount,
    };
  } finally {
    count();
  }
}
