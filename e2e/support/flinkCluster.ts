import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths';

/** What `npm run flink:up` writes about the cluster it started. */
export interface FlinkCluster {
  version: string;
  restUrl: string;
  jobId: string;
  jobName: string;
}

export function flinkVersion(): string {
  return process.env.FLINK_VERSION ?? '2.2.1';
}

/** The running test cluster, or an error that says how to start one. */
export function readFlinkCluster(version = flinkVersion()): FlinkCluster {
  const file = path.join(ROOT, '.cache/flink', version, 'cluster.json');
  if (!existsSync(file)) {
    throw new Error(
      `The flink e2e specs need a running Flink ${version} cluster, but ${path.relative(ROOT, file)} is missing. ` +
        'Run `npm run flink:up` first (set FLINK_VERSION to pick another version).',
    );
  }
  const cluster = JSON.parse(readFileSync(file, 'utf8')) as Partial<FlinkCluster>;
  for (const key of ['restUrl', 'jobId', 'jobName'] as const) {
    if (typeof cluster[key] !== 'string' || cluster[key] === '') {
      throw new Error(`${path.relative(ROOT, file)} has no "${key}": run \`npm run flink:up\` again.`);
    }
  }
  return { version, ...cluster } as FlinkCluster;
}

export interface PlanNode {
  id: string;
  parallelism: number;
  description: string;
}

/** `GET /jobs/<id>/plan`, straight from the cluster (not through the console): the test's ground truth. */
export async function fetchPlan(cluster: FlinkCluster): Promise<PlanNode[]> {
  const response = await fetch(`${cluster.restUrl}/jobs/${cluster.jobId}/plan`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET /jobs/${cluster.jobId}/plan answered ${response.status}: is the test job still running?`);
  const body = (await response.json()) as { plan: { nodes: PlanNode[] } };
  return body.plan.nodes;
}

/**
 * `GET /jobs/<id>` vertex names by id, straight from the cluster. The plan of Flink 2.x has no
 * names (only HTML descriptions), so names are checked against the job detail and linked to the plan.
 */
export async function fetchVertexNames(cluster: FlinkCluster): Promise<Map<string, string>> {
  const response = await fetch(`${cluster.restUrl}/jobs/${cluster.jobId}`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET /jobs/${cluster.jobId} answered ${response.status}: is the test job still running?`);
  const body = (await response.json()) as { vertices: Array<{ id: string; name: string }> };
  return new Map(body.vertices.map((v) => [v.id, v.name]));
}

/**
 * The operator names in a plan node's description (`Source: events<br/>+- parse<br/>`),
 * each of which the vertex name (`Source: events -> parse`) contains.
 */
export function operatorNames(description: string): string[] {
  return description
    .split(/<br\s*\/?>/i)
    .map((part) =>
      part
        .replace(/<[^>]*>/g, '')
        .replace(/^[\s+\-:|]*/, '')
        .replace(/&gt;/g, '>')
        .replace(/&lt;/g, '<')
        .replace(/&amp;/g, '&')
        .trim(),
    )
    .filter((part) => part.length > 0);
}

/** Runs `e2e/flink/flink.sh <command> --version <v> …` to the end, failing with its output. */
export function runFlinkScript(command: 'up' | 'down', version: string, extra: string[] = []): string {
  const result = spawnSync('bash', [path.join(ROOT, 'e2e/flink/flink.sh'), command, '--version', version, ...extra], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  if (result.status !== 0) throw new Error(`flink.sh ${command} failed (${result.status ?? result.signal}):\n${result.stderr}`);
  return result.stdout.trim();
}

/** The process ids of the running cluster's TaskManagers (from the run's pid files). */
export function taskManagerPids(version: string): number[] {
  const dir = path.join(ROOT, '.cache/flink', version, 'run/pid');
  return readdirSync(dir)
    .filter((f) => /taskexecutor.*\.pid$/.test(f))
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n'))
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}
