import { spawn, type ChildProcess } from 'node:child_process';

const READY = /^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m;

export interface LocalEngineProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the bundled local engine in its own process (`flink-ops engine`), so a busy or crashed engine never
 * blocks or takes down the console, and the console reaches it over Flink's REST API like any cluster.
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
  const child = spawn(options.nodePath ?? process.execPath, [options.binPath, 'engine', '--port', String(options.port ?? 0), ...(options.args ?? [])], {
    // stdin stays open as a lifeline: the engine exits when it closes (see `flink-ops engine`).
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...(options.env ?? process.env), FLINK_OPS_EXIT_WITH_PARENT: '1' },
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
  return { url, stop: () => stopProcess(child) };
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
