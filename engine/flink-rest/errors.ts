import { AxiosError } from 'axios';
import type { ErrorInfo, ErrorKind } from '../contracts/engine-api.ts';

/** Every failure the engine reports: a kind the UI can branch on and one sentence a person can act on. */
export class EngineError extends Error {
  readonly info: ErrorInfo;

  constructor(kind: ErrorKind, message: string, details: { endpoint?: string; status?: number } = {}) {
    super(message);
    this.name = 'EngineError';
    this.info = { kind, message, ...details };
  }
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/**
 * Maps a failed request to what went wrong, naming the endpoint (`GET /jobs/overview`) and the cluster.
 * `flinkMessage` is the first entry of Flink's `{"errors": [...]}` body when there is one.
 */
export function fromRequestFailure(error: unknown, endpoint: string, baseUrl: string, timeoutMs: number): EngineError {
  if (error instanceof EngineError) return error;
  if (!(error instanceof AxiosError)) {
    return new EngineError('internal', `${endpoint} on ${baseUrl} failed: ${describe(error)}`, { endpoint });
  }
  const where = { endpoint };
  const status = error.response?.status;
  if (status !== undefined) {
    const flinkMessage = firstFlinkError(error.response?.data);
    const detail = flinkMessage ? `: ${flinkMessage}` : '.';
    const at = { endpoint, status };
    if (status === 401) return new EngineError('unauthorized', `${baseUrl} refused ${endpoint} with 401 Unauthorized: check the cluster's credentials.`, at);
    if (status === 403) return new EngineError('forbidden', `${baseUrl} answered 403 Forbidden to ${endpoint}: these credentials may not do this.`, at);
    if (status === 404) return new EngineError('not-found', `${endpoint} was not found on ${baseUrl} (404)${detail}`, at);
    if (status >= 500) return new EngineError('server-error', `${baseUrl} failed ${endpoint} with ${status}${detail}`, at);
    return new EngineError('unexpected-response', `${baseUrl} answered ${status} to ${endpoint}${detail}`, at);
  }
  const code = error.code ?? (error.cause as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ERR_CANCELED') {
    return new EngineError('timeout', `${endpoint} on ${baseUrl} got no answer within ${timeoutMs} ms: the cluster is slow or unreachable.`, where);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new EngineError('dns', `The host of ${baseUrl} could not be resolved (DNS): check the URL.`, where);
  }
  if (code === 'ECONNREFUSED') {
    return new EngineError('refused', `Connection refused by ${baseUrl}: nothing listens there. Is the JobManager running, and is this its REST port?`, where);
  }
  if (TLS_CODES.has(code) || /certificate|SSL|TLS/i.test(error.message)) {
    return new EngineError('tls', `TLS failed for ${baseUrl} (${code || error.message}): the certificate is not trusted. Add the cluster's CA file, or use the right scheme.`, where);
  }
  return new EngineError('network', `${endpoint} on ${baseUrl} failed: ${code || error.message}.`, where);
}

function firstFlinkError(body: unknown): string | undefined {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const errors = (parsed as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || typeof errors[0] !== 'string') return undefined;
  // Flink puts the message first and often a whole stack trace second: keep the first line only.
  return errors[0].split('\n')[0].slice(0, 300);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Turns anything thrown into data for the bridge; unknown errors keep their message, not their stack. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof EngineError) return error.info;
  return { kind: 'internal', message: `Internal error: ${describe(error)}` };
}
