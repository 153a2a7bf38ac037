import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The synthetic job server (synthetic-job-server.ts) in a process of its own at the lowest priority, as a JobManager
 * runs on other machines: its URL once it prints it, and a stop that waits for it to exit.
 */
export async function startSyntheticJobProcess(args: Array<string | number>): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn('nice', ['-n', '19', process.execPath, '--import', 'tsx', path.join(ROOT, 'engine/bench/synthetic-job-server.ts'), ...args.map(String)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /synthetic job server: (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the synthetic job server exited (${code}): ${out}`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode != null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
