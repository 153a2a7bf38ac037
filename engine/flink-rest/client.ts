import https from 'node:https';
import type { Readable, Writable } from 'node:stream';
import tls from 'node:tls';
import axios, { type AxiosInstance } from 'axios';
import type { z } from 'zod';
import { bodyFailure, BodyDeadline, BodyTooLarge, EngineError, fromHttpStatus, fromRequestFailure, redirectRefused, tooLarge } from './errors.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, fillPath, type EndpointSpec, type TextEndpointSpec } from './endpoints.ts';
import { pipeStream, readRange, scanStream, sinkClosed, type ScanResult, type TextPage, type TextRange } from './read-text.ts';
import { PriorityLimit, type RequestPriority } from './priority-limit.ts';

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
  /** The deadline of one request: connect, headers and the whole body. @default 10000 */
  timeoutMs?: number;
  /** Requests in flight to this cluster at once; the rest queue. @default 4 */
  maxConcurrency?: number;
}

/** What a client has sent and received: the benchmark and the job page's request count read it. */
export interface TrafficStats {
  requests: number;
  bytes: number;
}

/** Options of one request. */
export interface RequestOptions {
  /** Counts this request (and its bytes) for one caller, e.g. one refresh of a page, whatever else runs at once. */
  tally?: TrafficStats;
  /** A JSON body (writes), or a FormData (a jar upload). Writes always send one, `{}` when there is nothing to say. */
  body?: unknown;
  /** This request's own deadline instead of the client's (an upload). */
  timeoutMs?: number;
  /**
   * The caller's own deadline over several requests (one refresh): once it passes, requests still waiting their turn
   * are not sent and requests in flight end, each with a `timeout` error.
   */
  signal?: AbortSignal;
  /**
   * `background` for what no page waits for (the history sampler): sent only when no page request waits, and never
   * in the last free slot. @default 'page'
   */
  priority?: RequestPriority;
}

/** Redirects followed within the cluster's own origin (a proxy adding a slash, a moved path). */
const MAX_REDIRECTS = 3;

/** What a URL is the base of, for the sentences of `parseClusterUrl`. */
export interface UrlKind {
  example: string;
  base: string;
}
const JOBMANAGER_URL: UrlKind = { example: 'http://jobmanager:8081', base: "the JobManager's base REST URL" };

