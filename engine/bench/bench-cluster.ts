import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What `flink.sh up` wrote of the test cluster (`.cache/flink/<version>/cluster.json`) that the bench reads. */
export interface BenchCluster {
  version: string;
  restUrl: string;
  jobId: string;
  jobName: string;
}

/**
 * The Flink version the bench's real-Flink cases measure: FLINK_VERSION's, else the newest one with a cluster up (as
 * `npm run flink:up` leaves it), else the newest supported — every case measures the same cluster.
 */
export function benchFlinkVersion(): string {
  if (process.env.FLINK_VERSION) return process.env.FLINK_VERSION;
  return ['2.3.0', '2.2.1', '1.20.5'].find((v) => existsSync(clusterFile(v))) ?? '2.3.0';
}

/** The test cluster of `version`, if `flink.sh up` started one. */
export function benchCluster(version = benchFlinkVersion()): BenchCluster | undefined {
  const file = clusterFile(version);
  if (!existsSync(file)) return undefined;
  return { version, ...(JSON.parse(readFileSync(file, 'utf8')) as Omit<BenchCluster, 'version'>) };
}

function clusterFile(version: string): string {
  return path.join(ROOT, '.cache/flink', version, 'cluster.json');
}
