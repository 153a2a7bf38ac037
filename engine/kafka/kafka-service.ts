import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { SecretStore } from '../clusters/secret-store.ts';
import type { ConsumerLagQuery, HotKeySampleQuery, KafkaApi, KafkaSettingsInput } from '../contracts/kafka.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { requireId } from '../flink-rest/input-checks.ts';
import { fetchConsumerLag } from './consumer-lag.ts';
import { sampleHotKeys } from './hot-key-sampler.ts';
import { connectionOptionsOf, createKafka } from './kafka-connection.ts';
import type { KafkaConnections } from './kafka-connections.ts';
import { fromKafkaFailure, withDeadline } from './kafka-errors.ts';
import { kafkaSecretKey, toKafkaSettingsView, validateKafkaSettings, type KafkaSettingsStore } from './kafka-settings.ts';
import { discoverKafkaSource, readPendingRecords } from './kafka-source-discovery.ts';
import type { LagHistory } from './lag-history.ts';

export interface KafkaServiceDeps {
  registry: ClusterRegistry;
  secrets: SecretStore;
  settings: KafkaSettingsStore;
  connections: KafkaConnections;
  lagHistory: LagHistory;
  /** How long a hot-key sample may read. */
  sampleTimeoutMs: number;
}

/** A cluster's optional Kafka connection, its sources' consumer lag and hot keys. */
export class KafkaService implements KafkaApi {
  constructor(private readonly deps: KafkaServiceDeps) {}

  async settings(clusterId: string) {
    this.deps.registry.find(clusterId);
    const stored = this.deps.settings.get(clusterId);
    return stored ? toKafkaSettingsView(stored, this.deps.secrets.get(kafkaSecretKey(clusterId)) !== undefined) : null;
  }

  async saveSettings(clusterId: string, input: KafkaSettingsInput) {
    const { registry, secrets, settings } = this.deps;
    const cluster = registry.find(clusterId);
    const valid = validateKafkaSettings(input);
    const password = valid.password ?? (valid.stored.sasl.mechanism !== 'none' ? secrets.get(kafkaSecretKey(clusterId)) : undefined);
    // Checked before saving: settings that cannot reach the brokers (or whose credentials fail) are not kept.
    const options = connectionOptionsOf(valid.stored, password);
    const admin = createKafka(options).admin();
    try {
      await withDeadline(
        (async () => {
          await admin.connect();
          await admin.describeCluster();
        })(),
        options.timeoutMs! + 2000,
        () => `The Kafka brokers ${options.brokers.join(',')} did not answer within ${options.timeoutMs} ms.`,
      );
    } catch (error) {
      throw fromKafkaFailure(error, options.brokers, `checking the Kafka settings of "${cluster.name}"`);
    } finally {
      void admin.disconnect().catch(() => {});
    }
    settings.set(clusterId, valid.stored);
    if (password === undefined) secrets.delete(kafkaSecretKey(clusterId));
    else secrets.set(kafkaSecretKey(clusterId), password);
    this.deps.connections.forget(clusterId);
    return toKafkaSettingsView(valid.stored, password !== undefined);
  }

  async removeSettings(clusterId: string) {
    this.deps.registry.find(clusterId);
    this.forgetCluster(clusterId);
  }

  /** The cluster is gone (or its settings removed): nothing of its Kafka connection is kept. */
  forgetCluster(clusterId: string): void {
    this.deps.settings.remove(clusterId);
    this.deps.secrets.delete(kafkaSecretKey(clusterId));
    this.deps.connections.forget(clusterId);
  }

  async source(clusterId: string, jobId: string) {
    return discoverKafkaSource(this.deps.registry.connection(clusterId).client, requireId(jobId, 'job'));
  }

  async consumerLag(clusterId: string, query: ConsumerLagQuery) {
    if (typeof query !== 'object' || query === null || typeof query.groupId !== 'string') throw new EngineError('invalid-input', 'Which consumer group? The group id is missing.');
    const { options, admin } = this.kafka(clusterId);
    const jobId = query.jobId !== undefined ? requireId(query.jobId, 'job') : undefined;
    const [lag, pendingRecords] = await Promise.all([
      admin()
        .then((client) => fetchConsumerLag(client, { groupId: query.groupId, topics: Array.isArray(query.topics) ? query.topics.map(String) : undefined }, options.brokers))
        .catch(this.resetOnFailure(clusterId)),
      // The job's own view of its backlog; a cluster that does not expose it (or is down) leaves it empty.
      jobId !== undefined ? readPendingRecords(this.deps.registry.connection(clusterId).client, jobId).catch(() => null) : Promise.resolve(null),
    ]);
    this.deps.lagHistory.append(clusterId, lag.groupId, { at: lag.fetchedAt, totalLag: lag.totalLag, partitionsWithoutCommit: lag.partitionsWithoutCommit, pendingRecords });
    return { ...lag, pendingRecords };
  }

  async lagHistory(clusterId: string, groupId: string, sinceMs: number) {
    this.deps.registry.find(clusterId);
    if (typeof groupId !== 'string' || !Number.isFinite(sinceMs)) throw new EngineError('invalid-input', 'The lag history needs a group id and a start time.');
    return this.deps.lagHistory.read(clusterId, groupId, sinceMs, Date.now());
  }

  async sampleHotKeys(clusterId: string, query: HotKeySampleQuery) {
    if (typeof query !== 'object' || query === null) throw new EngineError('invalid-input', 'The hot-key sample needs a topic and a key path.');
    const { kafka: client, options } = this.kafka(clusterId);
    return sampleHotKeys(
      client,
      {
        topic: String(query.topic ?? ''),
        keyPath: String(query.keyPath ?? ''),
        seconds: query.seconds,
        maxRecords: query.maxRecords,
        top: query.top,
        keyedVertex: query.keyedVertex,
      },
      { brokers: options.brokers, timeoutMs: this.deps.sampleTimeoutMs },
    );
  }

  private kafka(clusterId: string) {
    return this.deps.connections.get(clusterId, this.deps.registry.find(clusterId).name);
  }

  /** A Kafka failure that may mean a dead connection: the next call reconnects. */
  private resetOnFailure(clusterId: string) {
    return (error: unknown): never => {
      if (error instanceof EngineError && !['invalid-input', 'not-found'].includes(error.info.kind)) this.deps.connections.reset(clusterId);
      throw error;
    };
  }
}
