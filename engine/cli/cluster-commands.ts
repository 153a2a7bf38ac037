import type { Command } from 'commander';
import type { JobGraph, JobSummary } from '../contracts/engine-api.ts';
import { connect, createClient } from '../clusters/cluster-connections.ts';
import { DEFAULT_TIMEOUT_MS } from '../clusters/cluster-input.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { fetchJobGraph } from '../sampling/job-graph.ts';
import { CliError, EXIT } from './cli-error.ts';
import { openClusterStore } from './data-dir.ts';
import { formatDuration, formatTable } from './format-table.ts';

export interface ConnectionOptions {
  url: string;
  timeout: string;
  caFile?: string;
}

/** `clusters`, `jobs` and `graph`: read-only views of a cluster, for scripts and terminals. */
export function registerClusterCommands(program: Command): void {
  program
    .command('clusters')
    .description('List the clusters saved in the app')
    .option('--data-dir <dir>', 'folder of the saved cluster list (default: the app\'s own)')
    .action((options: { dataDir?: string }) => {
      const clusters = openClusterStore(options.dataDir).list();
      if (clusters.length === 0) {
        process.stdout.write('No saved clusters. Add one in the app, or use --url with `jobs` and `graph`.\n');
        return;
      }
      process.stdout.write(formatTable(['NAME', 'URL', 'AUTH'], clusters.map((c) => [c.name, c.url, c.auth.kind])));
    });

  withConnection(program.command('jobs').description('List the jobs of a cluster')).action(async (options: ConnectionOptions) => {
    const client = await attach(options);
    const jobs = await fetchJobs(client);
    process.stdout.write(
      formatTable(
        ['ID', 'STATE', 'DURATION', 'TASKS', 'NAME'],
        jobs.map((j) => [j.id, j.state, formatDuration(j.durationMs), formatTasks(j.tasks), j.name]),
      ),
    );
  });

  withConnection(program.command('graph').description('Show a job\'s graph: vertices, parallelism, busy and backpressure'))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .option('--json', 'print the graph as JSON')
    .action(async (options: ConnectionOptions & { job: string; json?: boolean }) => {
      const client = await attach(options);
      const job = resolveJob(await fetchJobs(client), options.job);
      const graph = await fetchJobGraph(client, options.url, job.id);
      process.stdout.write(options.json ? `${JSON.stringify(graph, null, 2)}\n` : formatGraph(graph));
    });
}

export function withConnection(command: Command): Command {
  return command
    .requiredOption('--url <url>', 'REST URL of the JobManager, e.g. http://127.0.0.1:8081')
    .option('--timeout <ms>', 'request timeout in ms', String(DEFAULT_TIMEOUT_MS))
    .option('--ca-file <pem>', 'extra CA certificates for https')
    .addHelpText('after', '\nCredentials: FLINK_OPS_TOKEN (bearer) or FLINK_OPS_USER + FLINK_OPS_PASSWORD (basic), from the environment.');
}

/** Connects and checks that this is a Flink REST API before doing anything else. */
export async function attach(options: ConnectionOptions): Promise<FlinkRestClient> {
  const client = clientFromEnvironment(options);
  await connect(client).check();
  return client;
}

/** A client for the URL with the credentials of the environment (FLINK_OPS_TOKEN, FLINK_OPS_USER/PASSWORD). */
export function clientFromEnvironment(options: ConnectionOptions): FlinkRestClient {
  const timeoutMs = Number(options.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new CliError(EXIT.badArguments, `--timeout must be a positive number of ms, not "${options.timeout}".`);
  const env = process.env;
  const auth = env.FLINK_OPS_TOKEN
    ? { kind: 'bearer' as const }
    : env.FLINK_OPS_USER
      ? { kind: 'basic' as const, username: env.FLINK_OPS_USER }
      : { kind: 'none' as const };
  const secret = env.FLINK_OPS_TOKEN ?? env.FLINK_OPS_PASSWORD;
  return createClient({ name: options.url, url: options.url, auth, caFile: options.caFile, timeoutMs }, secret);
}

/** An id matches exactly; a name matches the running job of that name, else its most recent run. */
export function resolveJob(jobs: JobSummary[], idOrName: string): JobSummary {
  const byId = jobs.find((j) => j.id === idOrName);
  if (byId) return byId;
  const named = jobs.filter((j) => j.name === idOrName);
  const chosen = named.find((j) => j.state === 'RUNNING') ?? named.sort((a, b) => b.startTime - a.startTime)[0];
  if (!chosen) throw new CliError(EXIT.jobNotFound, `No job with id or name "${idOrName}" on this cluster.`);
  return chosen;
}

function formatTasks(tasks: Record<string, number>): string {
  return Object.entries(tasks)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${state}:${n}`)
    .join(' ');
}

function formatGraph(graph: JobGraph): string {
  const names = new Map(graph.vertices.map((v) => [v.id, v.name]));
  const number = (n: number | null | undefined) => (n === null || n === undefined ? '-' : String(Math.round(n)));
  const vertices = formatTable(
    ['VERTEX', 'PARALLELISM', 'STATUS', 'IN/S', 'OUT/S', 'BUSY MAX', 'BACKPRESSURE', 'NAME'],
    graph.vertices.map((v) => [
      v.id,
      String(v.parallelism),
      v.status,
      number(v.recordsInPerSecond),
      number(v.recordsOutPerSecond),
      number(v.busyTimeMsPerSecond?.max),
      v.backpressureLevel ?? '-',
      v.name,
    ]),
  );
  const edges = graph.edges.map((e) => `  ${names.get(e.source)} --${e.shipStrategy}--> ${names.get(e.target)}`).join('\n');
  return `${graph.name} (${graph.jobId}) ${graph.state}\n\n${vertices}\nEdges:\n${edges}\n`;
}
