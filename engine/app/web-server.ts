import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { EngineApi } from '../contracts/engine-api.ts';
import type { ErrorKind } from '../contracts/errors.ts';
import { logDownloadName, type LogFileRequest } from '../contracts/logs.ts';
import { LOG_FILE_REQUEST } from '../contracts/logs-calls.ts';
import { toErrorInfo } from '../flink-rest/errors.ts';
import type { LogFileDownloads } from '../logs/log-download.ts';
import { dispatchEngineCall } from './dispatch.ts';
import { DownloadTickets } from './download-tickets.ts';

export interface WebServerOptions {
  engine: EngineApi;
  /** The built renderer (renderer/dist). */
  staticDir: string;
  /** @default 0: a free port */
  port?: number;
  /** The largest call body accepted. @default RPC_BODY_LIMIT_BYTES */
  bodyLimitBytes?: number;
  /** Whole log files for the browser to download; without, none is served. */
  logFiles?: Pick<LogFileDownloads, 'download'>;
}

export interface WebServer {
  /** The URL to open, with the per-launch token. */
  url: string;
  close(): Promise<void>;
}

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

/** A call's arguments; a jar upload (base64 of up to Flink's 100 MiB upload limit) is the largest. */
export const RPC_BODY_LIMIT_BYTES = 140 * 1024 * 1024;

/**
 * Web mode: the same renderer bundle, served on 127.0.0.1 only, with the engine behind `POST /api/rpc` (and whole log
 * files behind one-use download tickets). A per-launch token guards the API, and the Host header must be loopback so a
 * DNS-rebinding page can't reach it.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  if (!existsSync(path.join(options.staticDir, 'index.html'))) {
    throw new Error(`The UI is not built (${options.staticDir}/index.html is missing): run \`npm run build\`.`);
  }
  const token = randomBytes(24).toString('base64url');
  const bodyLimit = options.bodyLimitBytes ?? RPC_BODY_LIMIT_BYTES;
  const app = express();
  app.disable('x-powered-by');
  let port = 0;

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) {
      refuse(res, 421, 'invalid-input', 'Misdirected request: web mode answers only to 127.0.0.1 and localhost.');
      return;
    }
    const refusal = crossSiteRefusal(req, port);
    if (refusal) {
      res.status(refusal.status).set('Referrer-Policy', 'no-referrer').json({ ok: false, error: { kind: 'forbidden', message: refusal.message } });
      return;
    }
    res.set({
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      // The token travels in the first URL: never leak it through a Referer.
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    next();
  });

  // The token is checked before the body is read: an unauthenticated request costs a header comparison, nothing more.
  const requireToken = (req: Request, res: Response, next: NextFunction) => {
    if (hasToken(req.headers.authorization, token)) next();
    else refuse(res, 401, 'unauthorized', 'Missing or wrong launch token.');
  };
  app.post('/api/rpc', requireToken, express.json({ limit: bodyLimit }), async (req: Request, res: Response) => {
    const body = req.body as { call?: unknown; args?: unknown } | undefined;
    if (typeof body !== 'object' || body === null || typeof body.call !== 'string') {
      refuse(res, 400, 'invalid-input', 'An engine call is a JSON object {"call": "<service>.<method>", "args": [...]}.');
      return;
    }
    res.json(await dispatchEngineCall(options.engine, body.call, body.args));
  });

  // A whole log file, streamed to the browser's download: a ticket asked with the token, then followed once.
  const tickets = new DownloadTickets<LogFileRequest>();
  app.post('/api/log-downloads', requireToken, express.json({ limit: '16kb' }), (req: Request, res: Response) => {
    if (!options.logFiles) return refuse(res, 404, 'not-found', 'This console serves no log downloads.');
    const parsed = LOG_FILE_REQUEST.safeParse(req.body);
    if (!parsed.success) return refuse(res, 400, 'invalid-input', 'A log download is a JSON object {"clusterId", "processId", "file"} as the logs calls name them.');
    res.json({ ok: true, value: { url: `/api/log-downloads/${tickets.issue(parsed.data)}` } });
  });
  app.get('/api/log-downloads/:ticket', async (req: Request, res: Response) => {
    const request = options.logFiles ? tickets.take(String(req.params.ticket)) : undefined;
    if (!request) return refuse(res, 404, 'not-found', 'This download link was used or has expired: download the file again from the Logs panel.');
    res.status(200).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Content-Disposition': `attachment; filename="${logDownloadName(request.processId, request.file)}"` });
    try {
      await options.logFiles!.download(request, res);
      res.end();
    } catch (error) {
      // Once bytes went out, only a cut connection tells the browser the file is not whole.
      if (res.headersSent) return void res.destroy();
      const info = toErrorInfo(error);
      res.removeHeader('Content-Disposition');
      refuse(res, statusOf(info.kind), info.kind, info.message);
    }
  });

  app.use(express.static(options.staticDir, { index: 'index.html' }));
  app.use((_req: Request, res: Response) => refuse(res, 404, 'not-found', 'Not found.'));
  // Body-parser refusals, bad percent-encoding, anything thrown: JSON with a message, never a stack or a path.
  app.use((error: { status?: number; statusCode?: number; type?: string }, _req: Request, res: Response, _next: NextFunction) => {
    void _next;
    const status = error.status ?? error.statusCode ?? 500;
    if (res.headersSent) return void res.end();
    if (error.type === 'entity.too.large') refuse(res, 413, 'invalid-input', `The request body is larger than ${Math.round(bodyLimit / 1024 / 1024)} MiB.`);
    else if (error.type === 'entity.parse.failed') refuse(res, 400, 'invalid-input', 'The request body is not valid JSON.');
    else if (status < 500) refuse(res, status, 'invalid-input', 'Bad request.');
    else refuse(res, 500, 'internal', 'Internal error in web mode.');
  });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, '127.0.0.1', () => resolve(s)).once('error', reject);
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function refuse(res: Response, status: number, kind: ErrorKind, message: string): void {
  res.status(status).json({ ok: false, error: { kind, message } });
}

/**
 * Another site's page in the user's browser may send requests here (a form post, a fetch): its Origin
 * is not this server's, and a form cannot send JSON. Both are refused before anything reads the body.
 */
function crossSiteRefusal(req: Request, port: number): { status: number; message: string } | null {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
    return { status: 403, message: 'Requests from other sites are refused.' };
  }
  if (req.method === 'POST' && req.path.startsWith('/api/') && !req.is('application/json')) {
    return { status: 415, message: 'Engine calls are JSON (Content-Type: application/json).' };
  }
  return null;
}

/** The HTTP status a failed download answers with: the cluster's trouble is a bad gateway, the request's a 4xx. */
function statusOf(kind: ErrorKind): number {
  if (kind === 'invalid-input') return 400;
  if (kind === 'not-found') return 404;
  return 502;
}

function hasToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer /, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
