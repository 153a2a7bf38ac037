import { describe, expect, it } from 'vitest';
import { EngineError } from '../flink-rest/errors.ts';
import { fromKafkaFailure } from './kafka-errors.ts';
import { KafkaSettingsStore, parseBootstrapServers, toKafkaSettingsView, validateKafkaSettings } from './kafka-settings.ts';

describe('Kafka settings', () => {
  it('parse bootstrap servers as host:port lists, and name a bad entry', () => {
    expect(parseBootstrapServers(' a:9092, b.example:19092 [::1]:9093 a:9092')).toEqual(['a:9092', 'b.example:19092', '[::1]:9093']);
    expect(() => parseBootstrapServers('')).toThrow(/at least one broker/);
    expect(() => parseBootstrapServers('kafka')).toThrow(/"kafka" is not host:port/);
    expect(() => parseBootstrapServers('kafka:70000')).toThrow(/"kafka:70000"/);
  });

  it('validate the form, keep the password out of what is stored, and refuse a CA file without TLS', () => {
    const valid = validateKafkaSettings({ bootstrapServers: 'k:9092', tls: true, caFile: '/ca.pem', sasl: { mechanism: 'scram-sha-512', username: 'ops', password: 's3cret' } });
    expect(valid.stored).toEqual({ bootstrapServers: ['k:9092'], tls: true, caFile: '/ca.pem', sasl: { mechanism: 'scram-sha-512', username: 'ops' }, clientId: 'flink-ops-console', timeoutMs: 10_000 });
    expect(valid.password).toBe('s3cret');
    expect(JSON.stringify(valid.stored)).not.toContain('s3cret');
    expect(() => validateKafkaSettings({ bootstrapServers: 'k:9092', tls: false, caFile: '/ca.pem', sasl: { mechanism: 'none' } })).toThrow(/turn TLS on/);
    expect(() => validateKafkaSettings({ bootstrapServers: 'k:9092', tls: false, sasl: { mechanism: 'plain', username: '' } })).toThrow(/Kafka sasl.username: a SASL username is required/);
    expect(toKafkaSettingsView(valid.stored, true).sasl).toEqual({ mechanism: 'scram-sha-512', username: 'ops', hasSecret: true });
  });

  it('are stored per cluster beside the cluster list, and a damaged file is reported', () => {
    const data = new Map<string, unknown>();
    const store = new KafkaSettingsStore({ get: (k) => data.get(k), set: (k, v) => void data.set(k, v) });
    const { stored } = validateKafkaSettings({ bootstrapServers: 'k:9092', tls: false, sasl: { mechanism: 'none' } });
    store.set('c1', stored);
    store.set('c2', { ...stored, clientId: 'other' });
    store.remove('c1');
    expect(store.get('c1')).toBeUndefined();
    expect(store.get('c2')?.clientId).toBe('other');
    data.set('kafka', { c3: { bootstrapServers: [] } });
    expect(() => store.get('c3')).toThrow(/saved Kafka settings are damaged/);
  });
});

describe('Kafka failures', () => {
  const brokers = ['k:9092'];
  it('map kafkajs errors (wrapped in retries) to kinds and one sentence', () => {
    const wrapped = (inner: object) => Object.assign(new Error('retries'), { name: 'KafkaJSNumberOfRetriesExceeded', originalError: inner });
    const refused = fromKafkaFailure(wrapped({ name: 'KafkaJSConnectionError', message: 'Connection error: connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' }), brokers, 'reading');
    expect(refused.info).toMatchObject({ kind: 'refused', message: expect.stringContaining('Cannot reach the Kafka brokers k:9092 while reading') });
    expect(fromKafkaFailure({ name: 'KafkaJSSASLAuthenticationError', message: 'SASL SCRAM SHA256 authentication failed: bad' }, brokers, 'x').info.kind).toBe('unauthorized');
    expect(fromKafkaFailure(wrapped({ name: 'KafkaJSConnectionError', message: 'Connection error: self-signed certificate in certificate chain', code: 'SELF_SIGNED_CERT_IN_CHAIN' }), brokers, 'x').info.kind).toBe('tls');
    expect(fromKafkaFailure({ name: 'KafkaJSProtocolError', type: 'UNKNOWN_TOPIC_OR_PARTITION', message: 'This server does not host this topic-partition' }, brokers, 'x').info.kind).toBe('not-found');
    expect(fromKafkaFailure(wrapped({ name: 'KafkaJSConnectionError', message: 'getaddrinfo ENOTFOUND nope', code: 'ENOTFOUND' }), brokers, 'x').info.kind).toBe('dns');
    expect(fromKafkaFailure(new Error('Request timed out'), brokers, 'x').info.kind).toBe('timeout');
    const already = new EngineError('invalid-input', 'mine');
    expect(fromKafkaFailure(already, brokers, 'x')).toBe(already);
  });
});
