import { describe, expect, it } from 'vitest';
import { emptyKafkaForm, kafkaSettingsToForm, toKafkaSettingsInput, validateKafkaForm } from './kafkaForm';

describe('the Kafka settings form', () => {
  it('asks for brokers as host:port and SASL credentials when a mechanism is chosen', () => {
    expect(validateKafkaForm(emptyKafkaForm(), null)).toEqual({ bootstrapServers: 'Name at least one broker as host:port.' });
    expect(validateKafkaForm({ ...emptyKafkaForm(), bootstrapServers: 'kafka:9092, nope' }, null).bootstrapServers).toBe('"nope" is not host:port.');
    expect(validateKafkaForm({ ...emptyKafkaForm(), bootstrapServers: 'k:9092', mechanism: 'scram-sha-512' }, null)).toEqual({
      username: 'A SASL user name is required.',
      password: 'The SASL password is required.',
    });
    expect(validateKafkaForm({ ...emptyKafkaForm(), bootstrapServers: 'k:9092', caFile: '/ca.pem' }, null)).toEqual({ caFile: 'Turn TLS on to use a CA file.' });
  });

  it('keeps the stored password on edit when the field is left empty', () => {
    const saved = { bootstrapServers: ['k:9092'], tls: true, sasl: { mechanism: 'plain' as const, username: 'ops', hasSecret: true }, clientId: 'c', timeoutMs: 10_000 };
    const form = kafkaSettingsToForm(saved);
    expect(validateKafkaForm(form, saved)).toEqual({});
    expect(toKafkaSettingsInput(form)).toEqual({ bootstrapServers: 'k:9092', tls: true, sasl: { mechanism: 'plain', username: 'ops' }, clientId: 'c' });
    expect(toKafkaSettingsInput({ ...form, password: 'p' }).sasl).toEqual({ mechanism: 'plain', username: 'ops', password: 'p' });
  });
});
