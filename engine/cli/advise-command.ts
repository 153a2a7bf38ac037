import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { jobAdvice } from '../advice/job-advice.ts';
import { diagnoseSamples, diagnoseWindow } from '../analysis/diagnose-job.ts';
import type { AdviceOptions, JobAdvice } from '../contracts/advice.ts';
import type { JobDiagnosis } from '../contracts/diagnosis.ts';
import { CurrentGraphs } from '../diagnosis/current-graphs.ts';
import { readJobWindow } from '../diagnosis/read-window.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { HistoryStore } from '../history/history-store.ts';
import { REAL_CLOCK } from '../operations/driver-context.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { fetchJobGraph } from '../sampling/job-graph.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attachChecked, resolveJob, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { appDataDir } from './data-dir.ts';
import { formatTable } from './format-table.ts';
import { openHistoryStore } from './open-history-store.ts';
import { printableLines, terminalJson } from './terminal-text.ts';

interface AdviseCommandOptions extends ConnectionOptions {
  job: string;
  key?: string;
  vertex?: string;
  format?: string;
  rate?: string;
  buckets?: string;
  json?: boolean;
  dataDir?: string;
}

/** How far back the diagnosis that names the skewed vertex reads the console's history. */
const DIAGNOSIS_WINDOW_MS = 5 * 60_000;

export const ADVISE_DESCRIPTION = 'For a hot key: salting (how many buckets, where the salted keys land, busy after) beside a rescale';

/**
 * `flink-ops advise --url U --job J --key K`: the two fixes of a skewed key side by side. The vertex from the
 * diagnosis (the console's history when the app watched the job, else Flink's current figures) or `--vertex`; the load
 * per subtask from the history's last two minutes, else measured now.
 */
export function registerAdviseCommand(program: Command): void {
  withConnection(program.command('advise').description(ADVISE_DESCRIPTION))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .option('--key <key>', 'the hot key, as the job\'s KeySelector returns it (a String)')
    .option('--vertex <id|name>', 'the keyed vertex (default: the one the diagnosis finds skewed)')
    .option('--format <template>', 'the salted key\'s form, with {key} and {i}', '{key}#{i}')
    .option('--rate <records/s>', 'the key\'s rate when measured elsewhere (a Kafka sample, the source): its demand')
    .option('--buckets <n>', 'salt buckets to use instead of the rule\'s')
    .option('--json', 'print the advice as JSON')
    .option('--data-dir <dir>', "the app's data folder, whose history is read when the job is recorded (default: the app's own)")
    .action(async (options: AdviseCommandOptions) => {
      if (!options.key) throw new CliError(EXIT.badArguments, 'Give the hot key (--key K): the console has no sample of the job\'s keys to take it from.');
      const request: AdviceOptions = {
        key: options.key,
        ...(options.vertex ? { vertexId: options.vertex } : {}),
        format: options.format,
        ...(options.rate !== undefined ? { keyRecordsPerSecond: parsePositive(options.rate, '--rate', 'a rate in records per second above 0, e.g. 400') } : {}),
        ...(options.buckets !== undefined ? { buckets: parsePositive(options.buckets, '--buckets', 'a whole number from 2 to 1024') } : {}),
      };
      const { client, check } = await attachChecked(options);
      const job = resolveJob(await fetchJobs(client), options.job);
      const advice = await withHistory(options.dataDir, async (history, recordedAs) => {
        const clusterId = recordedAs ?? options.url;
        if (!recordedAs) process.stderr.write(`The console has not recorded this job: measuring its load now (samples one metrics refresh apart, ${Math.round(check.metricsFetchIntervalMs / 1000)} s)...\n`);
        const diagnosis = await diagnoseForAdvice(client, history, clusterId, options.url, job.id, recordedAs !== undefined);
        return jobAdvice({ client, history, clusterId, jobId: job.id, options: request, diagnosis, metricsFetchIntervalMs: check.metricsFetchIntervalMs, clock: REAL_CLOCK });
      }, job.id);
      process.stdout.write(options.json ? terminalJson(advice) : printableLines(formatAdvice(advice)));
    });
}

function parsePositive(raw: string, option: string, expected: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0) throw new CliError(EXIT.badArguments, `${option} must be ${expected}, not "${raw}".`);
  return value;
}

