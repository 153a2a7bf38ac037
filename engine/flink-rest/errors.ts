import { AxiosError } from 'axios';
import type { ErrorInfo } from '../contracts/errors.ts';
import { EngineError } from './engine-error.ts';

// Its own file so what only throws or recognises an EngineError (the CLI's error line) does not load axios.
export { EngineError };

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
 * Maps a request that failed before its headers arrived to what went wrong, naming the endpoint
 * (`GET /jobs/overview`) and the cluster: refused, DNS, TLS, no answer within the deadline, other network failures.
 */
export function fromRequestFailure(error: unknown, endpoint: string, baseUrl: string, timeoutMs: number): EngineError {
  if (error instanceof EngineError) return error;
  if (!(error instanceof AxiosError)) {
    return new EngineError('internal', `${endpoint} on ${baseUrl} failed: ${describe(error)}`, { endpoint });
  }
  const where = { endpoint };
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
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'HPE_INVALID_CONSTANT' || /socket hang up/i.test(error.message)) {
    return new EngineError('network', `${endpoint} on ${baseUrl} failed: the connection was closed before any answer (${code || error.message}).`, where);
  }
  return new EngineError('network', `${endpoint} on ${baseUrl} failed: ${code || error.message}.`, where);
}

/** A non-2xx answer: the status, with the first line of the server's own message (Flink's, or Prometheus') when the body has one. */
export function fromHttpStatus(status: number, body: string, endpoint: string, baseUrl: string): EngineError {
  const flinkMessage = firstFlinkError(body);
  const detail = flinkMessage ? `: ${flinkMessage}` : '.';
  const at = { endpoint, status };
  if (status === 401) return new EngineError('unauthorized', `${baseUrl} refused ${endpoint} with 401 Unauthorized: check the cluster's credentials.`, at);
  if (status === 403) return new EngineError('forbidden', `${baseUrl} answered 403 Forbidden to ${endpoint}: these credentials may not do this.`, at);
  if (status === 404) return new EngineError('not-found', `${endpoint} was not found on ${baseUrl} (404)${detail}`, at);
  if (status >= 500) return new EngineError('server-error', `${baseUrl} failed ${endpoint} with ${status}${detail}`, at);
  return new EngineError('unexpected-response', `${baseUrl} answered ${status} to ${endpoint}${detail}`, at);
}

/**
 * A redirect the console does not follow: to another origin (scheme, host or port), which would show another server's
 * data as the cluster's, or from https to http. Names where it pointed; undefined when the redirect may be followed.
 */
export function redirectRefused(target: URL, clusterOrigin: string, endpoint: string, baseUrl: string, status: number): EngineError | undefined {
  if (target.origin === clusterOrigin) return undefined;
  const why =
    new URL(clusterOrigin).protocol === 'https:' && target.protocol === 'http:'
      ? 'which would drop TLS (https to http)'
      : 'another origin than the cluster\'s';
  return new EngineError(
    'redirect-refused',
    `${endpoint} on ${baseUrl} was redirected (${status}) to ${target.href}, ${why}: not followed. The console reads a cluster only at its own URL; if the JobManager moved, change the cluster's URL.`,
    { endpoint, status },
  );
}

export function tooLarge(endpoint: string, baseUrl: string, maxBytes: number, status: number, detail: string): EngineError {
  const mib = Math.round(maxBytes / (1024 * 1024));
  return new EngineError(
    'unexpected-response',
    `${endpoint} on ${baseUrl} sent a response larger than ${mib} MiB (${detail}), the console's limit for this endpoint: refused without reading further.`,
    { endpoint, status },
  );
}

/** The body went over the endpoint's size cap. */
export class BodyTooLarge extends Error {
  constructor(
    readonly bytes: number,
    /** The limit passed, when it is the caller's own (a download's) rather than the endpoint's. */
    readonly limit?: number,
  ) {
    super('body too large');
  }
}

