import { createInterface } from 'node:readline/promises';
import { Option, type Command } from 'commander';
import type { ResubmitPlan } from '../contracts/job-shape.ts';
import type { HotKeyLoad, JarProgram, JournalEntry, OperationRequest, OperationState } from '../contracts/operations.ts';
import type { RescalePlan } from '../contracts/rescale.ts';
import { checkFlinkCluster } from '../clusters/cluster-check.ts';
import { DEFAULT_TIMEOUT_MS } from '../clusters/cluster-input.ts';
import { parseClusterUrl } from '../flink-rest/client.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { describeChanges, matchVertices } from '../operations/job-shape.ts';
import { exportJournal } from '../operations/journal-export.ts';
import { publicEntry, type StoredJournalEntry } from '../operations/journal.ts';
import { newTriggerId, Operations, type OperationsCluster } from '../operations/operations.ts';
import { fetchApplication } from '../applications/cluster-applications.ts';
import { cancelApplicationImpact } from '../contracts/application-cancel-impact.ts';
import { OPERATION_KINDS } from '../contracts/operations.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { resolveApplication } from './application-commands.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attach, clientFromEnvironment, resolveJob, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { openClusterStore } from './data-dir.ts';
import { openHistoryStore } from './open-history-store.ts';
import { formatTable } from './format-table.ts';
import { escapedForTerminal, printable, printableLines, terminalJson } from './terminal-text.ts';

/**
 * `savepoint`, `stop`, `cancel`, `rescale`, `resubmit` and `journal`: the operations from a terminal, with the same
 * journal as the app (the history store in the data folder). Each invocation first settles the operations an
 * earlier process left open. They wait for the outcome (`--no-wait` prints the trigger id once the cluster took
 * it), print the savepoint path or the new job id on stdout, and a failure on stderr with a non-zero exit.
 */

export interface CommonOptions extends ConnectionOptions {
  dataDir?: string;
  wait: boolean;
  maxWait?: string;
  yes?: boolean;
}

/** How long a starting CLI waits for the operations it resumes before it gets on with its own command. */
const RESUME_WAIT_MS = 60_000;

export function positiveInteger(flag: string) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || n < 1) throw new CliError(EXIT.badArguments, `${flag} must be a whole number of at least 1, not "${raw}".`);
    return n;
  };
}

export function withOperation(command: Command): Command {
  return withConnection(command)
    .option('--data-dir <dir>', 'the app\'s data folder, where the journal is (default: the app\'s own)')
    .option('--no-wait', 'return the trigger id once the cluster has taken the operation')
    .option('--max-wait <ms>', 'stop waiting after this long (the journal keeps tracking the operation)');
}

/** The CLI's side of the operations: its clusters are URLs (named after a saved cluster when one has that URL). */
export class CliOperations {
  readonly history: HistoryStore;
  readonly operations: Operations;

  constructor(private readonly options: CommonOptions) {
    this.history = openHistoryStore(options.dataDir);
    const saved = () => {
      try {
        return openClusterStore(options.dataDir).list();
      } catch {
        return [];
      }
    };
    const byUrl = (url: string, id?: string, name?: string): OperationsCluster => {
      const client = clientFromEnvironment({ url, timeout: options.timeout ?? String(DEFAULT_TIMEOUT_MS), caFile: options.caFile });
      const match = saved().find((c) => c.url === client.baseUrl);
      let interval: Promise<number> | undefined;
      return {
        id: id ?? match?.id ?? client.baseUrl,
        name: name ?? match?.name ?? client.baseUrl,
        url: client.baseUrl,
        client,
        metricsFetchIntervalMs: () => (interval ??= checkFlinkCluster(client).then((c) => c.metricsFetchIntervalMs)),
      };
    };
    this.operations = new Operations({
      history: this.history,
      origin: 'cli',
      cluster: (clusterId) => byUrl(clusterId),
      clusterOfEntry: (entry) => {
        try {
          const match = saved().find((c) => c.id === entry.clusterId);
          return byUrl(match?.url ?? entry.clusterUrl, entry.clusterId, entry.clusterName);
        } catch {
          return undefined;
        }
      },
    });
  }

  /** Every invocation settles what earlier processes left open (a killed `flink-ops savepoint`, a closed app). */
  async resume(): Promise<StoredJournalEntry[]> {
    return this.operations.resumeOrphans({ maxWaitMs: RESUME_WAIT_MS });
  }

  close(): Promise<void> {
    this.operations.close();
    return this.history.close();
  }
}

