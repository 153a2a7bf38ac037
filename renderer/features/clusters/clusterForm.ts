import type { AuthKind, ClusterConfig, ClusterInput } from '../../../engine/contracts/clusters';

/** What the form fields hold: strings as typed, so nothing the user typed is lost on an error. */
export interface ClusterFormValues {
  name: string;
  url: string;
  authKind: AuthKind;
  username: string;
  password: string;
  token: string;
  caFile: string;
  timeoutMs: string;
}

export type ClusterFormField = keyof ClusterFormValues;
export type FieldErrors = Partial<Record<ClusterFormField, string>>;

export const DEFAULT_TIMEOUT_MS = 10_000;
export const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 600_000;

export function emptyClusterForm(): ClusterFormValues {
  return {
    name: '',
    url: '',
    authKind: 'none',
    username: '',
    password: '',
    token: '',
    caFile: '',
    timeoutMs: String(DEFAULT_TIMEOUT_MS),
  };
}

/** Secrets never come back from the engine: their fields start empty ("keep the stored one"). */
export function clusterToForm(cluster: ClusterConfig): ClusterFormValues {
  return {
    name: cluster.name,
    url: cluster.url,
    authKind: cluster.auth.kind,
    username: cluster.auth.username ?? '',
    password: '',
    token: '',
    caFile: cluster.caFile ?? '',
    timeoutMs: String(cluster.timeoutMs),
  };
}

/** Whether an empty secret field means "keep the stored secret" for this edit. */
export function canKeepSecret(values: ClusterFormValues, editing: ClusterConfig | null): boolean {
  return editing != null && editing.auth.kind === values.authKind && editing.auth.hasSecret;
}

/**
 * Checks only what the engine cannot check better: required fields and the timeout's range.
 * The URL itself is left to the engine, whose message names what is wrong with it.
 */
export function validateClusterForm(values: ClusterFormValues, editing: ClusterConfig | null): FieldErrors {
  const errors: FieldErrors = {};
  if (values.name.trim() === '') errors.name = 'Give the cluster a name, e.g. "prod-eu".';
  if (values.url.trim() === '') errors.url = 'Enter the JobManager REST URL, e.g. http://flink-jm:8081.';
  const timeout = Number(values.timeoutMs.trim());
  if (values.timeoutMs.trim() !== '' && (!Number.isInteger(timeout) || timeout < MIN_TIMEOUT_MS || timeout > MAX_TIMEOUT_MS)) {
    errors.timeoutMs = `Enter whole milliseconds between ${MIN_TIMEOUT_MS} and ${MAX_TIMEOUT_MS}.`;
  }
  const keep = canKeepSecret(values, editing);
  if (values.authKind === 'basic') {
    if (values.username.trim() === '') errors.username = 'Basic authentication needs a username.';
    if (values.password === '' && !keep) errors.password = 'Basic authentication needs a password.';
  }
  if (values.authKind === 'bearer' && values.token.trim() === '' && !keep) {
    errors.token = 'Bearer authentication needs a token.';
  }
  return errors;
}

/** The engine's input: trimmed, secrets omitted when they are to be kept. */
export function toClusterInput(values: ClusterFormValues, editing: ClusterConfig | null): ClusterInput {
  const keep = canKeepSecret(values, editing);
  let auth: ClusterInput['auth'];
  switch (values.authKind) {
    case 'basic':
      auth = { kind: 'basic', username: values.username.trim() };
      if (values.password !== '' || !keep) auth.password = values.password;
      break;
    case 'bearer':
      auth = { kind: 'bearer' };
      if (values.token.trim() !== '' || !keep) auth.token = values.token.trim();
      break;
    default:
      auth = { kind: 'none' };
  }
  const input: ClusterInput = { name: values.name.trim(), url: values.url.trim(), auth };
  if (editing) input.id = editing.id;
  if (values.caFile.trim() !== '') input.caFile = values.caFile.trim();
  input.timeoutMs = values.timeoutMs.trim() === '' ? DEFAULT_TIMEOUT_MS : Number(values.timeoutMs.trim());
  return input;
}

/**
 * The REST URL as the engine stores it (origin and path without trailing slashes, as `parseClusterUrl` does), so
 * `http://JM:8081/` and `http://jm:8081` compare equal; null for text that is not a URL (the engine will say why).
 */
export function normalizeClusterUrl(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    return url.origin + url.pathname.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

/** Another saved cluster (or the built-in local engine) with the same REST URL: saving would list it twice. */
export function clusterWithSameUrl(url: string, clusters: readonly ClusterConfig[], editing: ClusterConfig | null): ClusterConfig | null {
  const wanted = normalizeClusterUrl(url);
  if (wanted === null) return null;
  return clusters.find((c) => c.id !== editing?.id && normalizeClusterUrl(c.url) === wanted) ?? null;
}
