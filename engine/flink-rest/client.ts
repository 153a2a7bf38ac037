import https from 'node:https';
import tls from 'node:tls';
import axios, { type AxiosInstance } from 'axios';
import pLimit, { type LimitFunction } from 'p-limit';
import type { z } from 'zod';
import { EngineError, fromRequestFailure } from './errors.ts';
import { fillPath, type EndpointSpec } from './endpoints.ts';

export type ClientAuth =
  | { kind: 'none' }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'bearer'; token: string };

export interface FlinkClientOptions {
  /** REST URL of the JobManager; a path prefix (behind a proxy) is kept. */
  baseUrl: string;
  auth?: ClientAuth;
  /** Extra trusted CA certificates (PEM), added to Node's defaults. Verification is never turned off. */
  caPem?: string;
  /** @default 10000 */
  timeoutMs?: number;
  /** Requests in flight to this cluster at once; the rest queue. @default 4 */
  maxConcurrency?: number;
}

/** What a client has sent and received: the benchmark and the job page's request count read it. */
export interface TrafficStats {
  requests: number;
  bytes: number;
}

/** Parses and checks a cluster URL, so that a typo fails here with a clear sentence, not deep in a socket. */
export function parseClusterUrl(raw: string): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new EngineError('invalid-url', `"${raw}" is not a URL. Expected something like http://jobmanager:8081.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EngineError('invalid-url', `"${raw}" uses ${url.protocol.replace(':', '')}: only http and https REST URLs are supported.`);
  }
  if (url.username || url.password) {
    throw new EngineError('invalid-url', 'Put credentials in the cluster\'s authentication settings, not in the URL.');
  }
  if (url.search || url.hash) {
    throw new EngineError('invalid-url', `"${raw}" has a query or fragment: give the JobManager's base REST URL only.`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/**
 * A typed client for Flink's REST API v1. Every response is parsed and validated at this boundary:
 * callers get typed data or an EngineError naming the endpoint and the field.
 */
export class FlinkRestClient {
  readonly baseUrl: string;
  readonly stats: TrafficStats = { requests: 0, bytes: 0 };
  private readonly http: AxiosInstance;
  private readonly limit: LimitFunction;
  private readonly timeoutMs: number;

  constructor(options: FlinkClientOptions) {
    this.baseUrl = parseClusterUrl(options.baseUrl);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.limit = pLimit(options.maxConcurrency ?? 4);
    const auth = options.auth ?? { kind: 'none' };
    this.http = axios.create({
      baseURL: this.baseUrl,
      timeout: this.timeoutMs,
      // Parse ourselves: a truncated body must become a clear error, not a string that fails later.
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
      headers: {
        Accept: 'application/json',
        ...(auth.kind === 'bearer' ? { Authorization: `Bearer ${auth.token}` } : {}),
      },
      auth: auth.kind === 'basic' ? { username: auth.username, password: auth.password } : undefined,
      httpsAgent: options.caPem
        ? new https.Agent({ ca: [...tls.rootCertificates, options.caPem], rejectUnauthorized: true })
        : undefined,
      maxRedirects: 3,
      maxContentLength: 64 * 1024 * 1024,
      proxy: false,
    });
  }

  /** Sends one request described by `spec` (with a JSON `body` for writes) and returns its validated body. */
  request<R>(
    spec: EndpointSpec<R>,
    params: Record<string, string> = {},
    query?: Record<string, string>,
    body?: unknown,
  ): Promise<R> {
    const path = fillPath(spec.path, params);
    const endpoint = `${spec.method} ${spec.path}`;
    return this.limit(async () => {
      let text: string;
      let contentType: string;
      try {
        this.stats.requests += 1;
        // Writes always carry a JSON body (`{}` when there is nothing to say): Flink reads bodies as JSON.
        const write = spec.method !== 'GET';
        const response = await this.http.request<string>({
          method: spec.method,
          url: path,
          params: query,
          ...(write && { data: JSON.stringify(body ?? {}), headers: { 'Content-Type': 'application/json' } }),
        });
        text = typeof response.data === 'string' ? response.data : '';
        contentType = String(response.headers['content-type'] ?? '');
      } catch (error) {
        throw fromRequestFailure(error, endpoint, this.baseUrl, this.timeoutMs);
      }
      this.stats.bytes += Buffer.byteLength(text);
      if (spec.emptyResponse && text.trim() === '') return this.validate(spec.response, {}, endpoint);
      return this.validate(spec.response, parseJson(text, contentType, endpoint, this.baseUrl), endpoint);
    });
  }

  private validate<R>(schema: z.ZodType<R>, body: unknown, endpoint: string): R {
    const result = schema.safeParse(body);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    const field = issue.path.length ? issue.path.map(String).join('.') : '(body)';
    throw new EngineError(
      'unexpected-response',
      `${endpoint} on ${this.baseUrl} returned an unexpected response: field \`${field}\` ${issue.message.toLowerCase()}.`,
      { endpoint },
    );
  }
}

function parseJson(text: string, contentType: string, endpoint: string, baseUrl: string): unknown {
  if (/text\/html/i.test(contentType) || /^\s*</.test(text)) {
    throw new EngineError('not-flink', `${baseUrl} answered ${endpoint} with an HTML page, not a Flink REST API response: is this the JobManager's REST URL?`, { endpoint });
  }
  try {
    return JSON.parse(text);
  } catch {
    const what = text.length === 0 ? 'an empty body' : `malformed or truncated JSON (${text.length} bytes)`;
    throw new EngineError('malformed-response', `${endpoint} on ${baseUrl} returned ${what}.`, { endpoint });
  }
}
