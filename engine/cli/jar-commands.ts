import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { ResubmitPlan } from '../contracts/job-shape.ts';
import type { JarList } from '../contracts/jars.ts';
import { parseClusterUrl } from '../flink-rest/client.ts';
import { describeChanges, nameFromDescription } from '../operations/job-shape.ts';
import { deleteJar, listJars, uploadJar } from '../operations/jar-files.ts';
import { newTriggerId } from '../operations/operations.ts';
import { bytesInIecUnits } from '../contracts/format-bytes.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attach, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { formatTable } from './format-table.ts';
import { confirm, formatResubmitPlan, positiveInteger, runOperation, withCli, withOperation, type CommonOptions } from './operation-commands.ts';
import { printable, printableLines, terminalJson } from './terminal-text.ts';

/**
 * `jars list|upload|delete|plan|run` and `dispose-savepoint`: a cluster's jars, and a run of one from a savepoint with
 * the resubmit's confirmation and journal; a savepoint's disposal, confirmed with what is lost and journaled (a killed
 * CLI's disposal is settled by the next invocation).
 */

interface RunOptions extends CommonOptions {
  savepoint?: string;
  allowNonRestoredState?: boolean;
  parallelism?: number;
  entryClass?: string;
  args?: string;
  json?: boolean;
  planOnly?: boolean;
}

/** Flink's `programArgs` string: split on white space, quoted parts kept together. */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

function formatJars(list: JarList): string {
  if (list.unavailable) return `${list.unavailable}\n`;
  if (list.jars.length === 0) return 'No jars uploaded.\n';
  return formatTable(
    ['ID', 'NAME', 'UPLOADED', 'ENTRY CLASSES'],
    list.jars.map((j) => [j.id, j.name, j.uploaded ? new Date(j.uploaded).toISOString().replace('T', ' ').slice(0, 19) : '-', j.entryClasses.join(', ') || '-']),
  );
}