/** The app's history when it has one (or `--data-dir`), else an empty one in a temporary folder: then the load is measured now. */
export async function withHistory<T>(dataDir: string | undefined, run: (history: HistoryStore, recordedAs: string | undefined) => Promise<T>, jobId: string): Promise<T> {
  if (dataDir || existsSync(path.join(appDataDir(), 'history'))) {
    const history = openHistoryStore(dataDir);
    try {
      return await run(history, history.samples.jobs().find((j) => j.jobId === jobId)?.clusterId);
    } finally {
      await history.close();
    }
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-advise-'));
  const history = HistoryStore.open(dir);
  try {
    return await run(history, undefined);
  } finally {
    await history.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The diagnosis from the history's window when the app recorded the job, with Flink's current figures where it cannot tell. */
export async function diagnoseForAdvice(client: FlinkRestClient, history: HistoryStore, clusterId: string, url: string, jobId: string, recorded: boolean): Promise<JobDiagnosis> {
  const now = Date.now();
  const fromHistory = recorded ? diagnoseWindow(readJobWindow(history, clusterId, jobId, now - DIAGNOSIS_WINDOW_MS, now), DIAGNOSIS_WINDOW_MS) : diagnoseSamples([], DIAGNOSIS_WINDOW_MS);
  return new CurrentGraphs(() => fetchJobGraph(client, url, jobId)).diagnose(fromHistory);
}

function rate(n: number | null): string {
  if (n === null) return 'unknown';
  return `${n >= 100 ? Math.round(n).toLocaleString('en-US') : Number(n.toFixed(1))} records/s`;
}

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms/s`;
const ratio = (n: number | null | undefined) => (n === null || n === undefined ? '?' : `${n.toFixed(1)}×`);

/** The advice as an operator reads it: the key and the figures it stands on, salting, then the rescale beside it. */
export function formatAdvice(advice: JobAdvice): string {
  const s = advice.salting;
  const lines: string[] = [];
  const load = advice.basis.load === 'history' ? "the console's history" : 'measured now';
  lines.push(`${advice.jobName} (${advice.jobId}): ${s.key} on ${advice.vertexName} (parallelism ${s.parallelism}, max parallelism ${s.maxParallelism}), load ${load} (${advice.basis.samples} samples)`);
  const hot = advice.hotSubtask === null ? '' : advice.hotSubtask === s.subtask ? ' (the hot subtask)' : ` (the hot subtask is ${advice.hotSubtask})`;
  const keyRate = `${rate(s.keyRecordsPerSecond)}${s.keyRateIsLowerBound ? ' got through (its subtask is saturated: the demand is higher)' : advice.basis.rate === 'option' ? ' (given)' : ''}`;
  lines.push(`${s.key}: key group ${s.keyGroup}, subtask ${s.subtask}${hot}; ${keyRate}.`);
  lines.push(s.capacity ? `One subtask sustains ~${rate(s.capacity.recordsPerSecond)} (subtask ${s.capacity.subtask} at ${ms(s.capacity.busyTimeMsPerSecond)} busy).` : 'What one subtask sustains is not known.');
  for (const w of advice.warnings) lines.push(`Warning: ${w}`);
  lines.push('', `Salting: ${s.sentence}`);
  if (s.verdict === 'salt') {
    lines.push(formatTable(['SALTED KEY', 'KEY GROUP', 'SUBTASK'], s.saltedKeys.map((k) => [k.key, String(k.keyGroup), String(k.subtask)])).trimEnd());
    const landed = s.predicted.filter((p) => p.saltedKeys.length > 0);
    lines.push(`Busy after, where the buckets land: ${landed.map((p) => `subtask ${p.subtask} ${ms(p.busyTimeMsPerSecond)}`).join(', ')}.`);
    lines.push(`Busy max/mean: ${ratio(s.before.maxOverMean)} now (max ${ms(s.before.max)}) → ${ratio(s.after?.maxOverMean)} after (max ${ms(s.after?.max ?? 0)}).`);
    lines.push(`Records max/mean: ${ratio(s.recordsBefore.maxOverMean)} now → ${ratio(s.recordsAfter?.maxOverMean)} after.`);
    for (const n of s.notes) lines.push(`Note: ${n}`);
    lines.push('What it costs:', ...s.costs.map((c) => `  - ${c}`));
  }
  lines.push('', `Rescale: ${advice.rescale.sentence}`);
  for (const plan of advice.rescale.plans) {
    const key = plan.hotKeys.find((k) => k.key === s.key);
    const where = key ? `; ${s.key} on subtask ${key.subtaskAfter}` : '';
    const after = plan.predicted.map((p) => p.busyTimeMsPerSecond).filter((b): b is number => b !== null);
    const busiest = after.length ? `, busiest ${ms(Math.max(...after))}` : '';
    lines.push(`  at parallelism ${plan.to}: records max/mean ${ratio(plan.before.maxOverMean)} → ${ratio(plan.after.maxOverMean)}${busiest}${where}.`);
  }
  return `${lines.join('\n')}\n`;
}
