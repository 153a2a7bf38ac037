import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flinkBasics, json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { envWithEmptyHome, FLINK_OPS_BIN, runCli } from './testing/run-cli.ts';

/**
 * `flink-ops logs` and `flink-ops thread-dump` against a cluster whose log lines and thread names carry escape
 * sequences and binary bytes: nothing reaches the terminal that it would act on, the data survives in `--json`.
 */
const TM = 'e'.repeat(32);
const PAYLOAD = '\u001b[2J\u001b[31mPWNED\u001b[0m\u0007\r\u001b]0;title\u0007\u202eevil\u0000\u009b31m';
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const LOG = [
  `2026-12-02 16:00:00,000 INFO  org.apache.flink.runtime.taskmanager.Task [] - tenant-cost (13/32)#0 (a_12_0) switched from INITIALIZING to RUNNING.${PAYLOAD}`,
  '2026-12-02 16:00:01,000 WARN  com.acme.Cost [] - tenant-cost (13/32)#0 slow record',
  '\tat com.acme.Cost.process(Cost.java:42)',
  `2026-12-02 16:00:02,000 INFO  other [] - binary \u0000\u00ff${PAYLOAD}`,
].join('\n') + '\n';

const dirs = tempDirs('flink-ops-logs-');
const run = (...args: string[]) => runCli([...args, '--url', server.url], { timeout: 60_000, env: envWithEmptyHome(dirs) });
let server: HostileServer;
/** A log that grows by one line each time it is read, as a busy TaskManager's does between two polls. */
let growing = 0;
beforeAll(async () => {
  server = await startHostileServer((req, res) => {
    if (flinkBasics(req, res)) return;
    if (req.url === '/jobmanager/log') {
      growing++;
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(Array.from({ length: growing }, (_, i) => `2026-12-02 16:00:0${i % 10},000 INFO  x [] - line ${i + 1}${PAYLOAD}\n`).join(''));
    }
    if (req.url === `/taskmanagers/${TM}/log`) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(Buffer.concat([Buffer.from(LOG), Buffer.from([0xff, 0xfe, 0x0a])]));
    } else if (req.url === `/taskmanagers/${TM}/logs`) {
      json(res, 200, { logs: [{ name: `taskmanager.log${PAYLOAD}`, size: LOG.length, mtime: 1_796_197_602_900 }] });
    } else if (req.url === `/taskmanagers/${TM}/thread-dump`) {
      const name = `tenant-cost${PAYLOAD} (13/32)#0`;
      json(res, 200, { threadInfos: [{ threadName: name, stringifiedThreadInfo: `"${name}" Id=57 RUNNABLE\n\tat com.acme.Cost${PAYLOAD}.process(Cost.java:42)\n` }] });
    } else json(res, 404, { errors: [`Not found: ${req.url}`] });
  });
});
afterAll(async () => {
  await server.close();
  dirs.removeAll();
});

describe('flink-ops logs and thread-dump print what a cluster sent, never what it would do to the terminal', () => {
  it.each([
    ['logs --tail', ['logs', '--taskmanager', TM, '--tail', '10'], /PWNED/],
    ['logs --list', ['logs', '--taskmanager', TM, '--list'], /taskmanager\.log.*PWNED/],
    ['logs --task', ['logs', '--taskmanager', TM, '--task', 'tenant-cost (13/32)#0'], /^1:.*\n2:.*slow record\n3:.*Cost\.java:42\)\n3 matching lines of 5\.\n$/],
    ['logs --grep --json', ['logs', '--taskmanager', TM, '--grep', 'binary', '--json'], /"number": 4/],
    ['thread-dump', ['thread-dump', '--taskmanager', TM], /RUNNABLE \(1\)\n {2}"tenant-cost.*PWNED.*\[task: .*subtask 12 of 32, attempt 0\]/],
    ['thread-dump --json', ['thread-dump', '--taskmanager', TM, '--json'], /"subtaskIndex": 12/],
  ])('%s', async (_what, args, shows) => {
    const result = await run(...args);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stderr).not.toMatch(CONTROL);
    expect(result.stdout).toMatch(shows);
  }, 90_000);

  it('--follow prints each line once as the log grows, until interrupted', async () => {
    const child = spawn(process.execPath, [FLINK_OPS_BIN, 'logs', '--jobmanager', '--follow', '--interval', '200', '--url', server.url], { env: envWithEmptyHome(dirs) });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + 45_000;
    while (!stdout.includes('line 4') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.slice(0, 4).map((l) => /line (\d+)/.exec(l)![1])).toEqual(['1', '2', '3', '4']);
    expect(new Set(lines).size).toBe(lines.length);
    expect(stdout).not.toMatch(CONTROL);
  }, 60_000);

  it('--download saves the whole file as the cluster sent it, and says so in one printable line', async () => {
    const target = path.join(dirs.make(), 'tm.log');
    const result = await run('logs', '--taskmanager', TM, '--download', target);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(target).equals(Buffer.concat([Buffer.from(LOG), Buffer.from([0xff, 0xfe, 0x0a])]))).toBe(true);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Saved TaskManager ${TM}'s log (${Buffer.byteLength(LOG) + 3} bytes) to ${target}.\n`);
  }, 60_000);

  it('--download refuses what it cannot do in one line: a folder that is missing (exit 1), a file the cluster lacks, --follow beside it (exit 2)', async () => {
    const missing = await run('logs', '--taskmanager', TM, '--download', path.join(dirs.make(), 'none', 'tm.log'));
    expect([missing.code, missing.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(missing.stderr).toMatch(/^flink-ops: Cannot write .*tm\.log: its folder does not exist\.\n$/);
    const dir = dirs.make();
    const gone = await run('logs', '--jobmanager', '--file', 'gone.log', '--download', path.join(dir, 'gone.log'));
    expect(gone.code).not.toBe(0);
    expect(gone.stderr.trim().split('\n')).toHaveLength(1);
    expect(gone.stderr).not.toMatch(CONTROL);
    expect(readdirSync(dir)).toEqual([]);
    const both = await run('logs', '--jobmanager', '--follow', '--download', path.join(dir, 'x.log'));
    expect([both.code, both.stderr.trim()]).toEqual([2, 'flink-ops: --download saves the whole file: leave out --list, --grep, --task and --follow.']);
  }, 60_000);

  it('says whose log it needs, exit 2', async () => {
    const result = await run('logs');
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('flink-ops: Say whose log: --jobmanager or --taskmanager <id>.');
  }, 60_000);
});
