import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { bytesInWords } from '../analysis/in-words.ts';
import { formatSpan } from '../analysis/root-cause.ts';
import { rateInWords } from '../analysis/state-analysis.ts';
import { STATE_SUSPECT_LABEL, type JobState } from '../contracts/state.ts';
import { readKeyCount, readSize } from '../contracts/state-inputs.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { HistoryStore } from '../history/history-store.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { jobState, MAX_STATE_WINDOW_MS } from '../state/job-state.ts';
import { recordCheckpointsNow } from '../state/record-checkpoints-now.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attach, resolveJob, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { openHistoryStore } from './open-history-store.ts';
import { findRecording } from './find-recording.ts';
import { formatTable } from './format-table.ts';
import { printableLines, terminalJson } from './terminal-text.ts';
import { parseWindowOption } from './window-option.ts';

interface StateCommandOptions extends ConnectionOptions {
  job: string;
  window: string;
  capacity?: string;
  keys?: string;
  json?: boolean;
  dataDir?: string;
}

/** What `flink-ops state --json` prints. */
export interface StateReport {
  /** `history`: the console's recording of the job; `cluster`: the checkpoints the JobManager still keeps. */
  source: 'history' | 'cluster';
  job: { id: string; name: string; state: string };
  state: JobState;
}

/**
 * `flink-ops state --url U --job J [--window W]`: per stateful vertex and subtask, the state's size, share and growth,
 * and the one sentence naming the likeliest suspect. From the console's history when it has the job's checkpoints
 * (the app watched it), else from what the JobManager still keeps of them. RocksDB's native metrics from the cluster.
 */
export function registerStateCommand(program: Command): void {
  withConnection(program.command('state').description("Where a job's state lives, how fast it grows, and the likeliest reason why"))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .option('--window <duration>', 'how far back to fit the growth: 10m, 1h, 2d', '10m')
    .option('--capacity <size>', 'the size a subtask\'s state must not reach, for the projection: 8GiB, 500MiB, bytes')
    .option('--keys <n>', 'how many keys the job holds (bytes per key, when RocksDB\'s estimate-num-keys is off)')
    .option('--json', 'print the report as JSON')
    .option('--data-dir <dir>', "the app's data folder, whose history is read when the job is recorded (default: the app's own)")
    .action(async (options: StateCommandOptions) => {
      const windowMs = parseStateWindow(options.window);
      const capacityBytes = options.capacity === undefined ? null : parseSize(options.capacity);
      const keyCount = options.keys === undefined ? null : parseKeyCount(options.keys);
      const client = await attach(options);
      const job = resolveJob(await fetchJobs(client), options.job);
      const report = await stateReport(client, options, job, windowMs, { capacityBytes, keyCount });
      process.stdout.write(options.json ? terminalJson(report) : printableLines(formatStateReport(report)));
    });
}

async function stateReport(client: FlinkRestClient, options: StateCommandOptions, job: { id: string; name: string; state: string }, windowMs: number, extra: { capacityBytes: number | null; keyCount: number | null }): Promise<StateReport> {
  const history = openHistoryStore(options.dataDir);
  try {
    const recorded = findRecording(history, options.url, options.dataDir, job.id);
    if (recorded) return { source: 'history', job, state: await jobState(history, client, recorded.clusterId, job.id, windowMs, extra, Date.now()) };
  } finally {
    await history.close();
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-state-'));
  const store = HistoryStore.open(dir);
  try {
    await recordCheckpointsNow(client, store, options.url, job.id);
    return { source: 'cluster', job, state: await jobState(store, client, options.url, job.id, windowMs, extra, Date.now()) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatStateReport(report: StateReport): string {
  const { job, state } = report;
  const from = report.source === 'history' ? "the console's history" : 'the checkpoints the JobManager still keeps';
  const lines = [`${job.name} (${job.id}) ${job.state}: state from ${from}, ${state.window.checkpoints} checkpoints in the last ${formatSpan(state.window.requestedMs)}`, ''];
  lines.push(`${STATE_SUSPECT_LABEL[state.suspect]}: ${state.sentence}`);
  lines.push(`Confidence: ${state.confidence.level}${state.confidence.reasons.length > 0 ? ` (${state.confidence.reasons.join('; ')})` : ''}`);
  for (const also of state.alsoSeen) lines.push(`Also: ${also}`);
  for (const v of state.vertices) {
    const kind = [v.keyed ? 'keyed' : 'not keyed', v.broadcastInput ? 'broadcast input' : null].filter(Boolean).join(', ');
    const history = v.historyGrowthPerHour !== null ? `, ${rateInWords(v.historyGrowthPerHour)} over the history` : '';
    const perKey = v.bytesPerKey !== null ? `, ${bytesInWords(v.bytesPerKey)} per key (${v.keyCount!.toLocaleString('en-US')} keys, ${v.keyCountSource})` : '';
    lines.push(
      '',
      `${v.name} (parallelism ${v.parallelism}${v.maxParallelism !== null ? `, max ${v.maxParallelism}` : ''}, ${kind}): ${bytes(v.totalBytes)}, ${v.growthPerHour === null ? 'growth unknown' : rateInWords(v.growthPerHour)} over the window${history}, ${v.trend}${v.stateSkewPercent !== null ? `, state skew ${Math.round(v.stateSkewPercent)}%` : ''}${perKey}`,
    );
    if (v.subtasks.length > 0) {
      lines.push(
        formatTable(
          ['SUBTASK', 'STATE', 'WRITTEN', 'SHARE', 'GROWTH', 'HISTORY', 'TREND', 'KEY GROUPS'],
          v.subtasks.map((s) => [
            String(s.index),
            bytes(s.stateBytes),
            bytes(s.checkpointedBytes),
            s.share === null ? '-' : `${(s.share * 100).toFixed(1)}%`,
            s.growthPerHour === null ? '-' : rateInWords(s.growthPerHour),
            s.historyGrowthPerHour === null ? '-' : rateInWords(s.historyGrowthPerHour),
            s.trend,
            s.keyGroups ? `${s.keyGroups.start}-${s.keyGroups.end}` : '-',
          ]),
        ).trimEnd(),
      );
    }
  }
  lines.push('', state.rocksdb.sentence);
  const notKnown = state.notKnown.filter((n) => n !== state.rocksdb.sentence);
  if (notKnown.length > 0) lines.push('', 'Not known:', ...notKnown.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}

function bytes(value: number | null): string {
  return value === null ? '-' : bytesInWords(value);
}

/** "10m", "1h", "2d", "90s" → ms, within what the history keeps (a week). */
export function parseStateWindow(raw: string): number {
  return parseWindowOption(raw, { minMs: 10_000, maxMs: MAX_STATE_WINDOW_MS, inWords: 'from 10s to 7d (e.g. 10m, 1h, 2d)' });
}

/** "8GiB", "500 MiB", "1.5GB", "1048576" → bytes. */
export function parseSize(raw: string): number {
  const bytes = readSize(raw);
  if (bytes === null) throw new CliError(EXIT.badArguments, `--capacity must be a size such as 8GiB, 500MiB or a number of bytes, got "${raw}".`);
  return bytes;
}

function parseKeyCount(raw: string): number {
  const n = readKeyCount(raw);
  if (n === null) throw new CliError(EXIT.badArguments, `--keys must be a whole number of keys >= 1, got "${raw}".`);
  return n;
}