/** Parses and checks a cluster URL, so that a typo fails here with a clear sentence, not deep in a socket. */
export function parseClusterUrl(raw: string, kind: UrlKind = JOBMANAGER_URL): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new EngineError('invalid-url', `"${raw}" is not a URL. Expected something like ${kind.example}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EngineError('invalid-url', `"${raw}" uses ${url.protocol.replace(':', '')}: only http and https REST URLs are supported.`);
  }
  if (url.username || url.password) {
    throw new EngineError('invalid-url', 'Put credentials in the cluster\'s authentication settings, not in the URL.');
  }
  if (url.search || url.hash) {
    throw new EngineError('invalid-url', `"${raw}" has a query or fragment: give ${kind.base} only.`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/**
 * A typed client for Flink's REST API v1. Every response is parsed and validated at this boundary:
 * callers get typed data or an EngineError naming the endpoint and the field. Every request has a deadline that covers
 * connecting, the headers and the whole body; bodies are capped per endpoint; redirects are followed only within the
 * cluster's own origin.
 */
export class FlinkRestClient {
  readonly baseUrl: string;
  readonly stats: TrafficStats = { requests: 0, bytes: 0 };
  private readonly origin: string;
  private readonly http: AxiosInstance;
  private readonly limit: PriorityLimit;
  /**
   * Downloads apart: one goes at the pace of the disk or browser taking it, for up to an hour, and must not hold a slot
   * the pages' requests wait for.
   */
  private readonly downloads = new PriorityLimit(2);
  /** The deadline of one request. */
  readonly timeoutMs: number;

  constructor(options: FlinkClientOptions) {
    this.baseUrl = parseClusterUrl(options.baseUrl);
    this.origin = new URL(this.baseUrl).origin;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.limit = new PriorityLimit(options.maxConcurrency ?? 4);
    const auth = options.auth ?? { kind: 'none' };
    this.http = axios.create({
      baseURL: this.baseUrl,
      // The body is read here, against the deadline and the size cap: a truncated or endless body must become a clear
      // error, not a string that fails later or a request that never ends.
      responseType: 'stream',
      decompress: true,
      validateStatus: () => true,
      maxRedirects: 0,
      maxContentLength: -1,
      headers: {
        Accept: 'application/json',
        ...(auth.kind === 'bearer' ? { Authorization: `Bearer ${auth.token}` } : {}),
      },
      auth: auth.kind === 'basic' ? { username: auth.username, password: auth.password } : undefined,
      httpsAgent: options.caPem
        ? new https.Agent({ ca: [...tls.rootCertificates, options.caPem], rejectUnauthorized: true })
        : undefined,
      proxy: false,
    });
  }

  /** Sends one request described by `spec` and returns its validated body. */
  request<R>(spec: EndpointSpec<R>, params: Record<string, string> = {}, query?: Record<string, string>, options: RequestOptions = {}): Promise<R> {
    const endpoint = `${spec.method} ${spec.path}`;
    return this.limit.run(options.priority ?? 'page', async () => {
      if (options.signal?.aborted) {
        throw new EngineError('timeout', `${endpoint} on ${this.baseUrl} was not sent: the deadline of the refresh it belongs to passed while it waited its turn.`, { endpoint });
      }
      const { text, contentType } = await this.exchange(spec, fillPath(spec.path, params), query, options, endpoint);
      // Flink answers some writes with an empty body (EmptyResponseBody): that reads as `{}`.
      const data = spec.emptyResponse && text.trim() === '' ? this.validate(spec.response, {}, endpoint) : this.validate(spec.response, parseJson(text, contentType, endpoint, this.baseUrl), endpoint);
      this.checkEcho(spec, params, data, endpoint);
      return data;
    });
  }

  /**
   * Reads a plain-text file Flink serves (a log, stdout) from byte `range.offset`, at most `range.length` bytes, never
   * the whole file into memory: Flink sends every file whole (no Range support on any version), so the bytes before
   * the offset are skipped as they stream by and the request ends once the page is read.
   */
  readText(spec: TextEndpointSpec, params: Record<string, string>, range: TextRange, options: RequestOptions = {}): Promise<TextPage> {
    const endpoint = `${spec.method} ${spec.path}`;
    return this.limit.run(options.priority ?? 'page', async () => {
      if (options.signal?.aborted) {
        throw new EngineError('timeout', `${endpoint} on ${this.baseUrl} was not sent: the deadline of the refresh it belongs to passed while it waited its turn.`, { endpoint });
      }
      const { page } = await this.exchange(spec, fillPath(spec.path, params), undefined, options, endpoint, (stream, deadline, declared) => readRange(stream, range, deadline, declared));
      return page;
    });
  }

  /**
   * Streams a plain-text file Flink serves through `visit`, chunk by chunk, until `visit` returns false, the file
   * ends or `maxBytes` went by. The request's deadline covers the whole scan.
   */
  scanText(spec: TextEndpointSpec, params: Record<string, string>, maxBytes: number, visit: (chunk: Buffer) => boolean, options: RequestOptions = {}): Promise<ScanResult> {
    const endpoint = `${spec.method} ${spec.path}`;
    return this.limit.run(options.priority ?? 'page', async () => {
      const { page } = await this.exchange(spec, fillPath(spec.path, params), undefined, options, endpoint, (stream, deadline) => scanStream(stream, maxBytes, deadline, visit));
      return page;
    });
  }

  /**
   * Streams a plain-text file Flink serves whole into `sink`, at the pace the sink takes it (a download to disk or
   * to a browser): never more than a few chunks in memory. `limits.timeoutMs` bounds the whole download, `idleMs`
   * (default: the client's timeout) a silence of the server, `maxBytes` its size. The sink is not ended.
   */
  pipeText(
    spec: TextEndpointSpec,
    params: Record<string, string>,
    sink: Writable,
    limits: { maxBytes: number; timeoutMs: number; idleMs?: number },
    options: RequestOptions = {},
  ): Promise<ScanResult> {
    const endpoint = `${spec.method} ${spec.path}`;
    return this.downloads.run(options.priority ?? 'page', async () => {
      // A failure of the sink (a full disk, a browser gone) is its own, not the cluster's: thrown as it is.
      let sinkError: Error | undefined;
      const onSinkError = (error: Error) => (sinkError ??= error);
      const onSinkClose = () => (sinkError ??= sinkClosed());
      sink.on('error', onSinkError);
      sink.on('close', onSinkClose);
      try {
        const { page } = await this.exchange(spec, fillPath(spec.path, params), undefined, { ...options, timeoutMs: limits.timeoutMs }, endpoint, (stream, deadline) =>
          pipeStream(stream, sink, limits.maxBytes, limits.idleMs ?? this.timeoutMs, deadline),
        );
        return page;
      } catch (error) {
        throw sinkError ?? error;
      } finally {
        sink.off('error', onSinkError);
        sink.off('close', onSinkClose);
      }
    });
  }

  /** One request and its redirects within the origin; the body as text of a 2xx answer, or the error. */
  private exchange(
    spec: EndpointSpec<unknown>,
    path: string,
    query: Record<string, string> | undefined,
    options: RequestOptions,
    endpoint: string,
  ): Promise<{ text: string; contentType: string }>;
  private exchange<P>(
    spec: EndpointSpec<unknown>,
    path: string,
    query: Record<string, string> | undefined,
    options: RequestOptions,
    endpoint: string,
    readPage: (stream: Readable, deadline: AbortSignal, declaredBytes: number) => Promise<P>,
  ): Promise<{ page: P; contentType: string }>;
  private async exchange<P>(
    spec: EndpointSpec<unknown>,
    path: string,
    query: Record<string, string> | undefined,
    options: RequestOptions,
    endpoint: string,
    readPage?: (stream: Readable, deadline: AbortSignal, declaredBytes: number) => Promise<P>,
  ): Promise<{ text?: string; page?: P; contentType: string }> {
    const deadline = new AbortController();
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const callerGaveUp = () => deadline.abort();
    options.signal?.addEventListener('abort', callerGaveUp, { once: true });
    const maxBytes = spec.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const count = (bytes: number, requests: number) => {
      for (const stats of [this.stats, options.tally]) {
        if (!stats) continue;
        stats.requests += requests;
        stats.bytes += bytes;
      }
    };
    let url: string = path;
    let method: string = spec.method;
    try {
      for (let hop = 0; ; hop++) {
        count(0, 1);
        let response;
        try {
          response = await this.http.request<Readable>({
            method,
            url,
            params: hop === 0 ? query : undefined,
            signal: deadline.signal,
            ...(method !== 'GET' ? { data: options.body ?? {} } : {}),
          });
        } catch (error) {
          throw fromRequestFailure(error, endpoint, this.baseUrl, timeoutMs);
        }
        const status = response.status;
        const stream = response.data;
        if (status >= 300 && status < 400 && response.headers.location) {
          stream.destroy();
          const target = new URL(String(response.headers.location), new URL(url, `${this.baseUrl}/`));
          const refusal = redirectRefused(target, this.origin, endpoint, this.baseUrl, status);
          if (refusal) throw refusal;
          if (hop + 1 > MAX_REDIRECTS) throw new EngineError('unexpected-response', `${endpoint} on ${this.baseUrl} was redirected more than ${MAX_REDIRECTS} times (last to ${target.href}).`, { endpoint, status });
          url = target.href;
          if (status === 303) method = 'GET';
          continue;
        }
        const contentType = String(response.headers['content-type'] ?? '');
        if (readPage && status >= 200 && status < 300) {
          if (/text\/html/i.test(contentType)) {
            stream.destroy();
            throw new EngineError('not-flink', `${this.baseUrl} answered ${endpoint} with an HTML page, not a Flink file: is this the JobManager's REST URL?`, { endpoint });
          }
          const page = await readPage(stream, deadline.signal, Number(response.headers['content-length'])).catch((error: unknown) => {
            throw bodyFailure(error, { endpoint, baseUrl: this.baseUrl, status, timeoutMs, maxBytes });
          });
          count((page as { bytesRead?: number }).bytesRead ?? 0, 0);
          return { page, contentType };
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          stream.destroy();
          throw tooLarge(endpoint, this.baseUrl, maxBytes, status, `it announced ${declared} bytes`);
        }
        const text = await readBody(stream, maxBytes, deadline.signal).catch((error: unknown) => {
          throw bodyFailure(error, { endpoint, baseUrl: this.baseUrl, status, timeoutMs, maxBytes });
        });
        count(Buffer.byteLength(text), 0);
        if (status < 200 || status >= 300) throw fromHttpStatus(status, text, endpoint, this.baseUrl);
        return { text, contentType };
      }
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', callerGaveUp);
    }
  }

  private validate<R>(schema: z.ZodType<R>, body: unknown, endpoint: string): R {
    const result = schema.safeParse(body);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    const field = issue.path.length ? issue.path.map(String).join('.') : '(body)';
    throw new EngineError(
      'unexpected-response',
      `${endpoint} on ${this.baseUrl} returned an unexpected response: field \`${field}\` ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}.`,
      { endpoint, field },
    );
  }

  /** An answer about another job or vertex than the one asked for is not data about this one. */
  private checkEcho(spec: EndpointSpec<unknown>, params: Record<string, string>, data: unknown, endpoint: string): void {
    if (!spec.echoes) return;
    const { field, param } = spec.echoes;
    const answered = (data as Record<string, unknown>)[field];
    if (answered !== params[param]) {
      throw new EngineError(
        'unexpected-response',
        `${endpoint} on ${this.baseUrl} answered about ${String(answered)} when asked about ${params[param]}: field \`${field}\` does not match the request.`,
        { endpoint },
      );
    }
  }
}

/** Reads a (decompressed) body up to `maxBytes`, within the request's deadline; errors keep the bytes read so far. */
function readBody(stream: Readable, maxBytes: number, deadline: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      deadline.removeEventListener('abort', onDeadline);
      stream.off('data', onData);
      if (error) {
        stream.destroy();
        reject(Object.assign(error, { bytesRead: bytes }));
      } else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onDeadline = () => finish(new BodyDeadline(bytes));
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) finish(new BodyTooLarge(bytes));
      else chunks.push(chunk);
    };
    if (deadline.aborted) return onDeadline();
    deadline.addEventListener('abort', onDeadline, { once: true });
    stream.on('data', onData);
    stream.once('end', () => finish());
    // axios also cancels the stream on the deadline (its error may come first): that is still the deadline.
    stream.once('error', (error: Error) => finish(deadline.aborted ? new BodyDeadline(bytes) : error));
    stream.once('aborted', () => finish(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
  });
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
