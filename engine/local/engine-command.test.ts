import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** `flink-ops engine` in its own process, as the app starts it: ready line, REST, clean stop, clear errors. */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const HARNESS = path.join(HERE, 'testing/engine-cli-harness.ts');

const children: ChildProcess[] = [];

afterEach(() => {
  // A failed or timed-out test must not leave an engine running.
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

const SHIFT_WALL_CLOCK = path.join(HERE, 'testing/shift-wall-clock.ts');

function run(args: string[], options: { env?: NodeJS.ProcessEnv; wallClockShiftMs?: number } = {}): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', SHIFT_WALL_CLOCK, HARNESS, 'engine', ...args], {
    cwd: path.resolve(HERE, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env, FLINK_OPS_TEST_WALL_CLOCK_SHIFT_MS: String(options.wallClockShiftMs ?? 0) },
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

async function waitFor(pattern: RegExp, output: () => string, timeoutMs = 15_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(output());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${pattern}; output so far:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('flink-ops engine', () => {
  it('prints the ready line, serves the REST API, and stops cleanly on SIGINT', async () => {
    const proc = run(['--port', '0', '--events', '3000', '--rate', '1000', '--seed', '7']);
    const [, url] = await waitFor(/^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m, proc.output);
    const overview = await (await fetch(`${url}/overview`)).json();
    expect(overview).toMatchObject({ taskmanagers: 4, 'slots-total': 8, 'flink-version': '2.2.1' });
    const jobs = await (await fetch(`${url}/jobs/overview`)).json();
    expect(jobs.jobs[0]).toMatchObject({ name: 'gatewaymeter', state: 'RUNNING' });
    proc.child.kill('SIGINT');
    expect(await proc.exit).toBe(0);
    expect(proc.output()).toContain('Local engine stopped.');
  }, 30_000);

  it('savepoint folders by allow-list: a bare engine writes none; with --allow-dir (repeatable) it writes under those only', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'le-allow-'));
    try {
      const savepoint = async (url: string, target: string): Promise<{ location?: string; failure?: string }> => {
        const job = (await (await fetch(`${url}/jobs/overview`)).json()).jobs[0].jid as string;
        const trigger = await fetch(`${url}/jobs/${job}/savepoints`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ 'target-directory': target }) });
        const id = (await trigger.json())['request-id'] as string;
        const deadline = Date.now() + 20_000;
        for (;;) {
          const status = await (await fetch(`${url}/jobs/${job}/savepoints/${id}`)).json();
          if (status.status.id === 'COMPLETED') return { location: status.operation.location, failure: status.operation['failure-cause']?.['stack-trace'] };
          if (Date.now() > deadline) throw new Error(`the savepoint to ${target} did not complete`);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const bare = run(['--port', '0', '--rate', '200']);
      const [, bareUrl] = await waitFor(/^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m, bare.output);
      expect((await savepoint(bareUrl, path.join(root, 'a'))).failure).toMatch(/the local engine writes only under the folders it was started with, and it was started with none \(start it with --checkpoint-dir or --allow-dir DIR\)/);
      bare.child.kill('SIGINT');
      await bare.exit;

      writeFileSync(path.join(root, 'marker'), '');
      const allowed = run(['--port', '0', '--rate', '200', '--allow-dir', path.join(root, 'a'), '--allow-dir', path.relative(path.resolve(HERE, '../..'), path.join(root, 'b'))]);
      const [, url] = await waitFor(/^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m, allowed.output);
      expect((await savepoint(url, path.join(root, 'a', 'sp'))).location).toMatch(new RegExp(`^file:${root}/a/sp/savepoint-`));
      expect((await savepoint(url, path.join(root, 'b'))).location).toMatch(new RegExp(`^file:${root}/b/savepoint-`));
      const refused = await savepoint(url, path.join(root, 'c'));
      expect(refused.failure).toContain(`the local engine writes only under ${path.join(root, 'a')}, ${path.join(root, 'b')}; start it with --allow-dir DIR`);
      allowed.child.kill('SIGINT');
      expect(await allowed.exit).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('--token: prints how to send it, and refuses requests without it', async () => {
    const token = 'cli-token-0123456789abcdef';
    const proc = run(['--port', '0', '--events', '1000', '--token', token]);
    const [, url] = await waitFor(/^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m, proc.output);
    await waitFor(new RegExp(`curl -H "Authorization: Bearer ${token}" ${url}/overview`), proc.output);
    expect((await fetch(`${url}/overview`)).status).toBe(401);
    expect((await fetch(`${url}/overview`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    proc.child.kill('SIGINT');
    expect(await proc.exit).toBe(0);
  }, 30_000);

  it('takes the token from FLINK_OPS_ENGINE_TOKEN (how the app starts it) without printing it', async () => {
    const token = 'env-token-0123456789abcdef';
    const proc = run(['--port', '0', '--events', '1000'], { env: { FLINK_OPS_ENGINE_TOKEN: token } });
    const [, url] = await waitFor(/^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m, proc.output);
    await waitFor(/Bearer \$FLINK_OPS_ENGINE_TOKEN/, proc.output);
    expect(proc.output()).not.toContain(token);
    expect((await fetch(`${url}/overview`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    proc.child.kill('SIGINT');
    expect(await proc.exit).toBe(0);
    const short = run(['--port', '0', '--token', 'short']);
    expect(await short.exit).toBe(2);
    expect(short.output()).toContain('--token must be 16 to 512 printable characters');
  }, 30_000);

  it('rejects bad input with a clear message and starts nothing', async () => {
    const unknown = run(['--port', '0', '--scenario', 'no-such-scenario']);
    expect(await unknown.exit).toBe(2);
    expect(unknown.output()).toMatch(/Unknown scenario "no-such-scenario". Known scenarios: .*hot-tenant/);
    expect(unknown.output()).not.toContain('Local engine:');

    const tooParallel = run(['--port', '0', '--parallelism', '200']);
    expect(await tooParallel.exit).toBe(2);
    expect(tooParallel.output()).toMatch(/parallelism .* \(200\) is higher than its maximum parallelism \(128\)/);

    const badRate = run(['--port', '0', '--rate', 'fast']);
    expect(await badRate.exit).toBe(2);
    expect(badRate.output()).toContain('--rate must be a positive number');

    const badVersion = run(['--port', '0', '--flink-version', '1.20.5']);
    expect(await badVersion.exit).toBe(2);
    expect(badVersion.output()).toContain('The local engine cannot emulate Flink version "1.20.5": use 2.2.1, 2.3.0.');
  }, 30_000);

  it('--flink-version 2.3.0: claims 2.3.0 and serves its shape', async () => {
    const proc = run(['--port', '0', '--flink-version', '2.3.0', '--rate', '200']);
    const [, url] = await waitFor(/^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m, proc.output);
    expect(await (await fetch(`${url}/config`)).json()).toMatchObject({ 'flink-version': '2.3.0' });
    const [job] = (await (await fetch(`${url}/jobs/overview`)).json()).jobs;
    expect(job).toMatchObject({ jobType: 'STREAMING', schedulerType: 'Adaptive' });
    proc.child.kill('SIGINT');
    expect(await proc.exit).toBe(0);
  }, 30_000);

  it('runs a scenario from a file at the max parallelism asked for, and says so when the file cannot be read', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'le-cli-'));
    const file = path.join(dir, 'my-mix.yaml');
    writeFileSync(file, 'name: my-mix\nparallelism: 3\noperatorParallelism:\n  tenant-cost: 12\ntraffic:\n  rate: 500\n  tenants: {acme: 1, globex: 1}\n  models: {m: 1}\n');
    const proc = run(['--port', '0', '--scenario', file, '--max-parallelism', '256']);
    const [, url] = await waitFor(/^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m, proc.output);
    const { jobs } = await (await fetch(`${url}/jobs/overview`)).json();
    const job = await (await fetch(`${url}/jobs/${jobs[0].jid}`)).json();
    expect(job.vertices.map((v: { name: string; parallelism: number; maxParallelism: number }) => [v.name.split(' -> ')[0], v.parallelism, v.maxParallelism])).toEqual([
      ['Source: gateway-events', 3, 256],
      ['assemble', 3, 256],
      ['tenant-cost', 12, 256],
    ]);
    const config = await (await fetch(`${url}/jobmanager/config`)).json();
    expect(config).toContainEqual({ key: 'pipeline.max-parallelism', value: '256' });
    expect(config).toContainEqual({ key: 'local-engine.scenario', value: 'my-mix' });
    proc.child.kill('SIGINT');
    expect(await proc.exit).toBe(0);

    const missing = run(['--port', '0', '--scenario', path.join(dir, 'nope.yaml')]);
    expect(await missing.exit).toBe(2);
    expect(missing.output()).toMatch(/Cannot read the scenario file .*nope\.yaml \(ENOENT\)/);
    const tooSmall = run(['--port', '0', '--max-parallelism', '2']);
    expect(await tooSmall.exit).toBe(2);
    expect(tooSmall.output()).toMatch(/\(4\) is higher than its maximum parallelism \(2\)/);
  }, 45_000);

  it('refuses a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const proc = run(['--port', String(port)]);
      expect(await proc.exit).toBe(1);
      expect(proc.output()).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    } finally {
      blocker.close();
    }
  }, 30_000);

  it('with --start-time, writes the same sink output byte for byte whatever the wall clock', async () => {
    const startTime = Date.UTC(2026, 0, 1, 0, 0, 17);
    const folder = mkdtempSync(path.join(os.tmpdir(), 'le-start-time-'));
    const bounded = async (name: string, wallClockShiftMs: number): Promise<string> => {
      const sinkDir = path.join(folder, name);
      const proc = run(['--port', '0', '--scenario', 'exactly-once', '--events', '6000', '--rate', '3000', '--seed', '7', '--start-time', String(startTime), '--sink-dir', sinkDir], { wallClockShiftMs });
      await waitFor(/^Job gatewaymeter \([0-9a-f]{32}\) FINISHED$/m, proc.output, 60_000);
      proc.child.kill('SIGINT');
      expect(await proc.exit).toBe(0);
      return readFileSync(path.join(sinkDir, 'gatewaymeter.ndjson'), 'utf8');
    };
    try {
      const now = await bounded('now', 0);
      // The same run on a machine whose clock reads three days, five hours and a bit later.
      const later = await bounded('later', ((3 * 24 + 5) * 60 + 17) * 60_000 + 123);
      expect(later).toBe(now);
      const windows = now.trim().split('\n').map((line) => (JSON.parse(line) as { window_start: number }).window_start);
      expect(windows.length).toBeGreaterThan(5);
      // Event time counts from the start time, not from the wall clock: the first window is the start time's minute.
      expect(Math.min(...windows)).toBe(startTime - 17_000);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses an unusable checkpoint folder', async () => {
    // A folder cannot live inside a regular file.
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'le-cli-')), 'a-file');
    writeFileSync(file, 'x');
    const proc = run(['--port', '0', '--checkpoint-dir', path.join(file, 'checkpoints')]);
    expect(await proc.exit).toBe(2);
    expect(proc.output()).toMatch(/Cannot use --checkpoint-dir .*a-file\/checkpoints: .*a-file is not a folder/);
    expect(proc.output()).not.toContain('Local engine:');
  }, 30_000);
});
