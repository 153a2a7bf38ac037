import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointOf, startCountingProxy, type CountingProxy } from './counting-proxy.ts';

const JOB = 'a'.repeat(32);
const VERTEX = 'b'.repeat(32);
let upstream: http.Server;
let proxy: CountingProxy;

beforeAll(async () => {
  // A stand-in JobManager: answers each path with a body as long as the path says.
  upstream = http.createServer((req, res) => {
    const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('size') ?? 10);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('x'.repeat(size));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  proxy = await startCountingProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, ['web-ui', 'console']);
});

afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('startCountingProxy', () => {
  it('passes answers on and counts requests and body bytes per client, by endpoint, from zero after a reset', async () => {
    const body = await (await fetch(`${proxy.url('web-ui')}/jobs/${JOB}?size=1000`)).text();
    expect(body).toBe('x'.repeat(1000));
    await (await fetch(`${proxy.url('web-ui')}/jobs/${JOB}/vertices/${VERTEX}/subtasks/metrics?get=busyTimeMsPerSecond&size=5`)).text();
    await (await fetch(`${proxy.url('console')}/jobs/${JOB}?size=70000`)).text();

    const web = proxy.count('web-ui');
    expect(web.requests).toBe(2);
    expect(web.bytes).toBe(1005);
    expect(Object.fromEntries(web.byEndpoint)).toEqual({
      '/jobs/:id?size': { requests: 1, bytes: 1000 },
      '/jobs/:id/vertices/:id/subtasks/metrics?get&size': { requests: 1, bytes: 5 },
    });
    expect(proxy.count('console')).toMatchObject({ requests: 1, bytes: 70000 });

    proxy.reset();
    expect(proxy.count('web-ui')).toMatchObject({ requests: 0, bytes: 0 });
    expect(web.requests).toBe(2); // a count taken before the reset stays as it was
  });
});

describe('endpointOf', () => {
  it('names an endpoint without its ids, indexes or query values', () => {
    expect(endpointOf(`/jobs/${JOB}/checkpoints/details/17/subtasks/${VERTEX}`)).toBe('/jobs/:id/checkpoints/details/:n/subtasks/:id');
    expect(endpointOf('/overview')).toBe('/overview');
  });
});
