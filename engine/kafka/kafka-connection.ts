import { readFileSync } from 'node:fs';
import { Kafka, logLevel, type KafkaConfig, type SASLOptions } from 'kafkajs';
import { EngineError } from '../flink-rest/errors.ts';
import { DEFAULT_KAFKA_CLIENT_ID, DEFAULT_KAFKA_TIMEOUT_MS, type StoredKafkaSettings } from './kafka-settings.ts';

/** Everything needed to talk to a Kafka cluster: the saved settings plus the SASL password. */
export interface KafkaConnectionOptions {
  brokers: string[];
  tls?: boolean;
  /** PEM file with the CA certificates to trust for TLS (verification is always on). */
  caFile?: string;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  clientId?: string;
  /** Connection and request timeout. @default 10000 */
  timeoutMs?: number;
}

/** Connection options from saved settings and the stored password. */
export function connectionOptionsOf(settings: StoredKafkaSettings, password: string | undefined): KafkaConnectionOptions {
  let sasl: KafkaConnectionOptions['sasl'];
  if (settings.sasl.mechanism !== 'none') {
    if (password === undefined) {
      throw new EngineError('unauthorized', 'No Kafka SASL password in this session: edit the cluster\'s Kafka settings to enter it again.');
    }
    sasl = { mechanism: settings.sasl.mechanism, username: settings.sasl.username ?? '', password };
  }
  return { brokers: settings.bootstrapServers, tls: settings.tls, caFile: settings.caFile, sasl, clientId: settings.clientId, timeoutMs: settings.timeoutMs };
}

function readCa(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new EngineError('invalid-input', `Cannot read the Kafka CA file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new EngineError('invalid-input', `The Kafka CA file ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  return pem;
}

/**
 * A kafkajs client: TLS verification on (with the custom CA when given), SASL when given, kafkajs' logging off (every
 * failure reaches the caller as an error instead), and few quick retries so a dead broker is reported within the
 * timeout instead of after kafkajs' default ~30 s of backoff.
 */
export function createKafka(options: KafkaConnectionOptions): Kafka {
  const timeoutMs = options.timeoutMs ?? DEFAULT_KAFKA_TIMEOUT_MS;
  const ssl: KafkaConfig['ssl'] = options.tls ? (options.caFile ? { ca: [readCa(options.caFile)], rejectUnauthorized: true } : { rejectUnauthorized: true }) : undefined;
  return new Kafka({
    clientId: options.clientId ?? DEFAULT_KAFKA_CLIENT_ID,
    brokers: options.brokers,
    ssl,
    sasl: options.sasl as SASLOptions | undefined,
    connectionTimeout: Math.min(timeoutMs, 5000),
    authenticationTimeout: Math.min(timeoutMs, 5000),
    requestTimeout: timeoutMs,
    retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 1000 },
    logLevel: logLevel.NOTHING,
  });
}
