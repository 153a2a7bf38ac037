import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineApi } from '../contracts/engine-api.ts';
import { startWebServer, type WebServer } from './web-server.ts';

/**
 * Web mode's defences against the rest of the user's browser, against the real server on loopback:
 * the launch token, the Host (DNS rebinding), the Origin (other sites' pages), form posts, and the
 * token never leaving through a Referer or a log line.
 */
let server: WebServer;
let staticDir: string;
const calls: string[] = [];
const engine = {
  app: {
    info: async () => {
      calls.push('app.info');
      return { mode: 'web', secretStorage: 'memory', version: 't' };
    },
  },
  clusters: {
    list: async () => {
      calls.push('clusters.list');
      throw new Error('the cluster store is unreadable');
    },
  },
} as unknown as EngineApi;

/** Everything the process writes while the server runs: the token must appear in none of it. */
const written: string[] = [];

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(tmpdir(), 'flink-ops-web-sec-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title><script src="./app.js"></script>');
  writeFileSync(path.join(staticDir, 'app.js'), 'console.log(1)');
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void written.push(args.map(String).join(' ')));
  }
  server = await startWebServer({ engine, staticDir });
});

afterAll(async () => {
  await server.close();
  vi.restoreAllMocks();
  rmSync(staticDir, { recursive: true, force: true });
});

beforeEach(() => {
  calls.length = 0;
});

const port = () => Number(new URL(server.url).port);
const token = () => new URL(server.url).searchParams.get('token')!;

/** A raw request, so Host, Origin and Content-Type are exactly what a hostile page or tool would send. */
function request(options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: port(),
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: { host: `127.0.0.1:${port()}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const rpc = (headers: Record<string, string>, body = JSON.stringify({ call: 'app.info', args: [] })) =>
  request({ method: 'POST', path: '/api/rpc', headers: { 'content-type': 'application/json', ...headers }, body });

describe('the launch token', () => {
  it('is required for every engine call', async () => {
    expect((await rpc({})).status).toBe(401);
    expect((await rpc({ authorization: 'Bearer ' })).status).toBe(401);
    // One character off (never the same: the random token may end in "x" itself, 1 run in 64).
    expect((await rpc({ authorization: `Bearer ${token().slice(0, -1)}${token().endsWith('x') ? 'y' : 'x'}` })).status).toBe(401);
    expect((await rpc({ authorization: `Bearer ${token()}x` })).status).toBe(401);
    expect((await rpc({ authorization: `Basic ${Buffer.from(`u:${token()}`).toString('base64')}` })).status).toBe(401);
    expect(calls).toEqual([]);
  });

  it('opens the engine to the page that has it', async () => {
    const response = await rpc({ authorization: `Bearer ${token()}`, origin: `http://127.0.0.1:${port()}` });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ ok: true, value: { mode: 'web' } });
    expect(calls).toEqual(['app.info']);
  });
});

describe('requests from elsewhere', () => {
  it('refuses a foreign Host (DNS rebinding), even with the token', async () => {
    for (const host of [`evil.example:${port()}`, `127.0.0.1.evil.example:${port()}`, `127.0.0.1:${port() + 1}`, '127.0.0.1']) {
      expect((await rpc({ host, authorization: `Bearer ${token()}` })).status, host).toBe(421);
      expect((await request({ headers: { host } })).status, host).toBe(421);
    }
    expect(calls).toEqual([]);
  });

  it('refuses a foreign Origin, even with the token', async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${port() + 1}`, `https://127.0.0.1:${port()}`, `http://127.0.0.1:${port()}.evil.example`]) {
      const response = await rpc({ origin, authorization: `Bearer ${token()}` });
      expect(response.status, origin).toBe(403);
      expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    }
    expect(calls).toEqual([]);
  });

  it('refuses a cross-site form post before reading it', async () => {
    // What <form method=post action=http://127.0.0.1:port/api/rpc> on another site sends.
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' };
    expect((await rpc(form, 'method=getAppInfo&args=')).status).toBe(403);
    // enctype=text/plain can smuggle JSON; without an Origin (an old browser, a tool) it still is no JSON call.
    const plain = await rpc({ 'content-type': 'text/plain', authorization: `Bearer ${token()}` });
    expect(plain.status).toBe(415);
    const multipart = await rpc({ 'content-type': 'multipart/form-data; boundary=x', authorization: `Bearer ${token()}` }, '--x--');
    expect(multipart.status).toBe(415);
    expect(calls).toEqual([]);
  });
});

describe('the token stays secret', () => {
  it('no response lets the browser send it on in a Referer', async () => {
    const responses = [
      await request({ path: `/?token=${token()}` }),
      await request({ path: '/app.js' }),
      await request({ path: '/missing.js' }),
      await rpc({ authorization: `Bearer ${token()}` }),
      await rpc({}),
      await rpc({ origin: 'http://evil.example' }),
    ];
    for (const response of responses) expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('appears in no log line, whatever the request', async () => {
    await request({ path: `/?token=${token()}` });
    await request({ path: `/nothing-here?token=${token()}` });
    await rpc({ authorization: `Bearer ${token()}` }, JSON.stringify({ call: 'clusters.list', args: [] }));
    await rpc({ authorization: `Bearer ${token()}` }, '{"call": "app.info", "args": [');
    await rpc({ authorization: `Bearer ${token()}` }, JSON.stringify({ method: 'noSuchCall', args: [] }));
    await rpc({ authorization: `Bearer wrong-${token()}` });
    expect(calls).toEqual(['clusters.list']);
    expect(written.filter((line) => line.includes(token()))).toEqual([]);
  });
});
