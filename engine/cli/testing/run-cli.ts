import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `flink-ops` command as users run it. */
export const FLINK_OPS_BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'flink-ops.mjs');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  /**
   * Generous by default: a cold CLI (Node and tsx transpiling, several at once on a busy 2-core machine) can take
   * seconds to start; these tests check exit codes and messages, not speed.
   */
  timeout?: number;
  env?: NodeJS.ProcessEnv;
  maxBuffer?: number;
}

/** Runs `flink-ops args…` in its own process; never rejects: a failure is in `code` and `stderr`. */
export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [FLINK_OPS_BIN, ...args],
      { timeout: options.timeout ?? 60_000, env: options.env ?? process.env, maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The environment with HOME in an empty folder: the CLI must not find (or create) the developer's own app data. */
export function envWithEmptyHome(dirs: { make(): string }): NodeJS.ProcessEnv {
  return { ...process.env, HOME: dirs.make(), XDG_CONFIG_HOME: dirs.make() };
}
