import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { KafkaSettingsView } from '../../../engine/contracts/kafka';
import { useEngine } from '../../app/engine';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { testIds } from '../../testIds';
import { emptyKafkaForm, kafkaSettingsToForm, toKafkaSettingsInput, validateKafkaForm, type KafkaFieldErrors, type KafkaFormField, type KafkaFormValues } from './kafkaForm';
import { useKafkaApi } from './api';

/**
 * The cluster's Kafka connection: bootstrap servers, TLS (custom CA), SASL, client id. The engine checks the brokers
 * before saving and refuses settings that cannot connect, with the reason inline; every field keeps what was typed.
 */
export function KafkaSettingsForm({ clusterId, saved, onSaved, onCancel }: { clusterId: string; saved: KafkaSettingsView | null; onSaved: (view: KafkaSettingsView) => void; onCancel?: () => void }): ReactNode {
  const { appInfo } = useEngine();
  const kafkaApi = useKafkaApi();
  const [values, setValues] = useState<KafkaFormValues>(() => (saved ? kafkaSettingsToForm(saved) : emptyKafkaForm()));
  const [errors, setErrors] = useState<KafkaFieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ErrorInfo | null>(null);
  const id = useId();
  const set = <F extends KafkaFormField>(field: F) => (value: KafkaFormValues[F]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const found = validateKafkaForm(values, saved);
    setErrors(found);
    if (Object.keys(found).length > 0 || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      onSaved(await kafkaApi.saveSettings(clusterId, toKafkaSettingsInput(values)));
    } catch (error) {
      setFailure(toErrorInfo(error));
    } finally {
      setBusy(false);
    }
  };

  const field = (name: KafkaFormField, label: string, input: ReactNode, hint?: string): ReactNode => (
    <div className={`field${errors[name] ? ' field--invalid' : ''}`}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      {input}
      {errors[name] ? <span className="field__error">{errors[name]}</span> : hint ? <span className="field__hint">{hint}</span> : null}
    </div>
  );

  return (
    <form className="kafka-form" onSubmit={onSubmit} data-testid={testIds.kafka.settingsForm} aria-label="Kafka settings" noValidate>
      {field(
        'bootstrapServers',
        'Bootstrap servers',
        <input id={`${id}-bootstrapServers`} value={values.bootstrapServers} onChange={(e) => set('bootstrapServers')(e.target.value)} placeholder="kafka-1:9092,kafka-2:9092" autoComplete="off" />,
        'host:port, comma-separated',
      )}
      <div className="form-row">
        <label className="radio">
          <input type="checkbox" checked={values.tls} onChange={(e) => set('tls')(e.target.checked)} /> TLS (certificates are always verified)
        </label>
      </div>
      {values.tls
        ? field('caFile', 'CA file (PEM, optional)', <input id={`${id}-caFile`} value={values.caFile} onChange={(e) => set('caFile')(e.target.value)} placeholder="/etc/kafka/ca.pem" />)
        : null}
      {field(
        'mechanism',
        'SASL',
        <select id={`${id}-mechanism`} value={values.mechanism} onChange={(e) => set('mechanism')(e.target.value as KafkaFormValues['mechanism'])}>
          <option value="none">none</option>
          <option value="plain">PLAIN</option>
          <option value="scram-sha-256">SCRAM-SHA-256</option>
          <option value="scram-sha-512">SCRAM-SHA-512</option>
        </select>,
      )}
      {values.mechanism !== 'none' ? (
        <div className="form-row">
          {field('username', 'User', <input id={`${id}-username`} value={values.username} onChange={(e) => set('username')(e.target.value)} autoComplete="off" />)}
          {field(
            'password',
            'Password',
            <input id={`${id}-password`} type="password" value={values.password} onChange={(e) => set('password')(e.target.value)} autoComplete="new-password" />,
            saved?.sasl.hasSecret ? 'leave empty to keep the stored one' : appInfo?.secretStorage === 'memory' ? 'kept in memory only in web mode' : 'stored encrypted',
          )}
        </div>
      ) : null}
      {field('clientId', 'Client id (optional)', <input id={`${id}-clientId`} value={values.clientId} onChange={(e) => set('clientId')(e.target.value)} placeholder="flink-ops-console" />)}
      {failure ? <ErrorBanner error={failure} context="The brokers did not accept these settings" testId={testIds.kafka.settingsError} /> : null}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Connecting…' : 'Connect and save'}
        </button>
        {onCancel ? (
          <button type="button" className="button button--ghost" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
