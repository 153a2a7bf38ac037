import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConsolePage } from '../pages/ConsolePage';
import { ROOT } from './paths';

/** A running `flink-ops app --web` with its own fresh data directory. */
export interface ConsoleProcess {
  /** The URL the console printed, with its per-launch token. */
  url: string;
  origin: string;
  /** The bundled local engine's REST URL, when the console was started with it. */
  localEngineUrl?: string;
  /** Its per-launch token (the engine refuses requests without it), as the console printed it. */
  localEngineToken?: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

const URL_LINE = /^Flink Ops Console \(web mode\): (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)\s*$/m;
// The scenario is a name or the path of a scenario file (`--engine-scenario FILE.yaml`).
const LOCAL_ENGINE_LINE = /^Local engine \(scenario [^)]+\): (http:\/\/127\.0\.0\.1:\d+)\s*$/m;
const LOCAL_ENGINE_TOKEN_LINE = /^Local engine token \(.*\): (\S+)\s*$/m;
const START_DEADLINE_MS = 45_000;

/**
 * Starts the console and waits for its URL line on stdout, or fails with what it printed.
 * The bundled local engine is started only where a test asks for it: it is a real runtime and costs CPU.
 */
export async function startConsole(options: { localEngine?: boolean; scenario?: string } = {}): Promise<ConsoleProcess> {
  if (!existsSync(path.join(ROOT, 'renderer/dist/index.html'))) {
    throw new Error('The renderer is not built: run `npx vite build --config renderer/vite.config.ts` (or `npm run build`) first.');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flink-ops-e2e-'));
  const child = spawn(
    process.execPath,
    ['engine/cli/flink-ops.mjs', 'app', '--web', '--port', '0', '--data-dir', dataDir, ...(options.localEngine ? [] : ['--no-local-engine']), ...(options.localEngine && options.scenario ? ['--engine-scenario', options.scenario] : [])],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const output = (): string => `--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
  const stop = async (): Promise<void> => {
    await terminate(child);
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`The console printed no URL line within ${START_DEADLINE_MS / 1000}s.\n${output()}`)),
        START_DEADLINE_MS,
      );
      const onData = (): void => {
        const match = URL_LINE.exec(stdout);
        // With the local engine, its line belongs to the same banner: wait for both.
        if (match && (!options.localEngine || LOCAL_ENGINE_LINE.test(stdout))) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout?.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`The console exited (code ${code}, signal ${signal}) before printing its URL.\n${output()}`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return {
      url,
      origin: new URL(url).origin,
      localEngineUrl: LOCAL_ENGINE_LINE.exec(stdout)?.[1],
      localEngineToken: LOCAL_ENGINE_TOKEN_LINE.exec(stdout)?.[1],
      dataDir,
      output,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode != null || child.signalCode != null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5_000));
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Problems the page itself reports: uncaught errors, CSP refusals and React Flow misuse warnings fail the test. */
function watchPage(page: Page): () => string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(text)) problems.push(`CSP: ${text}`);
    if (/\[React Flow\]/.test(text)) problems.push(`React Flow: ${text}`);
  });
  return () => problems;
}

export const test = base.extend<{ withLocalEngine: boolean; localEngineScenario: string | null; consoleProcess: ConsoleProcess; app: ConsolePage }>({
  /** `test.use({ withLocalEngine: true })` in specs that need the bundled local engine. */
  withLocalEngine: [false, { option: true }],
  /** The local engine's scenario (`--engine-scenario`); null: the app's default (hot-tenant). */
  localEngineScenario: [null, { option: true }],
  consoleProcess: async ({ withLocalEngine, localEngineScenario }, use, testInfo) => {
    const proc = await startConsole({ localEngine: withLocalEngine, scenario: localEngineScenario ?? undefined });
    try {
      await use(proc);
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('console-output', { body: proc.output(), contentType: 'text/plain' });
      }
      await proc.stop();
    }
  },
  app: async ({ page, consoleProcess }, use) => {
    const problems = watchPage(page);
    const app = new ConsolePage(page);
    await page.goto(consoleProcess.url);
    await app.expectReady();
    await use(app);
    expect(problems(), 'the page reported errors (uncaught exceptions or CSP violations)').toEqual([]);
  },
});

/** A REST call to the console's local engine, with its token, as curl or the CLI would make it. */
export async function engineJson<T>(proc: ConsoleProcess, path: string): Promise<T> {
  const response = await fetch(`${proc.localEngineUrl}${path}`, { headers: { authorization: `Bearer ${proc.localEngineToken}` } });
  if (!response.ok) throw new Error(`GET ${path} on the local engine answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

export { expect };
