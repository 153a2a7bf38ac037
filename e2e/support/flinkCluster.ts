import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths';

/** What `npm run flink:up` writes about the cluster it started. */
export interface FlinkCluster {
  version: string;
  restUrl: string;
  jobId: string;
  jobName: string;
  /** The uploaded test jar (`POST /jars/:jarid/run`). */
  jarId?: string | null;
  /** How the JobManager schedules (`flink.sh up --scheduler`): adaptive rescales in place. */
  scheduler?: 'adaptive' | 'default';
  savepointDir?: string;
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
