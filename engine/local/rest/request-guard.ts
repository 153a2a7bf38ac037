import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/**
 * Who may drive the local engine. Every desktop running the console runs one, so a web page in the same browser must
 * not be able to read it or write through it (savepoints into folders of the page's choice, TaskManager kills):
 *
 * - the Host header must name loopback with the engine's port (a DNS-rebinding page sends its own host name);
 * - a request with an `Origin` other than the engine's own, or that the browser marks as cross-site
 *   (`Sec-Fetch-Site`), is refused: browsers send these on cross-origin requests, curl and the console never do;
 * - with a token (the engine the app starts always has one), `Authorization: Bearer <token>` is required;
 * - a write (POST, PUT, PATCH, DELETE) that carries a body or a content type must say `Content-Type: application/json`:
 *   a form post or a "simple" cross-origin request cannot. A write with neither (`curl -X PATCH …/jobs/:id?mode=cancel`,
 *   as Flink's docs show) carries nothing to smuggle and stays allowed.
 *
 * No CORS header is ever sent, so a browser never lets a foreign page read an answer. All of this runs before the body
 * is read. Refusals use Flink's `{"errors": [...]}` body.
 */

export interface RequestGuardOptions {
  /** The bearer token every request must carry; undefined = none needed (a hand-started `flink-ops engine`). */
  token?: string;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The one write that is not JSON: `POST /jars/upload` (multipart/form-data, Flink's only upload). */
export const JAR_UPLOAD_PATHS = new Set(['/jars/upload', '/v1/jars/upload']);

/** A header echoed in a message, cut to a readable length. */
function clip(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}

function refuse(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status).set(headers).json({ errors: [message] });
}

/** `127.0.0.1:8081`, `localhost:8081`, `[::1]:8081` for the port the request arrived on. */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  return host !== undefined && LOOPBACK_NAMES.some((name) => host.toLowerCase() === `${name}:${port}`);
}

function isOwnOrigin(origin: string, port: number): boolean {
  return LOOPBACK_NAMES.some((name) => origin.toLowerCase() === `http://${name}:${port}`);
}

function hasBearerToken(header: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(header ?? '');
  const given = Buffer.from(match?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function requestGuard(options: RequestGuardOptions): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    const port = req.socket.localPort ?? 0;
    if (!isLoopbackHost(req.headers.host, port)) {
      refuse(res, 421, `Misdirected request: the local engine answers only to 127.0.0.1:${port}, localhost:${port} or [::1]:${port}, not to Host "${clip(req.headers.host ?? '')}".`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, port)) {
      refuse(res, 403, `Forbidden: requests from web pages (Origin ${clip(origin)}) are refused; the local engine serves the console, curl and the CLI only.`);
      return;
    }
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      refuse(res, 403, `Forbidden: a ${clip(String(site))} browser request is refused; the local engine serves the console, curl and the CLI only.`);
      return;
    }
    if (options.token !== undefined && !hasBearerToken(req.headers.authorization, options.token)) {
      refuse(res, 401, 'Unauthorized: this local engine needs the header "Authorization: Bearer <token>" with the token it was started with.', {
        'WWW-Authenticate': 'Bearer realm="flink-ops local engine"',
      });
      return;
    }
    const carriesBody = (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') || req.headers['transfer-encoding'] !== undefined;
    const typed = req.headers['content-type'] !== undefined;
    // A jar upload is multipart, as Flink's: a foreign page's form post is still refused by the Origin/Sec-Fetch-Site
    // checks above (browsers send them on every cross-origin POST) and by the token.
    const upload = req.method === 'POST' && JAR_UPLOAD_PATHS.has(req.path) && /^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '');
    if (WRITES.has(req.method) && (carriesBody || typed) && !upload && !/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
      refuse(res, 415, `Unsupported media type: ${req.method} ${req.path} needs "Content-Type: application/json"${req.headers['content-type'] ? `, not "${clip(req.headers['content-type'])}"` : ''}.`);
      return;
    }
    next();
  };
}
