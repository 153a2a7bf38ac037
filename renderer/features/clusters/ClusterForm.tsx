import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { ClusterCheck, ClusterConfig } from '../../../engine/contracts/clusters';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import { useEngine } from '../../app/engine';
import { hrefFor, useHashRoute } from '../../app/useHashRoute';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { showToast } from '../../components/toasts';
import { testIds } from '../../testIds';
import { useClusters } from './ClustersProvider';
import {
  CLUSTER_AUTH,
  STORE_AUTH,
  canKeepSecret,
  clusterToForm,
  clusterWithSameUrl,
  emptyClusterForm,
  toClusterInput,
  validateClusterForm,
  type AuthFieldNames,
  type ClusterFormField,
  type ClusterFormValues,
  type FieldErrors,
} from './clusterForm';
import { useClustersApi } from './api';

type Outcome =
  | { kind: 'saved'; cluster: ClusterConfig; check: ClusterCheck }
  | { kind: 'checked'; check: ClusterCheck }
  | { kind: 'failed'; action: 'save' | 'check'; error: ErrorInfo }
  | { kind: 'duplicate'; of: ClusterConfig };

/**
 * Add or edit a cluster. The engine checks the cluster before saving; when it refuses, its message
 * and the endpoint show inline here and every field keeps what was typed.
 */
