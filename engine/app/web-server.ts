import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { EngineApi } from '../contracts/engine-api.ts';
import { dispatchEngineCall } from './dispatch.ts';

export interface WebServerOptions {
  engine: EngineApi;
  /** The built renderer (renderer/dist). */
  staticDir: string;
  /** @default 0: a free port */
  port?: number;
}

export interface WebServer {
  /** The URL to open, with the per-launch token. */
  url: string;
  close(): Promise<void>;
}

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

/**
 * Web mode: the same renderer bundle, served on 127.0.0.1 only, with the engine behind `POST /api/rpc`.
 * A per-launch token guards the API, and the Host header must be loopback so a DNS-rebinding page can't reach it.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  if (!existsSync(path.join(options.staticDir, 'index.html'))) {
    throw new Error(`The UI is not built (${options.staticDir}/index.html is missing): run \`npm run build\`.`);
  }
  const token = randomBytes(24).toString('base64url');
  const app = express();
  app.disable('x-powered-by');
  let port = 0;

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) {
      res.status(421).send('Misdirected request');
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

  app.post('/api/rpc', express.json({ limit: '1mb' }), async (req: Request, res: Response) => {
    if (!hasToken(req.headers.authorization, token)) {
      res.status(401).json({ ok: false, error: { kind: 'unauthorized', message: 'Missing or wrong launch token.' } });
      return;
    }
    const body = (req.body ?? {}) as { method?: unknown; args?: unknown };
    res.json(await dispatchEngineCall(options.engine, body.method, body.args));
  });

  app.use(express.static(options.staticDir, { index: 'index.html' }));

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, '127.0.0.1', () => resolve(s)).once('error', reject);
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
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
  if (req.method === 'POST' && req.path === '/api/rpc' && !req.is('application/json')) {
    return { status: 415, message: 'Engine calls are JSON (Content-Type: application/json).' };
  }
  return null;
}

function hasToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer /, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
