import { afterEach, describe, expect, it } from 'vitest';
import { checkFlinkCluster } from '../clusters/cluster-check.ts';
import { createClient } from '../clusters/cluster-connections.ts';
import type { ErrorKind } from '../contracts/errors.ts';
import { FlinkRestClient, parseClusterUrl } from './client.ts';
import { endpoints } from './endpoints.ts';
import { EngineError } from './errors.ts';
import { flinkBasics, json, startHostileServer, TEST_CA_FILE, type HostileServer } from './testdata/hostile-server.ts';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failureOf(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

async function expectKind(promise: Promise<unknown>, kind: ErrorKind, messagePart?: RegExp): Promise<EngineError> {
  const error = await failureOf(promise);
  expect(error.info.kind).toBe(kind);
  if (messagePart) expect(error.info.message).toMatch(messagePart);
  return error;
}

describe('parseClusterUrl', () => {
  it('keeps scheme, host, port and a proxy path prefix, without a trailing slash', () => {
    expect(parseClusterUrl(' http://jm:8081/ ')).toBe('http://jm:8081');
    expect(parseClusterUrl('https://gateway.example/flink/')).toBe('https://gateway.example/flink');
  });

  it.each([
    ['not a url', /is not a URL/],
    ['ftp://jm:8081', /only http and https/],
    ['http://user:pw@jm:8081', /credentials/],
    ['http://jm:8081/?x=1', /query or fragment/],
  ])('refuses %s with a clear message', (raw, message) => {
    expect(() => parseClusterUrl(raw)).toThrow(message);
  });
});

describe('FlinkRestClient against a hostile server', () => {
  it('maps a refused connection', async () => {
    const client = new FlinkRestClient({ baseUrl: 'http://127.0.0.1:1' });
    await expectKind(client.request(endpoints.config), 'refused', /nothing listens there/);
  });

  it('maps a DNS failure', async () => {
    const client = new FlinkRestClient({ baseUrl: 'http://no-such-host.invalid:8081' });
    await expectKind(client.request(endpoints.config), 'dns', /could not be resolved/);
  });

  it('times out on a server that never answers, naming the endpoint', async () => {
    server = await startHostileServer(() => {});
    const client = new FlinkRestClient({ baseUrl: server.url, timeoutMs: 300 });
    const error = await expectKind(client.request(endpoints.overview), 'timeout', /within 300 ms/);
    expect(error.info.endpoint).toBe('GET /overview');
  });

  it.each([
    [401, 'unauthorized', /credentials/],
    [403, 'forbidden', /403 Forbidden/],
    [404, 'not-found', /not found/],
    [500, 'server-error', /500: Job failed to report/],
    [503, 'server-error', /503/],
  ] as const)('maps HTTP %i to %s, with Flink\'s own message', async (status, kind, message) => {
    server = await startHostileServer((_req, res) => json(res, status, { errors: ['Job failed to report\njava.lang.Exception: …'] }));
    const client = new FlinkRestClient({ baseUrl: server.url });
    const error = await expectKind(client.request(endpoints.jobsOverview), kind, message);
    expect(error.info.status).toBe(status);
    expect(error.info.message).not.toMatch(/java\.lang/); // first line only
  });

  it('reports malformed and truncated JSON', async () => {
    server = await startHostileServer((req, res) => {
      if (req.url === '/overview') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"taskmanagers": 2, "slots-tot');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('');
      }
    });
    const client = new FlinkRestClient({ baseUrl: server.url });
    await expectKind(client.request(endpoints.overview), 'malformed-response', /malformed or truncated JSON/);
    await expectKind(client.request(endpoints.jobsOverview), 'malformed-response', /empty body/);
  });

  it('reports a body cut off mid-transfer', async () => {
    server = await startHostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"jobs": [');
      res.destroy();
    });
    const client = new FlinkRestClient({ baseUrl: server.url });
    const error = await failureOf(client.request(endpoints.jobsOverview));
    expect(['network', 'malformed-response']).toContain(error.info.kind);
    expect(error.info.message).toContain('GET /jobs/overview');
  });

  it('names the endpoint and the field when a response does not fit', async () => {
    server = await startHostileServer((_req, res) =>
      json(res, 200, { jobs: [{ jid: 'a', name: 'n', state: 'RUNNING', 'start-time': 'yesterday', 'end-time': -1, duration: 1, tasks: {} }] }),
    );
    const client = new FlinkRestClient({ baseUrl: server.url });
    await expectKind(client.request(endpoints.jobsOverview), 'unexpected-response', /GET \/jobs\/overview .*`jobs\.0\.start-time`/);
  });

  it('tells an HTML page (a proxy login, another app) from Flink', async () => {
    server = await startHostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Sign in</body></html>');
    });
    await expectKind(checkFlinkCluster(new FlinkRestClient({ baseUrl: server.url })), 'not-flink', /HTML page, not a Flink REST API/);
  });

  it('tells a JSON API that is not Flink', async () => {
    server = await startHostileServer((_req, res) => json(res, 200, { status: 'UP' }));
    await expectKind(checkFlinkCluster(new FlinkRestClient({ baseUrl: server.url })), 'not-flink', /flink-version/);
  });

  it('tells a server without /config', async () => {
    server = await startHostileServer((_req, res) => json(res, 404, { message: 'no route' }));
    await expectKind(checkFlinkCluster(new FlinkRestClient({ baseUrl: server.url })), 'not-flink', /REST port/);
  });

  it('reads the version and the metrics fetch interval, and sends credentials', async () => {
    const seen: (string | undefined)[] = [];
    server = await startHostileServer((req, res) => {
      seen.push(req.headers.authorization);
      flinkBasics(req, res);
    });
    const client = new FlinkRestClient({ baseUrl: server.url, auth: { kind: 'bearer', token: 's3cret' } });
    expect(await checkFlinkCluster(client)).toEqual({
      flinkVersion: '2.2.1',
      flinkRevision: 'test',
      metricsFetchIntervalMs: 5000,
      versionSupported: true,
    });
    expect(seen).toEqual(['Bearer s3cret', 'Bearer s3cret']);
  });

  it('falls back to Flink\'s default fetch interval when the configuration is hidden', async () => {
    server = await startHostileServer((req, res) => {
      if (req.url === '/config') json(res, 200, { 'flink-version': '1.18.1' });
      else json(res, 403, { errors: ['not allowed'] });
    });
    const check = await checkFlinkCluster(new FlinkRestClient({ baseUrl: server.url }));
    expect(check.metricsFetchIntervalMs).toBe(10_000);
  });

  it('verifies TLS by default, and trusts a cluster\'s CA when given its file', async () => {
    server = await startHostileServer(flinkBasics, { tls: true });
    const untrusted = createClient({ name: 't', url: server.url, auth: { kind: 'none' }, timeoutMs: 2000 }, undefined);
    await expectKind(untrusted.request(endpoints.config), 'tls', /not trusted/);
    const trusted = createClient({ name: 't', url: server.url, auth: { kind: 'none' }, caFile: TEST_CA_FILE, timeoutMs: 2000 }, undefined);
    expect((await trusted.request(endpoints.config))['flink-version']).toBe('2.2.1');
  });

  it('refuses an unreadable CA file', () => {
    expect(() => createClient({ name: 't', url: 'https://x', auth: { kind: 'none' }, caFile: '/nope.pem', timeoutMs: 2000 }, undefined)).toThrow(
      /Cannot read the CA file \/nope\.pem: ENOENT/,
    );
  });

  it('never has more than the concurrency cap in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const held: (() => void)[] = [];
    // Answer only once the cap is reached: a client over the cap would show a higher peak.
    server = await startHostileServer((_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      held.push(() => {
        inFlight -= 1;
        json(res, 200, { 'flink-version': '2.2.1' });
      });
      if (held.length === 3) held.splice(0).forEach((answer) => answer());
    });
    const client = new FlinkRestClient({ baseUrl: server.url, maxConcurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, () => client.request(endpoints.config)));
    expect(peak).toBe(3);
    expect(client.stats.requests).toBe(12);
  });
});

describe('vertex subtasks while the cluster has no metrics yet', () => {
  it('shows the subtasks without ratios when the backpressure endpoint fails with 500', async () => {
    const { fetchVertexSubtasks } = await import('../sampling/vertex-subtasks.ts');
    server = await startHostileServer((req, res) => {
      if (req.url?.endsWith('/backpressure')) json(res, 500, { errors: ['java.util.NoSuchElementException: No value present'] });
      else if (req.url?.endsWith('/watermarks')) json(res, 200, []);
      else json(res, 200, { id: 'v', name: 'tenant-cost', parallelism: 1, subtasks: [{ subtask: 0, status: 'RUNNING', host: 'tm-a:1' }] });
    });
    const table = await fetchVertexSubtasks(new FlinkRestClient({ baseUrl: server.url }), 'c', 'j', 'v');
    expect(table.subtasks).toEqual([expect.objectContaining({ index: 0, endpoint: 'tm-a:1', busyTimeMsPerSecond: null, backpressureLevel: null })]);
    expect(table.backpressureLevel).toBeNull();
  });
});