export function ClusterForm({ editing }: { editing: ClusterConfig | null }): ReactNode {
  const { appInfo } = useEngine();
  const clustersApi = useClustersApi();
  const { clusters, reload } = useClusters();
  const [, navigate] = useHashRoute();
  const [values, setValues] = useState<ClusterFormValues>(() => (editing ? clusterToForm(editing) : emptyClusterForm()));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState<'save' | 'check' | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // After the first successful save the form edits that cluster: saving again updates it, never duplicates it.
  const [saved, setSaved] = useState<ClusterConfig | null>(null);
  const current = saved ?? editing;
  const id = useId();

  const set = (field: ClusterFormField) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setFieldErrors((e) => ({ ...e, [field]: undefined }));
  };

  const run = async (action: 'save' | 'check', options: { sameUrlConfirmed?: boolean } = {}): Promise<void> => {
    const errors = validateClusterForm(values, current);
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    // The same cluster twice is almost always a mistake: say which one it duplicates, and let the user go on.
    const sameUrl = action === 'save' && !options.sameUrlConfirmed ? clusterWithSameUrl(values.url, clusters ?? [], current) : null;
    if (sameUrl) {
      setOutcome({ kind: 'duplicate', of: sameUrl });
      return;
    }
    setBusy(action);
    setOutcome(null);
    try {
      const input = toClusterInput(values, current);
      if (action === 'save') {
        const result = await clustersApi.save(input);
        if (!current) {
          // A new cluster is what the user came to see: open it (once the sidebar knows it), the check said in a toast.
          await reload();
          showToast({ tone: 'success', title: `Saved “${result.cluster.name}”`, body: checkSentence(result.check) });
          navigate({ page: 'cluster', clusterId: result.cluster.id });
          return;
        }
        setOutcome({ kind: 'saved', cluster: result.cluster, check: result.check });
        setSaved(result.cluster);
        setValues((v) => ({ ...v, password: '', token: '', storePassword: '', storeToken: '' }));
        void reload();
      } else {
        setOutcome({ kind: 'checked', check: await clustersApi.check(input) });
      }
    } catch (error) {
      setOutcome({ kind: 'failed', action, error: toErrorInfo(error) });
    } finally {
      setBusy(null);
    }
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void run('save');
  };

  const keepSecret = canKeepSecret(values, current);
  const memoryOnly = appInfo?.secretStorage === 'memory';

  return (
    <section className="panel cluster-form-panel" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="page-title">
        {editing ? `Edit cluster “${editing.name}”` : 'Add a cluster'}
      </h1>
      <form className="cluster-form" onSubmit={onSubmit} noValidate data-testid={testIds.clusters.form} aria-busy={busy != null}>
        <Field id={`${id}-name`} label="Name" error={fieldErrors.name}>
          <input
            id={`${id}-name`}
            value={values.name}
            onChange={(e) => set('name')(e.target.value)}
            placeholder="prod-eu"
            autoComplete="off"
            aria-invalid={fieldErrors.name ? true : undefined}
            aria-describedby={fieldErrors.name ? `${id}-name-error` : undefined}
            required
          />
        </Field>
        <Field id={`${id}-url`} label="REST URL" error={fieldErrors.url} hint="The JobManager's REST endpoint, as you would open the Flink Web UI.">
          <input
            id={`${id}-url`}
            value={values.url}
            onChange={(e) => set('url')(e.target.value)}
            placeholder="http://flink-jobmanager:8081"
            autoComplete="off"
            spellCheck={false}
            inputMode="url"
            aria-invalid={fieldErrors.url ? true : undefined}
            aria-describedby={fieldErrors.url ? `${id}-url-error` : `${id}-url-hint`}
            required
          />
        </Field>

        <fieldset className="form-fieldset">
          <legend>Authentication</legend>
          <AuthFields id={id} names={CLUSTER_AUTH} values={values} errors={fieldErrors} set={set} keepSecret={keepSecret} />
          {memoryOnly ? (
            <p className="notice notice--warning" data-testid={testIds.clusters.memoryNotice} role="note">
              Web mode: passwords and tokens are kept in memory only. They are not written to disk, and the console asks
              for them again after it restarts.
            </p>
          ) : null}
        </fieldset>

        <div className="form-row">
          <Field
            id={`${id}-ca`}
            label="CA file (optional)"
            hint="Path of a PEM file with extra CA certificates, for https URLs."
          >
            <input
              id={`${id}-ca`}
              value={values.caFile}
              onChange={(e) => set('caFile')(e.target.value)}
              placeholder="/etc/ssl/flink-ca.pem"
              spellCheck={false}
              autoComplete="off"
            />
          </Field>
          <Field id={`${id}-timeout`} label="Request timeout (ms)" error={fieldErrors.timeoutMs}>
            <input
              id={`${id}-timeout`}
              type="number"
              min={100}
              step={100}
              value={values.timeoutMs}
              onChange={(e) => set('timeoutMs')(e.target.value)}
              aria-invalid={fieldErrors.timeoutMs ? true : undefined}
            />
          </Field>
        </div>

        <fieldset className="form-fieldset" data-testid={testIds.clusters.metricsStore}>
          <legend>Metrics store (optional)</legend>
          <p className="muted small">
            A Prometheus-compatible query API (Prometheus, Thanos, Mimir, VictoriaMetrics) scraping this cluster's
            PrometheusReporter: the history, the diagnosis and the reports read it — also for windows from before the
            console was started — and the console stops sampling those figures from the JobManager.
          </p>
          <div className="form-row">
            <Field id={`${id}-store-url`} label="Query API URL" hint="The base URL before /api/v1; empty = none.">
              <input
                id={`${id}-store-url`}
                value={values.storeUrl}
                onChange={(e) => set('storeUrl')(e.target.value)}
                placeholder="http://prometheus:9090"
                autoComplete="off"
                spellCheck={false}
                inputMode="url"
              />
            </Field>
            <Field id={`${id}-store-ca`} label="Store CA file (optional)" hint="PEM with extra CA certificates, for an https URL.">
              <input
                id={`${id}-store-ca`}
                value={values.storeCaFile}
                onChange={(e) => set('storeCaFile')(e.target.value)}
                placeholder="/etc/ssl/prometheus-ca.pem"
                spellCheck={false}
                autoComplete="off"
              />
            </Field>
          </div>
          {values.storeUrl.trim() !== '' ? (
            <AuthFields id={`${id}-store`} names={STORE_AUTH} values={values} errors={fieldErrors} set={set} keepSecret={canKeepSecret(values, current, STORE_AUTH)} label="Metrics store authentication" fieldLabel={(field) => `Store ${field.toLowerCase()}`} />
          ) : null}
        </fieldset>

        {outcome?.kind === 'failed' ? (
          <ErrorBanner
            error={outcome.error}
            context={outcome.action === 'save' ? 'Not saved' : 'Check failed'}
            testId={testIds.clusters.formError}
          />
        ) : null}
        {outcome?.kind === 'duplicate' ? (
          <div className="notice notice--warning" role="alert" data-testid={testIds.clusters.duplicateWarning}>
            <p>
              <strong>“{outcome.of.name}” already has this URL</strong>
              {outcome.of.builtIn ? ' (it is the console\'s bundled local engine)' : ''}: <code>{outcome.of.url}</code>. Saving adds
              the same cluster a second time.
            </p>
            <div className="form-actions">
              <button type="button" className="button" disabled={busy != null} onClick={() => void run('save', { sameUrlConfirmed: true })}>
                Save anyway
              </button>
            </div>
          </div>
        ) : null}
        {outcome?.kind === 'checked' ? <CheckSummary check={outcome.check} heading="Connection OK" /> : null}
        {outcome?.kind === 'saved' ? (
          <CheckSummary check={outcome.check} heading={`Saved “${outcome.cluster.name}”`}>
            <a className="button button--primary" href={hrefFor({ page: 'cluster', clusterId: outcome.cluster.id })}>
              Open cluster
            </a>
          </CheckSummary>
        ) : null}

        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={busy != null}>
            {busy === 'save' ? 'Checking and saving…' : current ? 'Check and save changes' : 'Check and save'}
          </button>
          <button type="button" className="button" disabled={busy != null} onClick={() => void run('check')}>
            {busy === 'check' ? 'Testing…' : 'Test connection'}
          </button>
          <a className="button button--ghost" href={current ? hrefFor({ page: 'cluster', clusterId: current.id }) : hrefFor({ page: 'home' })}>
            {outcome?.kind === 'saved' ? 'Done' : 'Cancel'}
          </a>
        </div>
      </form>
    </section>
  );
}

