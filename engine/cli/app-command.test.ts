import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { FLINK_OPS_BIN, runCli } from './testing/run-cli.ts';

/** `flink-ops app --web`: the banner with both URLs, and the local engine on the port asked for. */
const dirs = tempDirs('flink-ops-app-');
const children: ChildProcess[] = [];
/** Stops the app (which stops its engine) and waits for it: no process outlives the test. */
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(force);
  }
});
afterAll(() => dirs.removeAll());

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('flink-ops app --web', { timeout: 90_000 }, () => {
  it('--engine-port: the local engine answers there, and the banner prints it under the console\'s URL', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [FLINK_OPS_BIN, 'app', '--web', '--port', '0', '--engine-port', String(port), '--data-dir', dirs.make()], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 80_000;
    while (!/Local engine/.test(output) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    expect(output).toMatch(
      new RegExp(`^Flink Ops Console \\(web mode\\): http://127\\.0\\.0\\.1:\\d+/\\?token=\\S+\\nLocal engine \\(scenario hot-tenant\\): http://127\\.0\\.0\\.1:${port}\\n  Flink's REST API, e\\.g\\. FLINK_OPS_TOKEN=<the token below> npx flink-ops jobs --url http://127\\.0\\.0\\.1:${port}\\n`, 'm'),
    );
    const token = /^Local engine token \(.*\): (\S+)$/m.exec(output)?.[1];
    const config = (await (await fetch(`http://127.0.0.1:${port}/config`, { headers: { authorization: `Bearer ${token}` } })).json()) as { 'flink-revision': string };
    expect(config['flink-revision']).toMatch(/^flink-ops-local-engine \d+\.\d+\.\d+ (@ \d{4}-\d\d-\d\dT|\(not built)/);
    expect(config['flink-revision']).not.toContain('1970');
  });

  it('a bad --engine-port is a bad argument', async () => {
    const result = await runCli(['app', '--web', '--engine-port', 'eighty', '--data-dir', dirs.make()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('flink-ops: --engine-port must be 0-65535, not "eighty".\n');
  });
});
