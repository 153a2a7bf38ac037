import type { Admin, Kafka } from 'kafkajs';
import type { SecretStore } from '../clusters/secret-store.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { connectionOptionsOf, createKafka, type KafkaConnectionOptions } from './kafka-connection.ts';
import { fromKafkaFailure, withDeadline } from './kafka-errors.ts';
import { kafkaSecretKey, type KafkaSettingsStore } from './kafka-settings.ts';

export interface KafkaConnection {
  kafka: Kafka;
  options: KafkaConnectionOptions;
  /** A connected admin client, shared by the lag queries of this cluster. */
  admin(): Promise<Admin>;
}

/**
 * One Kafka client per cluster with Kafka settings, so repeated lag queries reuse one admin connection. A failed
 * connection is dropped and rebuilt on the next call; editing or removing the settings closes it.
 */
export class KafkaConnections {
  private readonly open = new Map<string, KafkaConnection & { close(): Promise<void> }>();

  constructor(
    private readonly settings: KafkaSettingsStore,
    private readonly secrets: SecretStore,
  ) {}

  get(clusterId: string, clusterName: string): KafkaConnection {
    const existing = this.open.get(clusterId);
    if (existing) return existing;
    const stored = this.settings.get(clusterId);
    if (!stored) throw new EngineError('not-found', `"${clusterName}" has no Kafka settings yet: add its bootstrap servers first.`);
    const options = connectionOptionsOf(stored, this.secrets.get(kafkaSecretKey(clusterId)));
    const kafka = createKafka(options);
    let admin: Promise<Admin> | undefined;
    const connection = {
      kafka,
      options,
      admin: () => {
        admin ??= (async () => {
          const client = kafka.admin();
          try {
            await withDeadline(client.connect(), (options.timeoutMs ?? 10_000) + 2000, () => `The Kafka brokers ${options.brokers.join(',')} did not answer in time.`);
          } catch (error) {
            admin = undefined;
            void client.disconnect().catch(() => {});
            throw fromKafkaFailure(error, options.brokers, 'connecting');
          }
          return client;
        })();
        return admin;
      },
      close: async () => {
        const current = admin;
        admin = undefined;
        if (current) await (await current.catch(() => undefined))?.disconnect().catch(() => {});
      },
    };
    this.open.set(clusterId, connection);
    return connection;
  }

  /** Drops a cluster's client after a failure, so the next call reconnects. */
  reset(clusterId: string): void {
    const connection = this.open.get(clusterId);
    this.open.delete(clusterId);
    void connection?.close();
  }

  /** After an edit or removal of the settings. */
  forget(clusterId: string): void {
    this.reset(clusterId);
  }

  async closeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