/** Nothing arrived for `idleMs` while a long body (a download) streamed: the server stopped sending. */
export class BodyStalled extends Error {
  constructor(
    readonly bytes: number,
    readonly idleMs: number,
  ) {
    super('stalled');
  }
}

/** The request's deadline passed while the body was still arriving. */
export class BodyDeadline extends Error {
  constructor(readonly bytes: number) {
    super('deadline');
  }
}

/**
 * The headers arrived, then the body failed: too large, too slow, cut off, reset, or not valid gzip. Reported as such,
 * with the status and how far it got, never as a problem of the data (which never fully arrived).
 */
export function bodyFailure(
  error: unknown,
  at: { endpoint: string; baseUrl: string; status: number; timeoutMs: number; maxBytes: number },
): EngineError {
  const { endpoint, baseUrl, status, timeoutMs, maxBytes } = at;
  const bytes = (error as { bytesRead?: number }).bytesRead ?? 0;
  if (error instanceof BodyTooLarge) {
    const limit = error.limit ?? maxBytes;
    return tooLarge(endpoint, baseUrl, limit, status, `more than ${limit} bytes`);
  }
  const after = `after its headers (HTTP ${status}) and ${bytes} bytes of the body`;
  if (error instanceof BodyStalled) {
    return new EngineError('timeout', `${endpoint} on ${baseUrl} sent nothing for ${error.idleMs} ms ${after}: the body stalled.`, { endpoint, status });
  }
  if (error instanceof BodyDeadline) {
    return new EngineError('timeout', `${endpoint} on ${baseUrl} did not finish within ${timeoutMs} ms: the body stalled ${after}.`, { endpoint, status });
  }
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code.startsWith('Z_') || /incorrect header check|invalid (stored )?block|unexpected end of file|zlib/i.test((error as Error).message ?? '')) {
    // A transport failure, not a verdict on the data (which never arrived): not "malformed", not "not Flink".
    return new EngineError('network', `${endpoint} on ${baseUrl} sent a body that is not valid gzip/deflate (${code || (error as Error).message}) ${after}.`, { endpoint, status });
  }
  return new EngineError('network', `${endpoint} on ${baseUrl}: the connection was cut ${after} (${code || describe(error)}).`, { endpoint, status });
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
  // The Prometheus HTTP API (a cluster's metrics store, read with this client too) says `{status: "error", error}`.
  const prometheusError = (parsed as { status?: unknown; error?: unknown } | null)?.error;
  if ((parsed as { status?: unknown } | null)?.status === 'error' && typeof prometheusError === 'string' && prometheusError !== '') {
    return prometheusError.split('\n')[0].slice(0, 300);
  }
  const errors = (parsed as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || typeof errors[0] !== 'string') return undefined;
  // Flink puts the message first and often a whole stack trace second: keep the first line only.
  const first = errors[0].split('\n')[0];
  // An unhandled failure says only "Internal server error." first; the reason is the trace's innermost cause.
  const cause = /^Internal server error\.?$/.test(first) && typeof errors[1] === 'string' ? innermostCause(errors[1]) : undefined;
  return (cause ? `Internal server error: ${cause}` : first).slice(0, 300);
}

/** The message of the last "Caused by:" (else the first exception) of a Java stack trace, without class names. */
function innermostCause(trace: string): string | undefined {
  const exceptions = trace.split('\n').filter((line) => /^(Caused by: )?(?:[a-z][\w$]*\.)+[A-Z][\w$]*(: |$)/.test(line));
  const last = exceptions.at(-1);
  if (!last) return undefined;
  const message = last.replace(/^Caused by: /, '').replace(/^(?:(?:[a-z][\w$]*\.)+[A-Z][\w$]*(?:: |$))+/, '').trim();
  return message || undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Turns anything thrown into data for the bridge; unknown errors keep their message, not their stack. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof EngineError) return error.info;
  return { kind: 'internal', message: `Internal error: ${describe(error)}` };
}
