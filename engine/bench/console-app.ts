import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ConsoleApp {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** `flink-ops app --web` with its own data directory, as the e2e tests start it (e2e/support/console.ts). */
export async function startConsole(env: NodeJS.ProcessEnv = {}): Promise<ConsoleApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-bench-'));
  const child: ChildProcess = spawn(process.execPath, ['engine/cli/flink-ops.mjs', 'app', '--web', '--port', '0', '--data-dir', dataDir, '--no-local-engine'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode == null && child.signalCode == null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the console printed no URL:\n${out}`)), 60_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the console exited (${code}):\n${out}`)));
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { url, pid: child.pid!, stop };
}

/** Adds a cluster through the form, as a user does; returns its id. */
export async function addCluster(browser: Browser, appUrl: string, clusterUrl: string, name = 'synthetic'): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.goto(appUrl);
    await page.getByRole('link', { name: 'Add cluster' }).first().click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('REST URL').fill(clusterUrl);
    await page.getByRole('button', { name: /^Check and save/ }).click();
    // Saving a new cluster opens its page (an edit shows an "Open cluster" link instead).
    await page.waitForURL(/#\/clusters\/(?!new$)[^/]+$/);
    return decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
  } finally {
    await page.close();
  }
}
