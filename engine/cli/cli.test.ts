import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flinkBasics, json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { runCli } from './testing/run-cli.ts';


const run = (...args: string[]) => runCli(args);

let noJobs: HostileServer;
let htmlServer: HostileServer;
beforeAll(async () => {
  noJobs = await startHostileServer((req, res) => flinkBasics(req, res) || json(res, 200, { jobs: [] }));
  htmlServer = await startHostileServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html></html>');
  });
});
afterAll(async () => {
  await noJobs.close();
  await htmlServer.close();
});

describe.concurrent('flink-ops CLI errors: one line on stderr and a documented exit code', { timeout: 90_000 }, () => {
  it.each([
    [['jobs'], 2, /required option '--url <url>'/],
    [['jobs', '--url', 'not a url'], 2, /is not a URL/],
    [['graph', '--url', 'http://127.0.0.1:1'], 2, /--job/],
    [['frobnicate'], 2, /unknown command/],
    [['jobs', '--url', 'http://127.0.0.1:1'], 3, /Connection refused/],
  ])('flink-ops %j exits %i', async (args, code, message) => {
    const result = await run(...args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 3 for a server that is not Flink', async () => {
    const result = await run('jobs', '--url', htmlServer.url);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/not a Flink REST API/);
  });

  it('exits 4 for a job that is not there', async () => {
    const result = await run('graph', '--url', noJobs.url, '--job', 'nightly-etl');
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('flink-ops: No job with id or name "nightly-etl" on this cluster.\n');
  });
});
