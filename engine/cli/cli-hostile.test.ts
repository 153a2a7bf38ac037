import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flinkBasics, json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { runCli } from './testing/run-cli.ts';

/** `flink-ops` against hostile clusters: escape sequences never reach the terminal, and the deadline holds. */
const JOB = 'c'.repeat(32);

const run = (...args: string[]) => runCli(args, { timeout: 30_000 });

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
let escapes: HostileServer;
let trickle: HostileServer;
let impostor: HostileServer;

beforeAll(async () => {
  escapes = await startHostileServer((req, res) => {
    if (flinkBasics(req, res)) return;
    if (req.url === '/jobs/overview') {
      json(res, 200, { jobs: [{ jid: JOB, name: 'nightly\u001b]0;pwned\u0007\u001b[2J\u001b[31m-etl', state: 'RUNNING\u001b[5m', 'start-time': 1, 'end-time': -1, duration: 1000, tasks: { running: 1 } }] });
    } else json(res, 500, { errors: ['\u001b]52;c;cm0gLXJmIC8=\u0007Job failed\u001b[8m hidden'] });
  });
  trickle = await startHostileServer((req, res) => {
    if (flinkBasics(req, res)) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 200);
    res.on('close', () => clearInterval(timer));
  });
  impostor = await startHostileServer((req, res) => {
    if (flinkBasics(req, res)) return;
    if (req.url === '/jobs/overview') json(res, 200, { jobs: [{ jid: JOB, name: 'etl', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 1, tasks: {} }] });
    else json(res, 200, { jid: 'd'.repeat(32), name: 'other', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 1, vertices: [] });
  });
});
afterAll(async () => {
  await Promise.all([escapes.close(), trickle.close(), impostor.close()]);
});

describe.concurrent('flink-ops against hostile clusters', () => {
  it('strips escape sequences from names and states in tables', async () => {
    const result = await run('jobs', '--url', escapes.url);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stdout).toContain('nightly-etl');
    expect(result.stdout).toMatch(/RUNNING\s/);
  });

  it('strips escape sequences from Flink\'s error messages', async () => {
    const result = await run('graph', '--url', escapes.url, '--job', JOB);
    expect(result.code).toBe(3);
    expect(result.stderr).not.toMatch(CONTROL);
    expect(result.stderr).toMatch(/^flink-ops: .*failed GET \/jobs\/:jobid with 500: Job failed hidden\n$/);
  });

  it('a trickling server: --timeout is a deadline (exit 3 at about 1 s, not minutes)', async () => {
    const result = await run('jobs', '--url', trickle.url, '--timeout', '1000');
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/GET \/jobs\/overview .* did not finish within 1000 ms/);
    // Node's start-up and the /config check come on top of the one deadline.
    expect(result.millis).toBeLessThan(25_000);
  });

  it('another job\'s details for the requested id: exit 3 naming the field, not the other job\'s graph', async () => {
    const result = await run('graph', '--url', impostor.url, '--job', JOB);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/field `jid` does not match the request/);
    expect(result.stdout).toBe('');
  });
});
