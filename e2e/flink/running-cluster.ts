import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RunningCluster {
  version: string;
  restUrl: string;
  jobId: string;
  jobName: string;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The cluster `npm run flink:up` started; a clear failure when there is none. */
export function runningCluster(version = process.env.FLINK_VERSION ?? '2.2.1'): RunningCluster {
  const file = path.join(ROOT, `.cache/flink/${version}/cluster.json`);
  if (!existsSync(file)) {
    throw new Error(`No Flink ${version} cluster is up (${file} is missing): run \`npm run flink:up -- --version ${version}\` first.`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as RunningCluster;
}

/** Polls until `probe` returns a value, or fails with the last reason after the deadline. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