/** Flink's plan as the job graph reads: each vertex, its parallelism, and what feeds it (with the ship strategy). */
export function formatPlanGraph(plan: ResubmitPlan): string {
  const nodes = plan.graph?.nodes ?? [];
  const name = new Map(nodes.map((n) => [n.id, nameFromDescription(n.description) || n.id]));
  const lines = ['Job graph of the plan:'];
  for (const n of nodes) {
    const inputs = n.inputs.map((i) => `${name.get(i.id) ?? i.id}${i.ship_strategy ? ` [${i.ship_strategy}]` : ''}`);
    lines.push(`  ${name.get(n.id)} (parallelism ${n.parallelism})${inputs.length ? ` <- ${inputs.join(', ')}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

function comparedWith(plan: ResubmitPlan): string {
  if (!plan.stoppedJob) return 'No earlier run to compare with (the journal took no savepoint at this path).\n';
  return plan.stoppedJob.source === 'savepoint' ? `Compared with job ${plan.stoppedJob.jobId}, whose savepoint this is.\n` : '';
}

function readJar(file: string): { name: string; bytes: Buffer } {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new CliError(EXIT.badArguments, `No file ${file}.`);
  }
  if (size > 104_857_600) throw new CliError(EXIT.badArguments, `${file} is ${bytesInIecUnits(size)}, more than Flink's default upload limit (rest.server.max-content-length, 100 MiB).`);
  return { name: path.basename(file), bytes: readFileSync(file) };
}

export function registerJarCommands(program: Command): void {
  const jars = program.command('jars').description('The jars of a cluster: list, upload, delete, plan, and run one from a savepoint (journaled as a resubmit)');

  withConnection(jars.command('list').description('List the uploaded jars: id, name, when uploaded, entry classes'))
    .option('--json', 'print JSON')
    .action(async (options: ConnectionOptions & { json?: boolean }) => {
      const list = await listJars(await attach(options));
      process.stdout.write(options.json ? terminalJson(list) : printableLines(formatJars(list)));
    });

  withConnection(jars.command('upload').description('Upload a jar (POST /jars/upload); prints its jar id'))
    .argument('<file>', 'the jar file')
    .option('--json', 'print the jar as JSON')
    .action(async (file: string, options: ConnectionOptions & { json?: boolean }) => {
      const { name, bytes } = readJar(file);
      const jar = await uploadJar(await attach(options), name, bytes);
      process.stdout.write(options.json ? terminalJson(jar) : `${printable(jar.id)}\n`);
    });

  withConnection(jars.command('delete').description('Delete an uploaded jar'))
    .argument('<id>', 'the jar id (see `flink-ops jars list`)')
    .option('--yes', 'confirm without asking')
    .action(async (jarId: string, options: ConnectionOptions & { yes?: boolean }) => {
      const client = await attach(options);
      await confirm(`Delete jar ${jarId} from the cluster: it can no longer be run until it is uploaded again.`, options);
      await deleteJar(client, jarId);
      process.stdout.write(`${printable(jarId)} deleted\n`);
    });

  const runArguments = (command: Command) =>
    command
      .argument('<id>', 'the jar id')
      .option('--savepoint <path>', 'restore from this savepoint (or retained checkpoint)')
      .option('--allow-non-restored-state', 'skip state of operators the program no longer has (that state is dropped)')
      .option('--parallelism <n>', 'the job\'s parallelism (operators that set their own keep it)', positiveInteger('--parallelism'))
      .option('--entry-class <class>', 'the jar\'s main class')
      .option('--args <text>', 'the program arguments as one string, split as Flink splits programArgs (or give them after --)')
      .argument('[programArgs...]', 'the program arguments, after --')
      .option('--json', 'print JSON');

  const requestOf = (jarId: string, programArgs: string[], options: RunOptions) => ({
    clusterId: parseClusterUrl(options.url),
    program: { jarId, entryClass: options.entryClass, programArgs: [...splitArguments(options.args ?? ''), ...programArgs] },
    savepointPath: options.savepoint,
    parallelism: options.parallelism,
    allowNonRestoredState: options.allowNonRestoredState === true,
  });

  runArguments(withOperation(jars.command('plan').description('Show the job graph Flink would run (POST /jars/:id/plan) beside the savepoint\'s job; runs nothing'))).action(
    async (jarId: string, programArgs: string[], options: RunOptions) => {
      await withCli(options, async (cli) => {
        await attach(options);
        const plan = await cli.operations.planResubmit(requestOf(jarId, programArgs, options));
        process.stdout.write(options.json ? terminalJson(plan) : printableLines(`${formatPlanGraph(plan)}${formatResubmitPlan(plan)}${comparedWith(plan)}`));
      });
    },
  );

  runArguments(withOperation(jars.command('run').description('Run a jar (from a savepoint), journaled as a resubmit; prints the new job id')))
    .option('--yes', 'confirm a changed shape or --allow-non-restored-state without asking')
    .action(async (jarId: string, programArgs: string[], options: RunOptions) => {
      await withCli(options, async (cli) => {
        await attach(options);
        const request = requestOf(jarId, programArgs, options);
        const plan = await cli.operations.planResubmit(request);
        process.stderr.write(printableLines(`${formatResubmitPlan(plan)}${comparedWith(plan)}`));
        const starts = `Run ${jarId}${options.savepoint ? ` from the savepoint ${options.savepoint}` : ' without a savepoint (the job starts with empty state)'}`;
        // Never a changed shape without a yes: a vertex whose parallelism or max parallelism moved redistributes its state.
        if (plan.changes.length > 0) await confirm(`${starts}, with a changed shape: ${plan.changes.map((c) => c.words).join('; ')}.`, options);
        if (options.allowNonRestoredState) await confirm(`${starts}, allowing non-restored state: state in the savepoint that no operator of the program claims is dropped for good.`, options);
        await runOperation(cli, { kind: 'resubmit', triggerId: newTriggerId(), ...request }, options, (e) => {
          if (options.json) return JSON.stringify({ jobId: e.newJobId, triggerId: e.id, shapeChanges: e.shapeChanges ?? null });
          if (e.shapeChanges) process.stderr.write(printableLines(`${describeChanges(e.shapeChanges)}\n`));
          return e.newJobId ?? '';
        });
      });
    });

  withOperation(program.command('dispose-savepoint').description('Dispose a savepoint (POST /savepoint-disposal): its files are deleted, then the console forgets it'))
    .argument('<path>', 'the savepoint, as Flink printed it (e.g. file:/savepoints/savepoint-1a2b3c-0123456789ab)')
    .option('--yes', 'confirm without asking')
    .option('--json', 'print the journal entry as JSON')
    .action(async (savepointPath: string, options: CommonOptions & { json?: boolean }) => {
      await withCli(options, async (cli) => {
        await attach(options);
        const clusterId = parseClusterUrl(options.url);
        const impact = await cli.operations.disposalImpact(clusterId, savepointPath);
        if (impact.inFlight) throw new CliError(EXIT.failure, printable(`A disposal of ${impact.path} is in flight (trigger ${impact.inFlight.id}): see \`flink-ops journal --kind dispose-savepoint\`.`));
        await confirm(impact.sentence, options);
        await runOperation(cli, { kind: 'dispose-savepoint', clusterId, triggerId: newTriggerId(), savepointPath: impact.path, ...(impact.jobId ? { jobId: impact.jobId } : {}) }, options, (e) =>
          options.json ? JSON.stringify({ path: e.resultPath, triggerId: e.id, state: e.state, note: e.progress }) : `${e.resultPath} disposed${e.progress ? ` (${e.progress})` : ''}`,
        );
      });
    });
}
