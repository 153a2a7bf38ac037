import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineApi } from '../contracts/engine-api.ts';
import type { HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { streamLogFile } from '../logs/log-download.ts';
import { numberedLines, startLogServer, TM, type LogServer } from '../logs/testing/log-server.ts';
import { DownloadTickets, DOWNLOAD_TICKET_TTL_MS } from './download-tickets.ts';
import { startWebServer, type WebServer } from './web-server.ts';

/**
 * Web mode's whole-file log download: a one-use ticket asked with the launch token, followed by the browser's download,
 * which the server streams from the cluster as the browser reads it; a failure before the first byte answers as an
 * error, one after cuts the download (the browser then says it failed).
 */
let staticDir: string;
let server: WebServer;
let logs: LogServer;
const servers: HostileServer[] = [];
/** The cluster the downloads read: set per test. */
let cluster: () => LogServer = () => logs;

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(tmpdir(), 'flink-ops-web-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
  logs = await startLogServer(servers, () => numberedLines(40_000));
  server = await startWebServer({
    engine: {} as EngineApi,
    staticDir,
    logFiles: { download: (request, sink) => streamLogFile(cluster().client, request.processId, request.file, sink) },
  });
});
afterEach(() => {
  cluster = () => logs;
});
afterAll(async () => {
  await server.close();
  for (const s of servers) await s.close();
  rmSync(staticDir, { recursive: true, force: true });
});

const base = () => new URL(server.url).origin;
const token = () => new URL(server.url).searchParams.get('token')!;
const ask = (body: unknown, auth = `Bearer ${token()}`) =>
  fetch(`${base()}/api/log-downloads`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: auth }, body: JSON.stringify(body) });
async function ticketUrl(processId = TM): Promise<string> {
  const answer = (await (await ask({ clusterId: 'c1', processId, file: { kind: 'log' } })).json()) as { ok: true; value: { url: string } };
  expect(answer.value.url).toMatch(/^\/api\/log-downloads\/[\w-]{32}$/);
  return `${base()}${answer.value.url}`;
}

describe('a whole log downloaded in web mode', () => {
  it('streams the file to the browser once per ticket, as an attachment named after its process', async () => {
    const url = await ticketUrl();
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="taskmanager-${TM}.log"`);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await response.arrayBuffer());
    const expected = createHash('sha256');
    for (let it = numberedLines(40_000), next = it.next(); !next.done; next = it.next()) expected.update(next.value);
    expect(bytes.length).toBe(4_000_000);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(expected.digest('hex'));
    // Used: the same link opens nothing.
    const again = await fetch(url);
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ ok: false, error: { kind: 'not-found', message: expect.stringContaining('used or has expired') } });
  });

  it('gives tickets only to the launch token, for a request of the logs calls\' shape, sent as JSON', async () => {
    expect((await ask({ clusterId: 'c1', processId: TM, file: { kind: 'log' } }, 'Bearer wrong')).status).toBe(401);
    expect((await ask({ clusterId: 'c1', processId: TM, file: { kind: 'path', name: '/etc/passwd' } })).status).toBe(400);
    expect((await ask({ clusterId: 'c1', processId: TM, file: { kind: 'log' }, target: '/tmp/x' })).status).toBe(400);
    const form = await fetch(`${base()}/api/log-downloads`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token()}` }, body: 'clusterId=c1' });
    expect(form.status).toBe(415);
    const guessed = await fetch(`${base()}/api/log-downloads/${'A'.repeat(32)}`);
    expect(guessed.status).toBe(404);
    const foreign = await fetch(await ticketUrl(), { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
  });

  it('answers a file the cluster lacks as an error, not as a download', async () => {
    const response = await fetch(await ticketUrl('e'.repeat(32)));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(await response.json()).toMatchObject({ ok: false, error: { kind: 'not-found' } });
  });

  it('cuts the browser\'s download when the cluster cuts the file: a partial file is never taken for the whole', async () => {
    const cut = await startLogServer(servers, () => numberedLines(30_000), { after: 'cut' });
    cluster = () => cut;
    const response = await fetch(await ticketUrl());
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });
});

describe('a download the browser cancels', () => {
  it('stops reading the cluster: an endless file is not read on for nobody', async () => {
    const endless = await startLogServer(servers, () => numberedLines(Infinity));
    cluster = () => endless;
    const cancel = new AbortController();
    const response = await fetch(await ticketUrl(), { signal: cancel.signal });
    const reader = response.body!.getReader();
    let read = 0;
    while (read < 1024 * 1024) read += (await reader.read()).value!.length;
    cancel.abort();
    // The server's writes stop soon after (socket buffers hold a few MiB at most): polled, never slept on.
    let last = -1;
    const deadline = Date.now() + 10_000;
    while (endless.written() !== last && Date.now() < deadline) {
      last = endless.written();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(endless.written()).toBe(last);
    expect(last).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('download tickets', () => {
  it('are good once, and not after their time', () => {
    let now = 0;
    const tickets = new DownloadTickets<string>(() => now);
    const first = tickets.issue('a');
    const second = tickets.issue('b');
    expect(first).not.toBe(second);
    expect(tickets.take(first)).toBe('a');
    expect(tickets.take(first)).toBeUndefined();
    now += DOWNLOAD_TICKET_TTL_MS;
    expect(tickets.take(second)).toBeUndefined();
  });
});
