import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { flinkBasics, json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { envWithEmptyHome, runCli } from './testing/run-cli.ts';

/** `flink-ops` against hostile clusters: escape sequences never reach the terminal, and the deadline holds. */
const JOB = 'c'.repeat(32);

const dirs = tempDirs('flink-ops-cli-hostile-');
const run = (...args: string[]) => runCli(args, { timeout: 60_000, env: envWithEmptyHome(dirs) });

/** What a terminal would act on: every control character but the tab and the line break, and bidi overrides. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Clears the screen, recolours, rings, returns the cursor, retitles the window, reverses the text, and a NUL and an 8-bit CSI. */
const PAYLOAD = '\u001b[2J\u001b[31mPWNED\u001b[0m\u0007\r\u001b]0;title\u0007\u202eevil\u0000\u009b31m';

let escapes: HostileServer;
let trickle: HostileServer;
let impostor: HostileServer;
let recorded: HostileServer & { jobId: string };

beforeAll(async () => {
  escapes = await startHostileServer((req, res) => {
    if (flinkBasics(req, res)) return;
    if (req.url === '/jobs/overview') {
      json(res, 200, { jobs: [{ jid: JOB, name: 'nightly\u001b]0;pwned\u0007\u001b[2J\u001b[31m-etl', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 1000, tasks: { running: 1 } }] });
    } else json(res, 500, { errors: ['\u001b]52;c;cm0gLXJmIC8=\u0007Job failed\u001b[8m hidden'] });
  });
  trickle = await startHostileServer((req, res) => {
    if (flinkBasics(req, res)) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 200);
    res.on('close', () => clearInterval(timer));
  });
  recorded = await startRecordedWithPayload();
  impostor = await startHostileServer((req, res) => {
    if (flinkBasics(req, res)) return;
    if (req.url === '/jobs/overview') json(res, 200, { jobs: [{ jid: JOB, name: 'etl', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 1, tasks: {} }] });
    else json(res, 200, { jid: 'd'.repeat(32), name: 'other', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 1, vertices: [] });
  });
});
afterAll(async () => {
  await Promise.all([escapes.close(), trickle.close(), impostor.close(), recorded.close()]);
  dirs.removeAll();
});

// One CLI at a time: a dozen Node processes at once would starve each other on a small machine.
describe('every string a cluster controls goes through the terminal filter, byte by byte', () => {
  const commands: Array<[string, string[], RegExp | null]> = [
    ['jobs', ['jobs'], /PWNED/],
    ['jobs --json', ['jobs', '--json'], /PWNED/],
    ['graph', ['graph', '--job', '@'], /^gatewaymeter-testPWNED/],
    ['graph --json', ['graph', '--job', '@', '--json'], /PWNED/],
    ['exceptions', ['exceptions', '--job', '@'], /RuntimeException.*PWNED/],
    ['exceptions --json', ['exceptions', '--job', '@', '--json'], /PWNED/],
    ['checkpoints', ['checkpoints', '--job', '@'], /^gatewaymeter-testPWNED/],
    ['checkpoints --json', ['checkpoints', '--job', '@', '--json'], /PWNED/],
    ['diagnose', ['diagnose', '--job', '@', '--window', '10s'], /^gatewaymeter-testPWNED/],
    ['report (csv)', ['report', '--job', '@', '--window', '10s'], /PWNED/],
  ];

  it.each(commands)('%s', async (_what, args, shows) => {
    const withJob = args.map((a) => (a === '@' ? recorded.jobId : a));
    const result = await run(...withJob, '--url', recorded.url);
    expect(result.stderr).not.toMatch(CONTROL);
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.code, result.stderr).toBe(0);
    if (shows) expect(result.stdout).toMatch(shows);
    if (args.includes('--json')) expect(JSON.stringify(JSON.parse(result.stdout))).toContain(JSON.stringify(PAYLOAD).slice(1, -1));
  }, 90_000);

  it('a job state outside Flink\'s JobStatus is refused as an unexpected response, naming the endpoint and the field', async () => {
    const server = await startHostileServer((req, res) => {
      if (flinkBasics(req, res)) return;
      json(res, 200, { jobs: [{ jid: JOB, name: 'etl', state: `RUNNING${PAYLOAD}`, 'start-time': 1, 'end-time': -1, duration: 1, tasks: {} }] });
    });
    try {
      for (const args of [['jobs'], ['graph', '--job', JOB], ['checkpoints', '--job', JOB], ['diagnose', '--job', JOB]]) {
        const result = await run(...args, '--url', server.url);
        expect(result.code, args[0]).toBe(3);
        expect(result.stdout).toBe('');
        expect(result.stderr).not.toMatch(CONTROL);
        expect(result.stderr).toMatch(/^flink-ops: GET \/jobs\/overview .*unexpected response: field `jobs\.0\.state` is not one of Flink's job states \(JobStatus\)\.\n$/);
      }
    } finally {
      await server.close();
    }
  }, 180_000);
});

