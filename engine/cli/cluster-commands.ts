import type { Command } from 'commander';
import type { ClusterCheck } from '../contracts/clusters.ts';
import type { JobExceptionInfo, JobExceptions, JobGraph, JobSummary } from '../contracts/jobs.ts';
import { connect, createClient } from '../clusters/cluster-connections.ts';
import { DEFAULT_TIMEOUT_MS } from '../clusters/cluster-input.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { fetchJobExceptions } from '../sampling/job-exceptions.ts';
import { fetchJobGraph, hasRates } from '../sampling/job-graph.ts';
import { CliError, EXIT } from './cli-error.ts';
import { openClusterStore } from './data-dir.ts';
import { formatDuration, formatTable } from './format-table.ts';
import { printable, printableLines, terminalJson } from './terminal-text.ts';

export interface ConnectionOptions {
  url: string;
  timeout: string;
  caFile?: string;
}

/** `--json`: the data as one JSON document on stdout, for scripts. */
function printJson(value: unknown): void {
  process.stdout.write(terminalJson(value));
}

/** `clusters`, `jobs`, `graph` and `exceptions`: read-only views of a cluster, for scripts and terminals. */
export function registerClusterCommands(program: Command): void {
  program
    .command('clusters')
    .description('List the clusters saved in the app')
    .option('--data-dir <dir>', 'folder of the saved cluster list (default: the app\'s own)')
    .option('--json', 'print the clusters as JSON (never with secrets)')
    .action((options: { dataDir?: string; json?: boolean }) => {
      const clusters = openClusterStore(options.dataDir).list();
      if (options.json) {
        printJson(clusters.map((c) => ({ id: c.id, name: c.name, url: c.url, auth: c.auth, caFile: c.caFile ?? null, timeoutMs: c.timeoutMs })));
        return;
      }
      if (clusters.length === 0) {
        process.stdout.write('No saved clusters. Add one in the app, or use --url with `jobs` and `graph`.\n');
        return;
      }
      process.stdout.write(formatTable(['NAME', 'URL', 'AUTH'], clusters.map((c) => [c.name, c.url, c.auth.kind])));
    });

  withConnection(program.command('jobs').description('List the jobs of a cluster'))
    .option('--json', 'print the jobs as JSON')
    .action(async (options: ConnectionOptions & { json?: boolean }) => {
      const client = await attach(options);
      const jobs = await fetchJobs(client);
      if (options.json) {
        printJson(jobs);
        return;
      }
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
      if (options.json) printJson(graph);
      else process.stdout.write(printableLines(formatGraph(graph)));
    });

  withConnection(program.command('exceptions').description('Show a job\'s exception history: why it failed or restarted, newest first'))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .option('--max <n>', 'root exceptions to fetch (Flink\'s maxExceptions; default 20)')
    .option('--stack', 'print each stack trace in full (default: the first lines)')
    .option('--json', 'print the history as JSON')
    .action(async (options: ConnectionOptions & { job: string; max?: string; stack?: boolean; json?: boolean }) => {
      const max = options.max === undefined ? undefined : Number(options.max);
      if (max !== undefined && !(Number.isInteger(max) && max > 0)) throw new CliError(EXIT.badArguments, `--max must be a positive whole number, not "${options.max}".`);
      const client = await attach(options);
      const job = resolveJob(await fetchJobs(client), options.job);
      const exceptions = await fetchJobExceptions(client, options.url, job.id, max);
      if (options.json) printJson(exceptions);
      else process.stdout.write(printableLines(formatExceptions(job, exceptions, options.stack === true)));
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
  return (await attachChecked(options)).client;
}

/** `attach`, keeping what the check found (version, metrics fetch interval). */
export async function attachChecked(options: ConnectionOptions): Promise<{ client: FlinkRestClient; check: ClusterCheck }> {
  const client = clientFromEnvironment(options);
  const check = await connect(client).check();
  return { client, check };
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
    ['VERTEX', 'PARALLELISM', 'STATUS', 'IN rec/s', 'OUT rec/s', 'BUSY MAX ms/s', 'BUSY SKEW max/avg', 'DATA SKEW %', 'BACKPRESSURE', 'NAME'],
    graph.vertices.map((v) => [
      v.id,
      String(v.parallelism),
      v.status,
      number(v.recordsInPerSecond),
      number(v.recordsOutPerSecond),
      number(v.busyTimeMsPerSecond?.max),
      v.busySkew === null ? '-' : `${v.busySkew.toFixed(1)}x`,
      v.dataSkewPercent === null ? '-' : `${v.dataSkewPercent.toFixed(1)}%`,
      v.backpressureLevel ?? '-',
      v.name,
    ]),
  );
  const edges = graph.edges.map((e) => printable(`  ${names.get(e.source)} --${e.shipStrategy}--> ${names.get(e.target)}`)).join('\n');
  // A job that does not run has no rates: say so where the numbers would be, so nobody reads "-" as zero traffic.
  const note = hasRates(graph.state)
    ? ''
    : `The job is ${printable(graph.state)}${graph.endTime !== null ? ` since ${formatClock(graph.endTime)}` : ''}: no rates (only a RUNNING job has them).\n`;
  const latest = hasRates(graph.state) ? `Flink's latest figures (the JobManager's metrics at ${formatClock(graph.fetchedAt)}), not a window.\n` : '';
  return `${printable(`${graph.name} (${graph.jobId}) ${graph.state}`)}\n${note}${latest}\n${vertices}\nEdges:\n${edges}\n`;
}

/** Local wall-clock time with seconds: `16:08:01`, or the date too when not today. */
function formatClock(epochMs: number): string {
  const at = new Date(epochMs);
  const time = at.toLocaleTimeString('en-GB', { hour12: false });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toISOString().slice(0, 10)} ${time}`;
}

/** Newest first; each entry its time, what failed where, the message, and the stack trace folded to a few lines. */
function formatExceptions(job: JobSummary, exceptions: JobExceptions, fullStack: boolean): string {
  const header = `${job.name} (${job.id}) ${job.state}`;
  if (exceptions.entries.length === 0) return `${header}\nNo exceptions: the job has not failed or restarted.\n`;
  const stack = (info: JobExceptionInfo, indent: string) => {
    const lines = info.stackTrace.trimEnd().split('\n');
    const shown = fullStack ? lines : lines.slice(0, 4);
    const rest = lines.length - shown.length;
    return [...shown, ...(rest > 0 ? [`... ${rest} more lines (--stack for all)`] : [])].map((l) => `${indent}${l.replace(/^\t/, '  ')}`).join('\n');
  };
  const where = (info: JobExceptionInfo) => {
    const task = info.taskName === null ? 'global failure (no task)' : `task ${info.taskName}`;
    const tm = info.taskManagerId !== null || info.endpoint !== null ? ` on TaskManager ${[info.taskManagerId, info.endpoint].filter(Boolean).join(' ')}` : '';
    return `${task}${tm}`;
  };
  const blocks = exceptions.entries.map((entry, i) => {
    const lines = [
      `${i === 0 ? 'ROOT EXCEPTION' : `#${i + 1}`}  ${formatClock(entry.timestamp)}  ${entry.exceptionName}`,
      `  ${entry.message || '(no message)'}`,
      `  ${where(entry)}`,
      stack(entry, '    '),
    ];
    if (entry.concurrent.length > 0) {
      lines.push(`  ${entry.concurrent.length} concurrent exception${entry.concurrent.length === 1 ? '' : 's'}:`);
      for (const c of entry.concurrent) lines.push(`    ${formatClock(c.timestamp)}  ${c.exceptionName}: ${c.message || '(no message)'}  (${where(c)})`);
    }
    return lines.join('\n');
  });
  const truncated = exceptions.truncated ? '\n(more exceptions on the cluster: raise --max)\n' : '\n';
  // Messages and stack traces are the cluster's text: their lines stay lines, made printable when written.
  return `${printable(header)}\n${exceptions.entries.length} exception${exceptions.entries.length === 1 ? '' : 's'}, newest first\n\n${blocks.join('\n\n')}\n${truncated}`;
}
