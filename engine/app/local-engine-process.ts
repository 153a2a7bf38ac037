import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/flink-ops.mjs');
const READY = /^Local engine: (http:\/\/127\.0\.0\.1:\d+)\s*$/m;

export interface LocalEngineProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the bundled local engine in its own process (`flink-ops engine`), so a busy or crashed engine never
 * blocks or takes down the console, and the console reaches it over Flink's REST API like any cluster.
 */
export async function startLocalEngineProcess(args: string[], timeoutMs = 30_000): Promise<LocalEngineProcess> {
  const child = spawn(process.execPath, [BIN, 'engine', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
