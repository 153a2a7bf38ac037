import { z } from 'zod';
import type { KafkaSaslMechanism, KafkaSettingsInput, KafkaSettingsView } from '../contracts/kafka.ts';
import type { KeyValueBackend } from '../clusters/cluster-store.ts';
import { EngineError } from '../flink-rest/errors.ts';

/**
 * A cluster's optional Kafka connection settings. They live beside the cluster list in the same file (key `kafka`, by
 * cluster id); the SASL password lives in the SecretStore under {@link kafkaSecretKey}, like the cluster's own secret.
 */

export const DEFAULT_KAFKA_CLIENT_ID = 'flink-ops-console';
export const DEFAULT_KAFKA_TIMEOUT_MS = 10_000;

/** The SecretStore key of a cluster's SASL password (the cluster's own secret is under its bare id). */
export function kafkaSecretKey(clusterId: string): string {
  return `kafka:${clusterId}`;
}

/** `host:port` or `[v6]:port`, port 1..65535. */
const BROKER = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/;

/** Splits and checks a bootstrap list (commas or spaces); throws an invalid-input error naming the bad entry. */
export function parseBootstrapServers(text: string): string[] {
  const entries = text.split(/[\s,]+/).filter((s) => s !== '');
  if (entries.length === 0) throw new EngineError('invalid-input', 'Kafka bootstrap servers: name at least one broker as host:port, e.g. 127.0.0.1:9092.');
  for (const entry of entries) {
    const match = BROKER.exec(entry);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65535) {
      throw new EngineError('invalid-input', `Kafka bootstrap server "${entry}" is not host:port (e.g. 127.0.0.1:9092).`);
    }
  }
  return [...new Set(entries)];
}

const MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const satisfies readonly KafkaSaslMechanism[];

const InputSchema = z.object({
  bootstrapServers: z.string(),
  tls: z.boolean(),
  caFile: z.string().trim().optional().transform((v) => (v ? v : undefined)),
  sasl: z.discriminatedUnion('mechanism', [
    z.object({ mechanism: z.literal('none') }),
    z.object({ mechanism: z.enum(MECHANISMS), username: z.string().min(1, 'a SASL username is required'), password: z.string().optional() }),
  ]),
  clientId: z.string().trim().max(200).optional().transform((v) => (v ? v : undefined)),
  timeoutMs: z.number().int().min(500, 'the timeout must be at least 500 ms').max(300_000, 'the timeout must be at most 300000 ms').optional(),
});

/** Settings as stored on disk: no password. */
const StoredSchema = z.object({
  bootstrapServers: z.array(z.string().min(1)).min(1),
  tls: z.boolean(),
  caFile: z.string().optional(),
  sasl: z.object({ mechanism: z.enum(['none', ...MECHANISMS]), username: z.string().optional() }),
  clientId: z.string().min(1),
  timeoutMs: z.number().int().positive(),
});
export type StoredKafkaSettings = z.infer<typeof StoredSchema>;

export interface ValidKafkaSettings {
  stored: StoredKafkaSettings;
  /** The password typed into the form, if any. */
  password?: string;
}

/** Validates the form's input (untrusted until it passes here). */
export function validateKafkaSettings(input: KafkaSettingsInput): ValidKafkaSettings {
  const parsed = InputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngineError('invalid-input', `Kafka ${issue.path.join('.') || 'settings'}: ${issue.message}.`);
  }
  const v = parsed.data;
  if (v.caFile && !v.tls) throw new EngineError('invalid-input', 'Kafka CA file: turn TLS on to use a CA file.');
  return {
    stored: {
      bootstrapServers: parseBootstrapServers(v.bootstrapServers),
      tls: v.tls,
      ...(v.caFile ? { caFile: v.caFile } : {}),
      sasl: v.sasl.mechanism === 'none' ? { mechanism: 'none' } : { mechanism: v.sasl.mechanism, username: v.sasl.username },
      clientId: v.clientId ?? DEFAULT_KAFKA_CLIENT_ID,
      timeoutMs: v.timeoutMs ?? DEFAULT_KAFKA_TIMEOUT_MS,
    },
    ...(v.sasl.mechanism !== 'none' && v.sasl.password ? { password: v.sasl.password } : {}),
  };
}

export function toKafkaSettingsView(stored: StoredKafkaSettings, hasSecret: boolean): KafkaSettingsView {
  return {
    bootstrapServers: stored.bootstrapServers,
    tls: stored.tls,
    ...(stored.caFile ? { caFile: stored.caFile } : {}),
    sasl: { mechanism: stored.sasl.mechanism, ...(stored.sasl.username ? { username: stored.sasl.username } : {}), hasSecret },
    clientId: stored.clientId,
    timeoutMs: stored.timeoutMs,
  };
}

const KEY = 'kafka';

/** The Kafka settings of every cluster, persisted beside the cluster list. */
export class KafkaSettingsStore {
  constructor(private readonly backend: KeyValueBackend) {}

  private all(): Record<string, StoredKafkaSettings> {
    const raw = this.backend.get(KEY) ?? {};
    const parsed = z.record(z.string(), StoredSchema).safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new EngineError('invalid-input', `The saved Kafka settings are damaged (kafka.${issue.path.join('.')}: ${issue.message}). Fix or delete the config file.`);
    }
    return parsed.data;
  }

  get(clusterId: string): StoredKafkaSettings | undefined {
    return this.all()[clusterId];
  }

  set(clusterId: string, settings: StoredKafkaSettings): void {
    this.backend.set(KEY, { ...this.all(), [clusterId]: StoredSchema.parse(settings) });
  }

  remove(clusterId: string): void {
    const all = this.all();
    if (!(clusterId in all)) return;
    delete all[clusterId];
    this.backend.set(KEY, all);
  }
}
