import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The console's processes as an operator runs them, for the tests that need real processes (the CLI, the app in
 * web mode, the local engine on its own): started with `flink-ops`, read through their output, killed for real.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BIN = path.join(ROOT, 'engine/cli/flink-ops.mjs');

export interface ConsoleChild {
  child: ChildProcess;
  pid: number;
  startedAt: number;
  stdout(): string;
  stderr(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** `kill -9`. */
  kill(): Promise<void>;
}

const all = new Set<ChildProcess>();

/** Kills every process these helpers started and that still runs (a test's afterAll). */
export function killAll(): void {
  for (const child of all) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  all.clear();
}

export function spawnFlinkOps(args: string[], env: NodeJS.ProcessEnv = {}): ConsoleChild {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
  all.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      all.delete(child);
      resolve({ code, signal });
    }),
  );
  return {
    child,
    pid: child.pid!,
    startedAt: Date.now(),
    stdout: () => out,
    stderr: () => err,
    exit,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exit;
    },
  };
}

/** Runs `flink-ops …` to its end. */
export async function runFlinkOps(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawnFlinkOps(args, env);
  const { code } = await proc.exit;
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

/** Polls `read` until it matches, or fails after the deadline with what was seen. */
export async function waitFor<T>(read: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `flink-ops engine` in its own process: the cluster that outlives the console. */
export async function startEngineProcess(args: string[]): Promise<{ url: string; process: ConsoleChild }> {
  const proc = spawnFlinkOps(['engine', '--port', '0', ...args]);
  const url = await waitFor(
    () => {
      if (proc.child.exitCode !== null) throw new Error(`flink-ops engine exited: ${proc.stderr()}`);
      return /^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m.exec(proc.stdout())?.[1];
    },
    'the local engine to be ready',
  );
  return { url, process: proc };
}

/** `flink-ops app --web` without its own local engine, and a caller for its engine API. */
export async function startAppProcess(dataDir: string): Promise<{ process: ConsoleChild; call: <T>(name: string, ...args: unknown[]) => Promise<T> }> {
  const proc = spawnFlinkOps(['app', '--web', '--port', '0', '--data-dir', dataDir, '--no-local-engine']);
  const url = await waitFor(
    () => {
      if (proc.child.exitCode !== null) throw new Error(`flink-ops app exited: ${proc.stderr()}`);
      return /Flink Ops Console \(web mode\): (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(proc.stdout())?.[1];
    },
    'the app to print its URL',
  );
  const { origin, searchParams } = new URL(url);
  const token = searchParams.get('token');
  const call = async <T>(name: string, ...args: unknown[]): Promise<T> => {
    const response = await fetch(`${origin}/api/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ call: name, args }),
    });
    const body = (await response.json()) as { ok: boolean; value?: T; error?: { message: string } };
    if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
    return body.value as T;
  };
  return { process: proc, call };
}
