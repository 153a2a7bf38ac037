import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm start`'s app (web mode) and its local engine run the compiled CLI (dist/cli), not TypeScript through tsx: both
 * start under a loader hook that makes tsx impossible to load (engine/cli/testing/without-tsx.mjs, in NODE_OPTIONS so
 * the local engine's process gets it too), as where only the runtime dependencies are installed. A stale or missing
 * build would fall back to the sources through tsx and fail here. Needs `npm run build` first (npm run test:package).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const WITHOUT_TSX = path.join(ROOT, 'engine/cli/testing/without-tsx.mjs');
const ENV = { PATH: process.env.PATH ?? '', NODE_OPTIONS: `--import=${WITHOUT_TSX}`, NO_COLOR: '1' };
const URL_LINE = /^Flink Ops Console \(web mode\): (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)\s*$/m;
const LOCAL_ENGINE_LINE = /^Local engine \(scenario [\w-]+\): (http:\/\/127\.0\.0\.1:\d+)\s*$/m;
const LOCAL_ENGINE_TOKEN_LINE = /^Local engine token \(.*\): (\S+)\s*$/m;

let dataDir: string | undefined;
let stopApp: (() => Promise<void>) | undefined;

beforeAll(() => {
  const inputs = path.join(ROOT, 'dist/cli/inputs.json');
  if (!existsSync(inputs)) throw new Error('dist/cli is missing: run `npm run build` first (npm run test:package does).');
  const { builtAt, sources } = JSON.parse(readFileSync(inputs, 'utf8')) as { builtAt: number; sources: string[] };
  const newer = sources.filter((s) => statSync(path.join(ROOT, s)).mtimeMs > builtAt);
  if (newer.length > 0) throw new Error(`dist/cli is older than ${newer[0]}: run \`npm run build\` first.`);
});

afterEach(async () => {
  await stopApp?.();
  stopApp = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

describe('the compiled engine', () => {
  it('is what the hook leaves: tsx itself cannot be loaded under it', () => {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('tsx/esm/api')"], { cwd: ROOT, env: ENV, encoding: 'utf8' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('tsx is not installed here');
  });

  it("npm start's app and its local engine start without tsx, and answer", async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'flink-ops-compiled-'));
    const child = spawn(process.execPath, ['engine/cli/flink-ops.mjs', 'app', '--web', '--port', '0', '--data-dir', dataDir], {
      cwd: ROOT,
      env: ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stopApp = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    };
    let out = '';
    const banner = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${out}`)), 60_000);
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (URL_LINE.test(out) && LOCAL_ENGINE_TOKEN_LINE.test(out)) {
          clearTimeout(timer);
          resolve(out);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the app exited (${code}) before its banner:\n${out}`));
      });
    });
    const consoleUrl = new URL(URL_LINE.exec(banner)![1]);
    const page = await fetch(consoleUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const engineUrl = LOCAL_ENGINE_LINE.exec(banner)![1];
    const overview = await fetch(`${engineUrl}/overview`, { headers: { Authorization: `Bearer ${LOCAL_ENGINE_TOKEN_LINE.exec(banner)![1]}` } });
    // hot-tenant.yaml, the app's default scenario, runs 4 TaskManagers.
    expect(((await overview.json()) as { taskmanagers: number }).taskmanagers).toBe(4);
    expect(out).not.toMatch(/tsx is not installed here/);
  });
});
