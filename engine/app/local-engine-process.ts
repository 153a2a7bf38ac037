import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/** How the app hands its engine the per-launch token: the environment, which (unlike argv) other users cannot read. */
export const ENGINE_TOKEN_ENV = 'FLINK_OPS_ENGINE_TOKEN';

const READY = /^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m;

export interface LocalEngineProcess {
  url: string;
  /** The per-launch bearer token the engine requires; kept in memory, never written anywhere. */
  token: string;
  stop(): Promise<void>;
}

/**
 * Starts the bundled local engine in its own process (`flink-ops engine`), so a busy or crashed engine never
 * blocks or takes down the console, and the console reaches it over Flink's REST API like any cluster. It gets a
 * fresh random token through its environment: only the console (which sends it as the cluster's bearer auth) can
 * drive it, not another local process or a web page.
 */
export async function startLocalEngineProcess(options: {
  /** engine/cli/flink-ops.mjs */
  binPath: string;
  /** Extra `flink-ops engine` options, e.g. `--scenario hot-tenant`. */
  args?: string[];
  /** Its REST port on 127.0.0.1. @default 0 (any free port) */
  port?: number;
  /** A Node binary; Electron passes its own with ELECTRON_RUN_AS_NODE=1. @default process.execPath */
  nodePath?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<LocalEngineProcess> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const token = randomBytes(24).toString('base64url');
  const child = spawn(options.nodePath ?? process.execPath, [options.binPath, 'engine', '--port', String(options.port ?? 0), ...(options.args ?? [])], {
    // stdin stays open as a lifeline: the engine exits when it closes (see `flink-ops engine`).
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...(options.env ?? process.env), FLINK_OPS_EXIT_WITH_PARENT: '1', [ENGINE_TOKEN_ENV]: token },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not report ready within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      reject(new Error(`The local engine ${why}. ${output.trim().split('\n').slice(-3).join(' ')}`.trim()));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => fail(`exited with code ${code} before it was ready`));
    child.once('error', (error) => fail(`could not start: ${error.message}`));
  });
  child.removeAllListeners('exit');
  // Keep draining its output so a chatty engine can never block on a full pipe.
  child.stdout.resume();
  child.stderr.resume();
  return { url, token, stop: () => stopProcess(child) };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The app's local engine checkpoints every 10 s, so the Checkpoints tab has data from the first minute. */
export const LOCAL_ENGINE_CHECKPOINT_INTERVAL_MS = 10_000;

/**
 * `flink-ops engine` options of the app's own local engine: the scenario, and checkpoints every 10 s into a folder
 * of this process under `<data folder>/local-engine/` (the engine's jobs start afresh at every launch, so folders
 * left by launches that are gone are removed; a console running beside this one keeps its own). Savepoints may go
 * anywhere under `<data folder>/local-engine/` (e.g. `savepoints/`, which outlives the launch), nowhere else.
 */
export function localEngineArgs(dataDir: string, scenario: string): { args: string[]; checkpointDir: string } {
  const parent = path.join(dataDir, 'local-engine');
  if (existsSync(parent)) {
    for (const entry of readdirSync(parent)) {
      const pid = Number(/^checkpoints-(\d+)$/.exec(entry)?.[1]);
      if (pid && !isAlive(pid)) rmSync(path.join(parent, entry), { recursive: true, force: true });
    }
  }
  const checkpointDir = path.join(parent, `checkpoints-${process.pid}`);
  return {
    args: ['--scenario', scenario, '--checkpoint-dir', checkpointDir, '--checkpoint-interval', String(LOCAL_ENGINE_CHECKPOINT_INTERVAL_MS), '--allow-dir', parent],
    checkpointDir,
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
