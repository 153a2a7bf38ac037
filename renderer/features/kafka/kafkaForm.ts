import type { KafkaSaslMechanism, KafkaSettingsInput, KafkaSettingsView } from '../../../engine/contracts/kafka';

/** What the Kafka settings form holds (strings, as typed). */
export interface KafkaFormValues {
  bootstrapServers: string;
  tls: boolean;
  caFile: string;
  mechanism: KafkaSaslMechanism | 'none';
  username: string;
  password: string;
  clientId: string;
}

export type KafkaFormField = keyof KafkaFormValues;
export type KafkaFieldErrors = Partial<Record<KafkaFormField, string>>;

export function emptyKafkaForm(): KafkaFormValues {
  return { bootstrapServers: '', tls: false, caFile: '', mechanism: 'none', username: '', password: '', clientId: '' };
}

export function kafkaSettingsToForm(view: KafkaSettingsView): KafkaFormValues {
  return {
    bootstrapServers: view.bootstrapServers.join(','),
    tls: view.tls,
    caFile: view.caFile ?? '',
    mechanism: view.sasl.mechanism,
    username: view.sasl.username ?? '',
    password: '',
    clientId: view.clientId,
  };
}

const BROKER = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/;

/** Checks what the engine would refuse anyway, so the message appears beside the field. */
export function validateKafkaForm(values: KafkaFormValues, saved: KafkaSettingsView | null): KafkaFieldErrors {
  const errors: KafkaFieldErrors = {};
  const brokers = values.bootstrapServers.split(/[\s,]+/).filter(Boolean);
  if (brokers.length === 0) errors.bootstrapServers = 'Name at least one broker as host:port.';
  else {
    const bad = brokers.find((b) => !BROKER.test(b) || Number(b.slice(b.lastIndexOf(':') + 1)) > 65535);
    if (bad) errors.bootstrapServers = `"${bad}" is not host:port.`;
  }
  if (values.caFile.trim() !== '' && !values.tls) errors.caFile = 'Turn TLS on to use a CA file.';
  if (values.mechanism !== 'none') {
    if (values.username.trim() === '') errors.username = 'A SASL user name is required.';
    const keep = saved !== null && saved.sasl.mechanism !== 'none' && saved.sasl.hasSecret;
    if (values.password === '' && !keep) errors.password = 'The SASL password is required.';
  }
  return errors;
}

/** The engine's input; an empty password on edit keeps the stored one. */
export function toKafkaSettingsInput(values: KafkaFormValues): KafkaSettingsInput {
  return {
    bootstrapServers: values.bootstrapServers.trim(),
    tls: values.tls,
    ...(values.caFile.trim() !== '' ? { caFile: values.caFile.trim() } : {}),
    sasl:
      values.mechanism === 'none'
        ? { mechanism: 'none' }
        : { mechanism: values.mechanism, username: values.username.trim(), ...(values.password !== '' ? { password: values.password } : {}) },
    ...(values.clientId.trim() !== '' ? { clientId: values.clientId.trim() } : {}),
  };
}
