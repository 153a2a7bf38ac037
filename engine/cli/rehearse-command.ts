import type { Command } from 'commander';
import type { Rehearsal, RehearsalOptions, RehearsalRun, SubtaskFigures } from '../contracts/rehearsal.ts';
import { REAL_CLOCK } from '../operations/driver-context.ts';
import { rehearseJob } from '../rehearsal/rehearse-job.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { diagnoseForAdvice, withHistory } from './advise-command.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attachChecked, resolveJob, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { formatTable } from './format-table.ts';
import { printableLines, terminalJson } from './terminal-text.ts';

interface RehearseCommandOptions extends ConnectionOptions {
  job: string;
  key?: string;
  vertex?: string;
  salt?: string;
  parallelism?: string;
  inputRate?: string;
  seconds?: string;
  json?: boolean;
  dataDir?: string;
}

export const REHEARSE_DESCRIPTION = "Rehearse a fix on the local engine: the job's observed key mix on its current shape, then salted (--salt N) or rescaled (--parallelism P)";

/**
 * `flink-ops rehearse --url U --job J [--key K] (--salt N | --parallelism P)`: the twin of the job's keyed vertex on the
 * local engine, in this process at its virtual clock, baseline then proposal, beside production's figures. Ctrl-C
 * cancels it.
 */
export function registerRehearseCommand(program: Command): void {
  withConnection(program.command('rehearse').description(REHEARSE_DESCRIPTION))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .option('--key <key>', "the hot key, as the job's KeySelector returns it (a String); default: the hottest key group stands for it")
    .option('--vertex <id|name>', 'the keyed vertex (default: the one the diagnosis finds skewed)')
    .option('--salt <n>', 'rehearse the salted two-stage job with n buckets (2..1024)')
    .option('--parallelism <p>', 'rehearse the keyed vertex at parallelism p')
    .option('--input-rate <records/s>', "what the job's input brings to the keyed vertex, when measured elsewhere (default: read from the watermark lag)")
    .option('--seconds <s>', 'simulated seconds measured per run, after a 30 s warm-up (5..300)', '60')
    .option('--json', 'print the rehearsal as JSON')
    .option('--data-dir <dir>', "the app's data folder, whose history is read when the job is recorded (default: the app's own)")
    .action(async (options: RehearseCommandOptions) => {
      if ((options.salt === undefined) === (options.parallelism === undefined)) {
        throw new CliError(EXIT.badArguments, 'Rehearse one proposal: --salt N (buckets) or --parallelism P.');
      }
      const request: RehearsalOptions = {
        ...(options.key !== undefined ? { key: options.key } : {}),
        ...(options.vertex ? { vertexId: options.vertex } : {}),
        ...(options.salt !== undefined ? { salt: whole(options.salt, '--salt', 'a whole number of buckets from 2 to 1024') } : {}),
        ...(options.parallelism !== undefined ? { parallelism: whole(options.parallelism, '--parallelism', 'a whole number of subtasks') } : {}),
        ...(options.inputRate !== undefined ? { inputRecordsPerSecond: positive(options.inputRate, '--input-rate', 'a rate in records per second above 0') } : {}),
        measuredSeconds: positive(options.seconds ?? '60', '--seconds', 'a number of simulated seconds from 5 to 300'),
      };
      const { client, check } = await attachChecked(options);
      const job = resolveJob(await fetchJobs(client), options.job);
      const controller = new AbortController();
      const cancel = () => controller.abort();
      process.once('SIGINT', cancel);
      try {
        const rehearsal = await withHistory(options.dataDir, async (history, recordedAs) => {
          const clusterId = recordedAs ?? options.url;
          if (!recordedAs) process.stderr.write(`The console has not recorded this job: measuring its load now (samples one metrics refresh apart, ${Math.round(check.metricsFetchIntervalMs / 1000)} s)...\n`);
          const diagnosis = await diagnoseForAdvice(client, history, clusterId, options.url, job.id, recordedAs !== undefined);
          const onRun = (run: 'baseline' | 'proposal', simulated: number) => {
            process.stderr.write(`Rehearsing the ${run === 'baseline' ? "job's current shape" : 'proposal'} on the local engine (${simulated} simulated seconds; Ctrl-C cancels)...\n`);
          };
          return rehearseJob({ client, history, clusterId, jobId: job.id, options: request, diagnosis, metricsFetchIntervalMs: check.metricsFetchIntervalMs, clock: REAL_CLOCK, signal: controller.signal, onRun });
        }, job.id);
        process.stdout.write(options.json ? terminalJson(rehearsal) : printableLines(formatRehearsal(rehearsal)));
      } finally {
        process.off('SIGINT', cancel);
      }
    });
}