describe.concurrent('flink-ops against hostile clusters', () => {
  it('strips escape sequences from names and states in tables', async () => {
    const result = await run('jobs', '--url', escapes.url);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stdout).toContain('nightly-etl');
  });

  it('strips escape sequences from Flink\'s error messages', async () => {
    const result = await run('graph', '--url', escapes.url, '--job', JOB);
    expect(result.code).toBe(3);
    expect(result.stderr).not.toMatch(CONTROL);
    expect(result.stderr).toMatch(/^flink-ops: .*failed GET \/jobs\/:jobid with 500: Job failed hidden\n$/);
  });

  it('a server that trickles forever: --timeout is a deadline, the CLI exits 3 on its own', async () => {
    // A byte every 200 ms never lets an idle timeout fire: only a deadline ends the command (or the test's timeout).
    const result = await run('jobs', '--url', trickle.url, '--timeout', '1000');
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/GET \/jobs\/overview .* did not finish within 1000 ms: the body stalled after its headers \(HTTP 200\)/);
  });

  it('another job\'s details for the requested id: exit 3 naming the field, not the other job\'s graph', async () => {
    const result = await run('graph', '--url', impostor.url, '--job', JOB);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/field `jid` does not match the request/);
    expect(result.stdout).toBe('');
  });
});

const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/flink/recorded/2.2.1');

/** Path and query as the replay keys them: the query's parameters sorted, the path decoded. */
function requestKey(raw: string): string {
  const url = new URL(raw, 'http://replay');
  const params = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  return `${decodeURIComponent(url.pathname)}${params.length ? `?${params.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}`;
}

/**
 * A real Flink 2.2.1's recorded answers, with PAYLOAD in every string the CLI prints from a cluster: the job's and
 * the vertices' names, the failure of the latest failed checkpoint, and an exception's name, message and task.
 */
async function startRecordedWithPayload(): Promise<HostileServer & { jobId: string }> {
  const manifest = JSON.parse(readFileSync(path.join(RECORDED, 'manifest.json'), 'utf8')) as { jobId: string; files: Record<string, { path: string }> };
  const bodies = new Map<string, unknown>();
  for (const [file, entry] of Object.entries(manifest.files)) bodies.set(requestKey(entry.path), JSON.parse(readFileSync(path.join(RECORDED, file), 'utf8')));
  const text = JSON.stringify([...bodies.entries()]);
  // Names appear in the overview, the details, the plan and each vertex: the same hostile name everywhere.
  const names = ['gatewaymeter-test', 'Source: events -> parse', 'throttle', 'tenant-cost -> sink: Writer'];
  let hostileText = text;
  for (const name of names) hostileText = hostileText.split(JSON.stringify(name)).join(JSON.stringify(`${name}${PAYLOAD}`));
  const hostileBodies = new Map(JSON.parse(hostileText) as Array<[string, unknown]>);
  const job = manifest.jobId;
  const checkpoints = hostileBodies.get(`/jobs/${job}/checkpoints`) as { latest: Record<string, unknown> & { completed: Record<string, unknown> } };
  hostileBodies.set(`/jobs/${job}/checkpoints/details/${String(checkpoints.latest.completed.id)}`, checkpoints.latest.completed);
  checkpoints.latest.failed = { ...checkpoints.latest.completed, className: 'failed', id: 4, status: 'FAILED', failure_timestamp: 1795969750000, failure_message: `Checkpoint expired${PAYLOAD}` };
  hostileBodies.set(`/jobs/${job}/exceptions`, {
    exceptionHistory: {
      entries: [{ exceptionName: `java.lang.RuntimeException${PAYLOAD}`, stacktrace: `java.lang.RuntimeException: boom${PAYLOAD}\n\tat x.y(Z.java:1)`, timestamp: 1795969700000, taskName: `throttle${PAYLOAD} (1/2)#0`, endpoint: '127.0.0.1:1', taskManagerId: 'tm', concurrentExceptions: [] }],
      truncated: false,
    },
  });
  const server = await startHostileServer((req, res) => {
    const body = hostileBodies.get(requestKey(req.url ?? '/'));
    if (body === undefined) json(res, 404, { errors: [`Not found: ${req.url}${PAYLOAD}`] });
    else json(res, 200, body);
  });
  return { ...server, jobId: job };
}
