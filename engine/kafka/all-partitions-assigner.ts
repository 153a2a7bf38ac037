import { AssignerProtocol, type PartitionAssigner } from 'kafkajs';

export const ALL_PARTITIONS_ASSIGNER = 'FlinkOpsAllPartitions';

/**
 * kafkajs has no `assign()` (manual partition assignment): a consumer always joins a group. This assigner gives every
 * member every partition of the subscribed topics, so a member reads exactly the partitions it seeks to, whoever else
 * is in the group — the effect of Flink's assign-based KafkaConsumer. Used with a throwaway group by the hot-key
 * sampler, and with the job's group by the local engine's Kafka source (so its offsets are committed under it).
 */
export const allPartitionsAssigner: PartitionAssigner = ({ cluster }) => ({
  name: ALL_PARTITIONS_ASSIGNER,
  version: 1,
  protocol({ topics }) {
    return { name: ALL_PARTITIONS_ASSIGNER, metadata: AssignerProtocol.MemberMetadata.encode({ version: 1, topics, userData: Buffer.alloc(0) }) };
  },
  async assign({ members, topics }) {
    const assignment: Record<string, number[]> = {};
    for (const topic of topics) assignment[topic] = cluster.findTopicPartitionMetadata(topic).map((p) => p.partitionId);
    const memberAssignment = AssignerProtocol.MemberAssignment.encode({ version: 1, assignment, userData: Buffer.alloc(0) });
    return members.map(({ memberId }) => ({ memberId, memberAssignment }));
  },
});
