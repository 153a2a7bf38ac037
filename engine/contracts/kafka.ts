/** The Kafka service: a cluster's optional Kafka connection, its sources' consumer lag and hot keys. */

export interface KafkaApi {
  /** The cluster's Kafka connection settings, or null. */
  settings(clusterId: string): Promise<KafkaSettingsView | null>;
  /** Checks the brokers answer (and accept the credentials), then saves. Settings that fail the check are not saved. */
  saveSettings(clusterId: string, input: KafkaSettingsInput): Promise<KafkaSettingsView>;
  removeSettings(clusterId: string): Promise<void>;
  /** The job's Kafka source as Flink's REST API shows it: topics, consumer group, pendingRecords. */
  source(clusterId: string, jobId: string): Promise<KafkaSourceInfo>;
  /** Committed offset, log-end offset and lag per partition of a consumer group; appended to the lag history. */
  consumerLag(clusterId: string, query: ConsumerLagQuery): Promise<ConsumerLagView>;
  /** The lag trend of a group since `sinceMs` (epoch ms), oldest first. */
  lagHistory(clusterId: string, groupId: string, sinceMs: number): Promise<LagPoint[]>;
  /** Reads the last N seconds of a topic (never in the job's group, nothing committed) and counts keys. */
  sampleHotKeys(clusterId: string, query: HotKeySampleQuery): Promise<HotKeySample>;
}

export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** What the user types into the Kafka form of a cluster. The SASL password travels only on save, never back out. */
export interface KafkaSettingsInput {
  /** Bootstrap servers, `host:port`, comma-separated. */
  bootstrapServers: string;
  /** Connect with TLS (verification always on). */
  tls: boolean;
  /** Path of a PEM file with extra CA certificates for TLS. */
  caFile?: string;
  sasl:
    | { mechanism: 'none' }
    | { mechanism: KafkaSaslMechanism; username: string; /** omitted on edit = keep the stored one */ password?: string };
  /** @default "flink-ops-console" */
  clientId?: string;
  /** Per-request timeout. @default 10000 */
  timeoutMs?: number;
}

/** Saved Kafka settings as the UI sees them: never carries the password. */
export interface KafkaSettingsView {
  bootstrapServers: string[];
  tls: boolean;
  caFile?: string;
  sasl: { mechanism: KafkaSaslMechanism | 'none'; username?: string; hasSecret: boolean };
  clientId: string;
  timeoutMs: number;
}

/** One topic-partition of a consumer group. Offsets are record positions (safe integers). */
export interface PartitionLag {
  topic: string;
  partition: number;
  /** null: the group has no committed offset for this partition (shown as such, never as 0). */
  committedOffset: number | null;
  /** The log-end offset (high watermark): the next offset a producer writes. */
  logEndOffset: number;
  /** The first offset still in the log (retention deletes below it). */
  logStartOffset: number;
  /** logEndOffset − committedOffset; null without a committed offset. */
  lag: number | null;
}

export interface ConsumerLag {
  groupId: string;
  /** `Empty`, `Stable`, `Dead` (no such group), ... as the group coordinator says. */
  groupState: string;
  /** Members of the group (a Flink KafkaSource never joins: 0 is normal). */
  members: number;
  topics: string[];
  partitions: PartitionLag[];
  /** Sum of the lag of the partitions with a committed offset. */
  totalLag: number;
  partitionsWithoutCommit: number;
  fetchedAt: number;
  /** Kafka requests this query cost. */
  requestCount: number;
}

/** One point of the lag trend. */
export interface LagPoint {
  at: number;
  totalLag: number;
  partitionsWithoutCommit: number;
  /** The job's own `pendingRecords` at that moment, when Flink exposed it. */
  pendingRecords: number | null;
}

/** What the console found out about a job's Kafka source from Flink's REST API. */
export interface KafkaSourceInfo {
  /** Topics from the source's `KafkaSourceReader.topic.<t>.partition.<p>` metrics. */
  topics: string[];
  /** The consumer group from the job's configuration (`group.id`-like keys), when it says. */
  groupId: string | null;
  /** Sum of the source's `pendingRecords` over its subtasks; null when Flink does not expose it. */
  pendingRecords: number | null;
  /** The Kafka source vertex, when found. */
  sourceVertexId: string | null;
  /** `execution.checkpointing.interval` of the job in ms (offsets are committed on checkpoints); null when off. */
  checkpointIntervalMs: number | null;
}

export interface ConsumerLagQuery {
  groupId: string;
  /** Only these topics; default: every topic the group has committed offsets for. */
  topics?: string[];
  /** The job whose `pendingRecords` to read beside the lag. */
  jobId?: string;
}

export interface ConsumerLagView extends ConsumerLag {
  /** The job's `pendingRecords` (sum over the source's subtasks), when asked and exposed. */
  pendingRecords: number | null;
}

export interface HotKeySampleQuery {
  topic: string;
  /** A path into the JSON value: `tenant_id`, `user.id`, `items[0].sku`. */
  keyPath: string;
  /** Read the records of the last N seconds. @default 60 */
  seconds?: number;
  /** Stop after this many records. @default 200000 */
  maxRecords?: number;
  /** A keyed vertex: where each hot key lands at its current parallelism. */
  keyedVertex?: { maxParallelism: number; parallelism: number };
  /** @default 20 */
  top?: number;
}

export interface HotKey {
  key: string;
  count: number;
  /** count / keyed records (0..1). */
  share: number;
  /** Records per second over the sampled span. */
  ratePerSecond: number;
  /** With a keyed vertex: Flink's key group and the subtask that owns it. */
  keyGroup?: number;
  subtask?: number;
}

export interface HotKeySample {
  topic: string;
  keyPath: string;
  /** The window read: [from, to] as record timestamps. */
  from: number;
  to: number;
  /** Records read, and how many of them were keyed, not JSON (or empty), or lacked the key path (or held no usable key). */
  records: number;
  keyed: number;
  notJson: number;
  missingKey: number;
  distinctKeys: number;
  keys: HotKey[];
  /** With a keyed vertex: the share of keyed records each subtask would get, busiest first. */
  subtaskShares?: Array<{ subtask: number; share: number }>;
  keyedVertex?: { maxParallelism: number; parallelism: number };
  /** True when the sample stopped early (timeout, broker gone, record cap): its numbers cover less than asked. */
  partial: boolean;
  partialReason?: string;
  /** Partitions read and those that could not be read to the end. */
  partitions: number;
  sampledAt: number;
}