export async function withCli<T>(options: CommonOptions, run: (cli: CliOperations) => Promise<T>): Promise<T> {
  const cli = new CliOperations(options);
  try {
    await cli.resume();
    return await run(cli);
  } finally {
    await cli.close();
  }
}

async function jobIdOf(options: ConnectionOptions & { job: string }): Promise<string> {
  const client = await attach(options);
  return resolveJob(await fetchJobs(client), options.job).id;
}

/** Operations that discard state are confirmed: `--yes`, or typed at a terminal. */
export async function confirm(what: string, options: { yes?: boolean }): Promise<void> {
  if (options.yes) return;
  if (!process.stdin.isTTY) throw new CliError(EXIT.badArguments, `${what} Pass --yes to confirm (stdin is not a terminal).`);
  // The job id came from the cluster: the prompt goes to the terminal, so through the filter too.
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${printable(what)} Type "yes" to go on: `);
    if (answer.trim().toLowerCase() !== 'yes') throw new CliError(EXIT.failure, 'Not confirmed: nothing was done.');
  } finally {
    rl.close();
  }
}

function maxWait(options: CommonOptions): number | undefined {
  if (options.maxWait === undefined) return undefined;
  return positiveInteger('--max-wait')(options.maxWait);
}

const FAILED_STATES: OperationState[] = ['failed', 'unknown', 'not-started'];

/** Starts, waits (unless --no-wait), and prints: the result on stdout, a failure on stderr with exit code 1. */
export async function runOperation(cli: CliOperations, request: OperationRequest, options: CommonOptions, result: (e: JournalEntry) => string): Promise<void> {
  const { entry, done } = await cli.operations.start(request, { stopWhenAccepted: !options.wait, maxWaitMs: maxWait(options) });
  if (entry.state === 'failed') throw new CliError(EXIT.failure, entry.failure ?? 'The operation failed.');
  const of = entry.params.applicationId ? `application ${entry.params.applicationId}` : `job ${entry.jobId ?? '-'}`;
  process.stderr.write(`${printable(`${entry.kind} of ${of} started (trigger id ${entry.id})`)}${options.wait ? '; waiting for the outcome' : ''}.\n`);
  const outcome = publicEntry(await done);
  if (FAILED_STATES.includes(outcome.state)) throw new CliError(EXIT.failure, outcome.failure ?? `The ${outcome.kind} ended ${outcome.state}.`);
  if (!options.wait) {
    process.stdout.write(`${printable(outcome.id)}\n`);
    return;
  }
  if (outcome.state === 'pending' || outcome.state === 'in-progress') {
    throw new CliError(EXIT.failure, `${outcome.progress ?? 'Still in progress.'} Follow it with \`flink-ops journal --job ${outcome.jobId ?? ''}\` (trigger id ${outcome.id}).`);
  }
  process.stdout.write(`${printable(result(outcome))}\n`);
}