function whole(raw: string, option: string, expected: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < 1) throw new CliError(EXIT.badArguments, `${option} must be ${expected}, not "${raw}".`);
  return value;
}

function positive(raw: string, option: string, expected: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0) throw new CliError(EXIT.badArguments, `${option} must be ${expected}, not "${raw}".`);
  return value;
}

const num = (n: number | null, digits = 0) => (n === null ? '-' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const ratio = (n: number | null) => (n === null ? '-' : `${n.toFixed(1)}×`);
const seconds = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`);
const bytes = (n: number | undefined) => (n === undefined ? '-' : `${(n / 1024).toFixed(0)} KiB`);

/** The rehearsal as an operator reads it: the verdict, the figures side by side, the salted keys, the notes. */
export function formatRehearsal(r: Rehearsal): string {
  const lines: string[] = [];
  const what = r.proposal.kind === 'salt' ? `salting into ${r.proposal.buckets} buckets` : `parallelism ${r.proposal.parallelism}`;
  lines.push(`${r.jobName} (${r.jobId}): ${r.vertexName}, ${r.key}${r.keyGiven ? '' : ' (stand-in)'}, rehearsing ${what} (parallelism ${r.observed.parallelism}, max parallelism ${r.observed.maxParallelism})`);
  lines.push('', r.sentence, '');
  const runs: Array<[string, RehearsalRun | null]> = [['baseline', r.baseline], [r.proposal.kind === 'salt' ? `salted ×${r.proposal.buckets}` : `parallelism ${r.proposal.parallelism}`, r.proposed]];
  const o = r.observed;
  const rows: string[][] = [
    ['PRODUCTION', num(o.throughputRecordsPerSecond), String(o.hotSubtask), num(o.busy.max), ratio(o.busy.maxOverMean), num(o.upstreamBackPressuredTimeMsPerSecond), seconds(o.watermarkLagMs), o.checkpoint ? `${num(o.checkpoint.durationMs)} ms` : '-', bytes(o.checkpoint?.stateSizeBytes)],
    ...runs.map(([name, run]) =>
      run
        ? [name.toUpperCase(), num(run.throughputRecordsPerSecond), String(run.hotSubtask), num(run.busy.max), ratio(run.busy.maxOverMean), num(run.upstreamBackPressuredTimeMsPerSecond), seconds(run.watermarkLagMs), run.checkpoint ? `${num(run.checkpoint.durationMs)} ms` : '-', bytes(run.checkpoint?.stateSizeBytes)]
        : [name.toUpperCase(), 'not run: the baseline does not match', '', '', '', '', '', '', ''],
    ),
  ];
  lines.push(formatTable(['', 'RECORDS/S', 'HOT SUBTASK', 'BUSY MAX', 'MAX/MEAN', 'UPSTREAM BP', 'WATERMARK LAG', 'CHECKPOINT', 'STATE'], rows).trimEnd());
  lines.push('', `Demand: ${num(o.demandRecordsPerSecond)} records/s (${o.demandBasis}); one subtask sustains ~${num(o.capacityRecordsPerSecond)} records/s, ${o.costPerRecordMs.toFixed(2)} ms a record below that.`);
  lines.push('', 'Busy ms/s per subtask (production | baseline | proposal):');
  const busy = (list: SubtaskFigures[] | undefined, s: number) => num(list?.[s]?.busyTimeMsPerSecond ?? null);
  const count = Math.max(o.parallelism, r.proposed?.subtasks.length ?? 0);
  lines.push(
    formatTable(
      ['SUBTASK', 'PRODUCTION', 'BASELINE', 'PROPOSAL'],
      Array.from({ length: count }, (_, s) => [String(s), busy(o.subtasks, s), busy(r.baseline.subtasks, s), busy(r.proposed?.subtasks, s)]),
    ).trimEnd(),
  );
  if (r.placement) {
    lines.push('', formatTable(['SALTED KEY', 'KEY GROUP', 'SUBTASK'], r.placement.saltedKeys.map((k) => [k.key, String(k.keyGroup), String(k.subtask)])).trimEnd());
  }
  for (const n of r.notes) lines.push(`Note: ${n}`);
  lines.push(`Twin runs: ${seconds(r.baseline.simulatedMs)} simulated in ${seconds(r.baseline.wallMs)}${r.proposed ? `, then ${seconds(r.proposed.simulatedMs)} in ${seconds(r.proposed.wallMs)}` : ''}.`);
  return `${lines.join('\n')}\n`;
}
