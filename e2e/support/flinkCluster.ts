import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
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
  /**
   * `flink.sh up --prometheus`: the PrometheusReporter endpoints (127.0.0.1:port) of the JobManager and each
   * TaskManager (by its resource id); `targets` lists them all, for a scrape config.
   */
  prometheus?: { targets: string[]; jobManager: string; taskManagers: Record<string, string> };
}

export function flinkVersion(): string {
  return process.env.FLINK_VERSION ?? '2.3.0';
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

/** `GET <path>` straight from the cluster (not through the console), as JSON: a test's ground truth. */
export async function getFromFlink<T>(cluster: Pick<FlinkCluster, 'restUrl'>, path: string): Promise<T> {
  const response = await fetch(`${cluster.restUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return (await response.json()) as T;
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

/**
 * The process of a TaskManager that runs a subtask of the job: its id (`127.0.0.1:<rpc port>-<hex>`) names the port
 * it listens on, and /proc says which process owns that socket. Killing any TaskManager would not do: the scheduler
 * may have put every subtask on the other one.
 */
export async function taskManagerPidRunning(cluster: FlinkCluster): Promise<number> {
  const get = async <T>(p: string): Promise<T> => (await (await fetch(`${cluster.restUrl}${p}`, { signal: AbortSignal.timeout(10_000) })).json()) as T;
  const job = await get<{ vertices: Array<{ id: string }> }>(`/jobs/${cluster.jobId}`);
  const vertex = await get<{ subtasks: Array<{ 'taskmanager-id'?: string }> }>(`/jobs/${cluster.jobId}/vertices/${job.vertices[0].id}`);
  const id = vertex.subtasks.map((s) => s['taskmanager-id']).find(Boolean);
  const port = Number(/:(\d+)-/.exec(id ?? '')?.[1]);
  if (!port) throw new Error(`No TaskManager id with a port in the job's subtasks (${id}).`);
  return pidListeningOn(port);
}

/** The pid owning the socket listening on a loopback TCP port (Linux /proc). */
function pidListeningOn(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT; state 0A is LISTEN; column 9 the socket's inode.
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (inodes.has(/^socket:\[(\d+)\]$/.exec(link)?.[1] ?? '')) return Number(pid);
      } catch {
        // the fd closed meanwhile
      }
    }
  }
  throw new Error(`No process listens on 127.0.0.1:${port}.`);
}