function parseHotKeys(values: string[] | undefined): HotKeyLoad[] {
  return (values ?? []).map((raw) => {
    const at = raw.lastIndexOf('=');
    const rate = Number(raw.slice(at + 1));
    if (at <= 0 || !Number.isFinite(rate) || rate < 0) throw new CliError(EXIT.badArguments, `--hot-key takes key=records-per-second, e.g. acme=400, not "${raw}".`);
    return { key: raw.slice(0, at), recordsPerSecond: rate };
  });
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerOperationCommands(program: Command): void {
  withOperation(program.command('savepoint').description('Take a savepoint of a running job; prints its path'))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .option('--target-dir <dir>', 'where the savepoint goes (default: the cluster\'s savepoint folder)')
    .addOption(new Option('--format <format>', 'savepoint format').choices(['canonical', 'native']).default('canonical'))
    .action(async (options: CommonOptions & { job: string; targetDir?: string; format: 'canonical' | 'native' }) => {
      await withCli(options, async (cli) => {
        const jobId = await jobIdOf(options);
        await runOperation(
          cli,
          { kind: 'savepoint', clusterId: parseClusterUrl(options.url), jobId, triggerId: newTriggerId(), targetDirectory: options.targetDir, format: options.format },
          options,
          (e) => e.resultPath ?? '',
        );
      });
    });

  withOperation(program.command('stop').description('Stop a job with a savepoint; prints the savepoint path'))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .option('--drain', 'advance the watermark to the end and fire every window first: only when the job will not be resumed')
    .option('--target-dir <dir>', 'where the savepoint goes (default: the cluster\'s savepoint folder)')
    .addOption(new Option('--format <format>', 'savepoint format').choices(['canonical', 'native']).default('canonical'))
    .option('--yes', 'confirm --drain without asking')
    .action(async (options: CommonOptions & { job: string; drain?: boolean; targetDir?: string; format: 'canonical' | 'native' }) => {
      await withCli(options, async (cli) => {
        const jobId = await jobIdOf(options);
        if (options.drain) {
          await confirm(`Stop job ${jobId} with drain: every event-time window fires now, as if the input had ended; resuming from this savepoint would count those windows again.`, options);
        }
        await runOperation(
          cli,
          { kind: 'stop', clusterId: parseClusterUrl(options.url), jobId, triggerId: newTriggerId(), drain: options.drain === true, targetDirectory: options.targetDir, format: options.format },
          options,
          (e) => e.resultPath ?? '',
        );
      });
    });

  withOperation(program.command('cancel').description('Cancel a job (no savepoint: state since the last checkpoint is lost)'))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .option('--yes', 'confirm without asking')
    .action(async (options: CommonOptions & { job: string }) => {
      await withCli(options, async (cli) => {
        const jobId = await jobIdOf(options);
        await confirm(`Cancel job ${jobId}: it stops without a savepoint, and its state since the last completed checkpoint is lost.`, options);
        await runOperation(cli, { kind: 'cancel', clusterId: parseClusterUrl(options.url), jobId, triggerId: newTriggerId() }, options, (e) => `${e.jobId} CANCELED`);
      });
    });

  withOperation(program.command('cancel-application').description('Cancel an application (Flink 2.3+) and with it every job of it (no savepoint: their state since the last checkpoint is lost)'))
    .requiredOption('--application <id|name>', 'application id (32 hex) or the name of a running one (see `flink-ops applications`)')
    .option('--yes', 'confirm without asking')
    .action(async (options: CommonOptions & { application: string }) => {
      await withCli(options, async (cli) => {
        const client = await attach(options);
        const clusterId = parseClusterUrl(options.url);
        const app = await fetchApplication(client, clusterId, (await resolveApplication(client, options.application)).id);
        if (app.endTime !== null) throw new CliError(EXIT.failure, printable(`Not sent: application ${app.id} is ${app.state}, so there is nothing to cancel.`));
        await confirm(cancelApplicationImpact(app), options);
        await runOperation(cli, { kind: 'cancel-application', clusterId, applicationId: app.id, triggerId: newTriggerId() }, options, (e) => `${e.params.applicationId} CANCELED`);
      });
    });

  withOperation(program.command('rescale').description('Change a job\'s parallelism (adaptive scheduler: in place; else stop with a savepoint and resubmit); prints the job id that runs at it'))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .requiredOption('--parallelism <n>', 'the new parallelism', positiveInteger('--parallelism'))
    .option('--vertex <id|name>', 'only this vertex (adaptive scheduler)')
    .option('--plan-only', 'print the rescale plan and change nothing')
    .option('--hot-key <key=rate>', 'a known hot key and its records/s, for the plan (repeatable)', collect)
    .addOption(new Option('--route <route>', 'how to rescale (default: adaptive where the cluster runs the adaptive scheduler)').choices(['adaptive', 'savepoint']))
    .option('--jar <id>', 'savepoint route: the uploaded jar that runs the job (default: guessed, see the plan)')
    .option('--entry-class <class>', 'savepoint route: the jar\'s main class')
    .option('--target-dir <dir>', 'savepoint route: where the savepoint goes')
    .option('--json', 'print the plan as JSON (with --plan-only)')
    .argument('[programArgs...]', 'savepoint route: the program arguments, after --')
    .action(async (programArgs: string[], options: CommonOptions & { job: string; parallelism: number; vertex?: string; planOnly?: boolean; hotKey?: string[]; route?: 'adaptive' | 'savepoint'; jar?: string; entryClass?: string; targetDir?: string; json?: boolean }) => {
      await withCli(options, async (cli) => {
        const jobId = await jobIdOf(options);
        const clusterId = parseClusterUrl(options.url);
        const parallelism = options.vertex ? { [options.vertex]: options.parallelism } : options.parallelism;
        const hotKeys = parseHotKeys(options.hotKey);
        const plan = await cli.operations.planRescale(clusterId, jobId, { parallelism, hotKeys, route: options.route });
        if (options.planOnly) {
          process.stdout.write(options.json ? terminalJson(plan) : printableLines(formatPlan(plan)));
          return;
        }
        process.stderr.write(printableLines(formatPlan(plan)));
        if (plan.refusals.length > 0) throw new CliError(EXIT.badArguments, plan.refusals.join(' '));
        const program: JarProgram | undefined = options.jar ? { jarId: options.jar, entryClass: options.entryClass, programArgs } : undefined;
        await runOperation(
          cli,
          { kind: 'rescale', clusterId, jobId, triggerId: newTriggerId(), parallelism, route: options.route, program, targetDirectory: options.targetDir, hotKeys },
          options,
          (e) => e.newJobId ?? e.jobId ?? '',
        );
      });
    });

  withOperation(program.command('resubmit').description('Run a job from a savepoint through an uploaded jar; prints the new job id'))
    .requiredOption('--jar <id>', 'the uploaded jar (GET /jars)')
    .requiredOption('--from <path>', 'the savepoint (or retained checkpoint) to restore')
    .option('--parallelism <n>', 'the job\'s parallelism (operators that set their own keep it; default: the stopped run\'s with --job, else none sent)', positiveInteger('--parallelism'))
    .option('--entry-class <class>', 'the jar\'s main class')
    .option('--job <id>', 'the job this run replaces: its vertices are compared with Flink\'s plan and with the new job, and its savepoints linked in the journal')
    .option('--allow-non-restored-state', 'skip state of operators the program no longer has (that state is dropped)')
    .option('--plan-only', 'print Flink\'s plan beside the stopped run and send nothing')
    .option('--json', 'print the plan as JSON (with --plan-only)')
    .option('--yes', 'confirm a changed shape or --allow-non-restored-state without asking')
    .argument('[programArgs...]', 'the program arguments, after --')
    .action(async (programArgs: string[], options: CommonOptions & { jar: string; from: string; parallelism?: number; entryClass?: string; job?: string; allowNonRestoredState?: boolean; planOnly?: boolean; json?: boolean }) => {
      await withCli(options, async (cli) => {
        await attach(options);
        const clusterId = parseClusterUrl(options.url);
        const request = {
          clusterId,
          jobId: options.job,
          program: { jarId: options.jar, entryClass: options.entryClass, programArgs },
          savepointPath: options.from,
          parallelism: options.parallelism ?? (options.job ? await stoppedRunParallelism(cli, clusterId, options.job) : undefined),
          allowNonRestoredState: options.allowNonRestoredState === true,
        };
        const plan = await cli.operations.planResubmit(request);
        if (options.planOnly) {
          process.stdout.write(options.json ? `${JSON.stringify(plan, null, 2)}\n` : formatResubmitPlan(plan));
          return;
        }
        process.stderr.write(formatResubmitPlan(plan));
        if (plan.changes.length > 0) await confirm(`Resubmit with a changed shape: ${plan.changes.map((c) => c.words).join('; ')}.`, options);
        if (options.allowNonRestoredState) await confirm('Resubmit allowing non-restored state: state in the savepoint that no operator of the program claims is dropped for good.', options);
        await runOperation(cli, { kind: 'resubmit', triggerId: newTriggerId(), ...request }, options, (e) => {
          // The new job beside the stopped run, as the journal keeps it.
          if (e.shapeChanges) process.stderr.write(`${describeChanges(e.shapeChanges)}\n`);
          return e.newJobId ?? '';
        });
      });
    });

  program
    .command('journal')
    .description('The operations journal (shared with the app): what was done, when, and how it ended')
    .option('--job <id>', 'only this job (and the runs resubmitted from it)')
    .option('--url <url>', 'only this cluster')
    .addOption(new Option('--kind <kind>', 'only this kind').choices([...OPERATION_KINDS]))
    .addOption(new Option('--state <state>', 'only this state').choices(['pending', 'in-progress', 'succeeded', 'failed', 'not-started', 'unknown']))
    .option('--limit <n>', 'newest N', positiveInteger('--limit'))
    .option('--json', 'print JSON')
    .option('--csv', 'print CSV')
    .option('--data-dir <dir>', 'the app\'s data folder (default: the app\'s own)')
    .option('--timeout <ms>', 'request timeout when settling open operations', String(DEFAULT_TIMEOUT_MS))
    .action(async (options: { job?: string; url?: string; kind?: JournalEntry['kind']; state?: OperationState; limit?: number; json?: boolean; csv?: boolean; dataDir?: string; timeout: string }) => {
      await withCli({ ...options, url: options.url ?? '', wait: true }, async (cli) => {
        const clusterId = options.url ? clusterIdOf(options.url, options.dataDir) : undefined;
        const filter = { jobId: options.job, kind: options.kind, state: options.state, limit: options.limit };
        const entries = cli.operations.journal
          .list({ ...filter, limit: Number.MAX_SAFE_INTEGER })
          .filter((e) => clusterId === undefined || e.clusterId === clusterId || e.clusterUrl === clusterId)
          .slice(0, options.limit ?? 500)
          .map(publicEntry);
        if (options.json) process.stdout.write(escapedForTerminal(exportJournal(entries, filter, 'json', Date.now()).content));
        else if (options.csv) process.stdout.write(escapedForTerminal(exportJournal(entries, filter, 'csv', Date.now()).content));
        else process.stdout.write(entries.length === 0 ? 'No operations in the journal.\n' : formatJournal(entries));
      });
    });
}

function clusterIdOf(url: string, dataDir?: string): string {
  const normalized = parseClusterUrl(url);
  try {
    return openClusterStore(dataDir).list().find((c) => c.url === normalized)?.id ?? normalized;
  } catch {
    return normalized;
  }
}

function formatJournal(entries: JournalEntry[]): string {
  return formatTable(
    ['CREATED', 'KIND', 'STATE', 'JOB', 'TRIGGER ID', 'RESULT'],
    entries.map((e) => [
      new Date(e.createdAt).toISOString().replace('T', ' ').slice(0, 19),
      e.kind,
      e.state,
      `${e.jobName ?? ''}${e.jobId ? ` ${e.jobId.slice(0, 8)}` : ''}`.trim() || '-',
      e.id,
      e.resultPath ?? (e.newJobId ? `job ${e.newJobId}` : null) ?? e.failure ?? e.progress ?? '',
    ]),
  );
}

function rate(n: number | null): string {
  return n === null || !Number.isFinite(n) ? '-' : n >= 100 ? String(Math.round(n)) : n.toFixed(1);
}

/** Flink's plan of a resubmit beside the stopped run, vertex by vertex, then what differs. */
export function formatResubmitPlan(plan: ResubmitPlan): string {
  const at = plan.jobParallelism === null ? 'no job parallelism (the program\'s own and the cluster\'s default)' : `job parallelism ${plan.jobParallelism}`;
  const lines = [`Flink's plan of the program at ${at}${plan.stopped ? ', beside the stopped run' : ''}:`];
  const stoppedOf = new Map([...matchVertices(plan.stopped ?? [], plan.planned)].flatMap(([before, after]) => (after ? [[after, before] as const] : [])));
  const rows = plan.planned.map((v) => {
    const before = stoppedOf.get(v);
    return [v.name, before ? `${before.parallelism}` : '-', before?.maxParallelism != null ? `${before.maxParallelism}` : '-', `${v.parallelism}`];
  });
  lines.push(formatTable(['VERTEX', 'STOPPED RUN', 'MAX PARALLELISM', 'PLAN'], rows).trimEnd());
  lines.push(plan.stopped ? describeChanges(plan.changes) : 'No stopped run to compare with (give --job).', '');
  return lines.join('\n');
}

export function formatPlan(plan: RescalePlan): string {
  const lines = [`Rescale plan for ${printable(`${plan.jobName} (${plan.jobId})`)}: route ${plan.route}. ${plan.routeReason}`];
  lines.push(`Load: ${plan.load.source === 'history' ? 'from the history' : 'measured live'}, ${plan.load.samples} samples over ${Math.round((plan.load.to - plan.load.from) / 1000)} s.`);
  for (const r of plan.refusals) lines.push(`REFUSED: ${r}`);
  for (const w of plan.warnings) lines.push(`Warning: ${w}`);
  for (const v of plan.vertices) {
    lines.push('', `${printable(v.vertexName)}: parallelism ${v.from} → ${v.to} (max parallelism ${v.maxParallelism})`);
    lines.push(`  max/mean records/s: before ${rate(v.before.max)}/${rate(v.before.mean)}, predicted ${rate(v.after.max)}/${rate(v.after.mean)}`);
    if (v.capacity) lines.push(`  one subtask sustains ~${rate(v.capacity.recordsPerSecond)} records/s (subtask ${v.capacity.subtask} at ${Math.round(v.capacity.busyTimeMsPerSecond)} ms/s busy)`);
    for (const f of v.findings) lines.push(`  - ${f}`);
  }
  lines.push('', `Assumption: ${plan.assumption}`, '');
  return lines.join('\n');
}

/** The job parallelism of the run a resubmit replaces, the default that restores it; undefined when not known. */
async function stoppedRunParallelism(cli: CliOperations, clusterId: string, jobId: string): Promise<number | undefined> {
  try {
    return (await cli.operations.operationsContext(clusterId, jobId)).resubmitDefaults.parallelism ?? undefined;
  } catch {
    return undefined; // the cluster no longer lists it: nothing is sent, and the plan says what Flink will run
  }
}
