import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EngineApi } from '../contracts/engine-api.ts';
import { startWebServer, type WebServer } from './web-server.ts';

let server: WebServer;
let staticDir: string;
const jobsGraph = vi.fn(async () => ({}));
const engine = { app: { info: async () => ({ mode: 'web', secretStorage: 'memory', version: 't' }) }, jobs: { graph: jobsGraph } } as unknown as EngineApi;

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(tmpdir(), 'flink-ops-web-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
  // A 1 MiB limit here (the app's is 140 MiB, for a jar's base64): the refusal is the same, the test light.
  server = await startWebServer({ engine, staticDir, bodyLimitBytes: 1024 * 1024 });
});
afterAll(async () => {
  await server.close();
  rmSync(staticDir, { recursive: true, force: true });
});

const base = () => new URL(server.url).origin;
const token = () => new URL(server.url).searchParams.get('token')!;
const rpc = (body: unknown, auth = `Bearer ${token()}`) =>
  fetch(`${base()}/api/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: auth }, body: JSON.stringify(body) });

describe('web mode server', () => {
  it('listens on loopback only and prints a URL with a launch token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
  });

  it('serves the UI with a strict CSP and no referrer', async () => {
    const response = await fetch(`${base()}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('answers engine calls with the token, and refuses them without it', async () => {
    expect(await (await rpc({ call: 'app.info', args: [] })).json()).toEqual({ ok: true, value: { mode: 'web', secretStorage: 'memory', version: 't' } });
    expect((await rpc({ call: 'app.info', args: [] }, 'Bearer wrong')).status).toBe(401);
    expect((await rpc({ call: 'app.info', args: [] }, '')).status).toBe(401);
  });

  it('refuses calls outside the contract', async () => {
    for (const call of ['constructor', 'app', 'app.constructor', 'app.info.x', 'getAppInfo']) {
      const body = (await (await rpc({ call, args: [] })).json()) as { ok: boolean; error: { kind: string } };
      expect(body, call).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringContaining(`Unknown engine call "${call}"`) } });
    }
  });

  it('refuses malformed arguments at the edge, naming the call and the argument, before the service runs', async () => {
    const cases: Array<[unknown[], string]> = [
      [['c1'], '"jobs.graph" is missing its argument jobId.'],
      [['c1', 42], '"jobs.graph", argument jobId: expected string, received number.'],
      [['c1', 'j1', 'extra'], '"jobs.graph" takes 2 arguments (clusterId, jobId), not 3.'],
    ];
    for (const [args, message] of cases) {
      expect(await (await rpc({ call: 'jobs.graph', args })).json(), JSON.stringify(args)).toEqual({ ok: false, error: { kind: 'invalid-input', message } });
    }
    expect(jobsGraph).not.toHaveBeenCalled();
  });

  it('checks the token before reading the body, and answers every error as JSON without a stack', async () => {
    const post = (body: string, auth?: string) =>
      fetch(`${base()}/api/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) }, body });
    const huge = JSON.stringify({ call: 'app.info', args: ['x'.repeat(2 * 1024 * 1024)] });
    const cases: Array<[string, Response, number, string]> = [
      ['2 MB without the token', await post(huge), 401, 'unauthorized'],
      ['bad JSON without the token', await post('{"call": ', 'Bearer nope'), 401, 'unauthorized'],
      ['2 MB with the token', await post(huge, `Bearer ${token()}`), 413, 'invalid-input'],
      ['bad JSON with the token', await post('{"call": ', `Bearer ${token()}`), 400, 'invalid-input'],
      ['a call that is a number', await post('{"call": 42, "args": []}', `Bearer ${token()}`), 400, 'invalid-input'],
      ['a call that is an object', await post('{"call": {"toString": 1}, "args": []}', `Bearer ${token()}`), 400, 'invalid-input'],
      ['a body that is an array', await post('[1, 2]', `Bearer ${token()}`), 400, 'invalid-input'],
      ['bad percent-encoding', await fetch(`${base()}/%E0%A4%A`), 404, 'not-found'],
      ['an unknown path', await fetch(`${base()}/nothing/here`), 404, 'not-found'],
    ];
    for (const [what, response, status, kind] of cases) {
      const text = await response.text();
      expect(response.status, what).toBe(status);
      expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
      expect(JSON.parse(text), what).toMatchObject({ ok: false, error: { kind } });
      expect(text, what).not.toMatch(/<html|<pre|\n\s+at |node_modules|\/engine\//i);
    }
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const { port } = new URL(server.url);
      http.get({ host: '127.0.0.1', port, path: '/', headers: { host: `evil.example:${port}` } }, (res) => resolve(res.statusCode ?? 0)).on('error', reject);
    });
    expect(status).toBe(421);
  });
});