/** One authentication block (the cluster's or its metrics store's): the kind, then the fields it needs. */
function AuthFields({
  id,
  names,
  values,
  errors,
  set,
  keepSecret,
  label = 'Authentication',
  fieldLabel = (field) => field,
}: {
  id: string;
  names: AuthFieldNames;
  values: ClusterFormValues;
  errors: FieldErrors;
  set: (field: ClusterFormField) => (value: string) => void;
  keepSecret: boolean;
  label?: string;
  /** The label of a field, told apart from the other block's ("Store password"). */
  fieldLabel?: (field: 'Username' | 'Password' | 'Token') => string;
}): ReactNode {
  const kind = values[names.kind];
  return (
    <>
      <div className="radio-row" role="radiogroup" aria-label={label}>
        {(
          [
            ['none', 'None'],
            ['basic', 'Basic (username + password)'],
            ['bearer', 'Bearer token'],
          ] as const
        ).map(([value, text]) => (
          <label key={value} className="radio">
            <input type="radio" name={`${id}-auth`} value={value} checked={kind === value} onChange={() => set(names.kind)(value)} />
            {text}
          </label>
        ))}
      </div>
      {kind === 'basic' ? (
        <div className="form-row">
          <Field id={`${id}-user`} label={fieldLabel('Username')} error={errors[names.username]}>
            <input
              id={`${id}-user`}
              value={values[names.username]}
              onChange={(e) => set(names.username)(e.target.value)}
              autoComplete="username"
              aria-invalid={errors[names.username] ? true : undefined}
            />
          </Field>
          <Field id={`${id}-password`} label={fieldLabel('Password')} error={errors[names.password]} hint={keepSecret ? 'Leave empty to keep the stored password.' : undefined}>
            <input
              id={`${id}-password`}
              type="password"
              value={values[names.password]}
              onChange={(e) => set(names.password)(e.target.value)}
              autoComplete="current-password"
              placeholder={keepSecret ? '(unchanged)' : ''}
              aria-invalid={errors[names.password] ? true : undefined}
            />
          </Field>
        </div>
      ) : null}
      {kind === 'bearer' ? (
        <Field id={`${id}-token`} label={fieldLabel('Token')} error={errors[names.token]} hint={keepSecret ? 'Leave empty to keep the stored token.' : undefined}>
          <input
            id={`${id}-token`}
            type="password"
            value={values[names.token]}
            onChange={(e) => set(names.token)(e.target.value)}
            autoComplete="off"
            placeholder={keepSecret ? '(unchanged)' : ''}
            aria-invalid={errors[names.token] ? true : undefined}
          />
        </Field>
      ) : null}
    </>
  );
}

function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: ReactNode;
}): ReactNode {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && !error ? (
        <span id={`${id}-hint`} className="field__hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className="field__error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

function CheckSummary({ check, heading, children }: { check: ClusterCheck; heading: string; children?: ReactNode }): ReactNode {
  return (
    <div className="notice notice--success" role="status" data-testid={testIds.clusters.formSuccess}>
      <p>
        <strong>{heading}.</strong> Detected Flink{' '}
        <strong data-testid={testIds.clusters.detectedVersion}>{check.flinkVersion}</strong>
        {check.flinkRevision ? <span className="muted"> (revision {check.flinkRevision})</span> : null}.
      </p>
      {!check.versionSupported ? <p className="notice__detail">{OUTSIDE_TESTED_RANGE}</p> : null}
      {check.metricsStore ? (
        <div className="notice__detail" data-testid={testIds.clusters.metricsStoreCheck} data-usable={check.metricsStore.usable}>
          <strong>Metrics store{check.metricsStore.usable ? '' : ' (not used yet)'}:</strong>
          <ul>
            {check.metricsStore.findings.map((finding) => (
              <li key={finding}>{finding}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {children ? <div className="form-actions">{children}</div> : null}
    </div>
  );
}

const OUTSIDE_TESTED_RANGE = 'This Flink version is outside the range the console was tested with: pages work on a best-effort basis.';

/** The check in a sentence, for the toast after adding a cluster. */
function checkSentence(check: ClusterCheck): string {
  const revision = check.flinkRevision ? ` (revision ${check.flinkRevision})` : '';
  const store = check.metricsStore ? ` Metrics store: ${check.metricsStore.findings.join(' ')}` : '';
  return `Detected Flink ${check.flinkVersion}${revision}.${check.versionSupported ? '' : ` ${OUTSIDE_TESTED_RANGE}`}${store}`;
}
