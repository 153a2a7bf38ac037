import type { AuthInput, AuthKind, ClusterConfig, ClusterInput } from '../../../engine/contracts/clusters';

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
  /** The metrics store (Prometheus' query API): no URL = none. */
  storeUrl: string;
  storeAuthKind: AuthKind;
  storeUsername: string;
  storePassword: string;
  storeToken: string;
  storeCaFile: string;
}

/** The fields of one authentication block: the cluster's, or its metrics store's. */
export interface AuthFieldNames {
  kind: 'authKind' | 'storeAuthKind';
  username: 'username' | 'storeUsername';
  password: 'password' | 'storePassword';
  token: 'token' | 'storeToken';
}
export const CLUSTER_AUTH: AuthFieldNames = { kind: 'authKind', username: 'username', password: 'password', token: 'token' };
export const STORE_AUTH: AuthFieldNames = { kind: 'storeAuthKind', username: 'storeUsername', password: 'storePassword', token: 'storeToken' };

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
    storeUrl: '',
    storeAuthKind: 'none',
    storeUsername: '',
    storePassword: '',
    storeToken: '',
    storeCaFile: '',
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
    storeUrl: cluster.metricsStore?.url ?? '',
    storeAuthKind: cluster.metricsStore?.auth.kind ?? 'none',
    storeUsername: cluster.metricsStore?.auth.username ?? '',
    storePassword: '',
    storeToken: '',
    storeCaFile: cluster.metricsStore?.caFile ?? '',
  };
}

/** Whether an empty secret field of this block means "keep the stored secret" for this edit. */
export function canKeepSecret(values: ClusterFormValues, editing: ClusterConfig | null, names: AuthFieldNames = CLUSTER_AUTH): boolean {
  const stored = names === STORE_AUTH ? editing?.metricsStore?.auth : editing?.auth;
  return stored != null && stored.kind === values[names.kind] && stored.hasSecret;
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
  Object.assign(errors, validateAuth(values, editing, CLUSTER_AUTH));
  // A store's authentication matters only once it has a URL.
  if (values.storeUrl.trim() !== '') Object.assign(errors, validateAuth(values, editing, STORE_AUTH));
  return errors;
}

function validateAuth(values: ClusterFormValues, editing: ClusterConfig | null, names: AuthFieldNames): FieldErrors {
  const errors: FieldErrors = {};
  const keep = canKeepSecret(values, editing, names);
  if (values[names.kind] === 'basic') {
    if (values[names.username].trim() === '') errors[names.username] = 'Basic authentication needs a username.';
    if (values[names.password] === '' && !keep) errors[names.password] = 'Basic authentication needs a password.';
  }
  if (values[names.kind] === 'bearer' && values[names.token].trim() === '' && !keep) {
    errors[names.token] = 'Bearer authentication needs a token.';
  }
  return errors;
}

/** The engine's input: trimmed, secrets omitted when they are to be kept. */
export function toClusterInput(values: ClusterFormValues, editing: ClusterConfig | null): ClusterInput {
  const input: ClusterInput = { name: values.name.trim(), url: values.url.trim(), auth: toAuthInput(values, editing, CLUSTER_AUTH) };
  if (editing) input.id = editing.id;
  if (values.caFile.trim() !== '') input.caFile = values.caFile.trim();
  input.timeoutMs = values.timeoutMs.trim() === '' ? DEFAULT_TIMEOUT_MS : Number(values.timeoutMs.trim());
  if (values.storeUrl.trim() !== '') {
    input.metricsStore = { url: values.storeUrl.trim(), auth: toAuthInput(values, editing, STORE_AUTH) };
    if (values.storeCaFile.trim() !== '') input.metricsStore.caFile = values.storeCaFile.trim();
  }
  return input;
}

function toAuthInput(values: ClusterFormValues, editing: ClusterConfig | null, names: AuthFieldNames): AuthInput {
  const keep = canKeepSecret(values, editing, names);
  switch (values[names.kind]) {
    case 'basic': {
      const auth: AuthInput = { kind: 'basic', username: values[names.username].trim() };
      if (values[names.password] !== '' || !keep) auth.password = values[names.password];
      return auth;
    }
    case 'bearer': {
      const auth: AuthInput = { kind: 'bearer' };
      if (values[names.token].trim() !== '' || !keep) auth.token = values[names.token].trim();
      return auth;
    }
    default:
      return { kind: 'none' };
  }
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
