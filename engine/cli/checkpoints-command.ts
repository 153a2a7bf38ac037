import type { Command } from 'commander';
import type { CheckpointDetail, CheckpointView, JobCheckpoints, StatsSummary } from '../contracts/history.ts';
import { bytesInWords, durationInWords } from '../analysis/in-words.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { checkpointDetail, jobCheckpoints } from '../history/views/checkpoint-views.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { fetchCheckpointDetail, fetchJobCheckpoints } from '../sampling/job-checkpoints.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attach, resolveJob, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { openHistoryStore } from './open-history-store.ts';
import { findRecording } from './find-recording.ts';
import { formatTable } from './format-table.ts';
import { printable, printableLines, terminalJson } from './terminal-text.ts';

interface CheckpointsOptions extends ConnectionOptions {
  job: string;
  json?: boolean;
  last: string;
  dataDir?: string;
}

/** What `flink-ops checkpoints` prints (`--json`: this document). */
export interface CheckpointsReport {
  /** `history`: the console's store (the job is or was watched); `cluster`: what the JobManager still remembers. */
  source: 'history' | 'cluster';
  /** Why the report comes from the history although the cluster was asked (it did not answer), if so. */
  note: string | null;
  job: { id: string; name: string | null; state: string | null };
  checkpoints: JobCheckpoints;
  /** The newest completed checkpoint with details: its subtasks that stood out, in one sentence and as data. */
  detail: Pick<CheckpointDetail, 'checkpoint' | 'outliers' | 'finding'> | null;
}

/**
 * `flink-ops checkpoints --url U --job J`: the summary, the last N checkpoints and the subtasks that stood out. From
 * the console's history when it recorded the job (it keeps checkpoints beyond the JobManager's last 10, and across
 * JobManager failovers), else from the cluster (1 + 1 + V requests).
 */
export function registerCheckpointsCommand(program: Command): void {
  withConnection(program.command('checkpoints').description('Show a job\'s checkpoints: summary, the last N, and the subtasks that stood out'))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .option('--last <n>', 'how many of the newest checkpoints to list', '10')
    .option('--json', 'print the report as JSON')
    .option('--data-dir <dir>', 'the app\'s data folder, whose history is read when the job is recorded (default: the app\'s own)')
    .action(async (options: CheckpointsOptions) => {
      const last = Number(options.last);
      if (!Number.isInteger(last) || last < 1 || last > 1000) throw new CliError(EXIT.badArguments, `--last must be a whole number from 1 to 1000, not "${options.last}".`);
      const history = openHistoryStore(options.dataDir);
      try {
        const report = await checkpointsReport(options, history, last);
        process.stdout.write(options.json ? terminalJson(report) : printableLines(formatReport(report)));
      } finally {
        await history.close();
      }
    });
}

async function checkpointsReport(options: CheckpointsOptions, history: HistoryStore, last: number): Promise<CheckpointsReport> {
  let client: FlinkRestClient | undefined;
  let unreachable: EngineError | undefined;
  try {
    client = await attach(options);
  } catch (error) {
    if (!(error instanceof EngineError) || error.info.kind === 'invalid-url') throw error;
    unreachable = error;
  }
  let live;
  let notFound: CliError | undefined;
  try {
    live = client ? resolveJob(await fetchJobs(client), options.job) : undefined;
  } catch (error) {
    // A job the cluster no longer knows may still be in the history.
    if (!(error instanceof CliError) || error.exitCode !== EXIT.jobNotFound) throw error;
    notFound = error;
  }
  const recording = findRecording(history, options.url, options.dataDir, live?.id ?? options.job);
  if (recording) {
    const checkpoints = jobCheckpoints(history, recording.clusterId, recording.jobId, last, history.watches.get(recording.clusterId, recording.jobId) ?? null);
    const newest = [...checkpoints.checkpoints].reverse().find((c) => c.status === 'COMPLETED' && c.details === 'stored');
    const detail = newest ? checkpointDetail(history, recording.clusterId, recording.jobId, newest.id, newest.triggerTimestamp) : null;
    return {
      source: 'history',
      note: unreachable
        ? `The cluster did not answer (${unreachable.info.message}); this is the console's recording.`
        : notFound
          ? 'The cluster no longer knows this job; this is the console\'s recording.'
          : null,
      job: { id: recording.jobId, name: checkpoints.jobName, state: live?.state ?? history.samples.job(recording.clusterId, recording.jobId)?.lastState ?? null },
      checkpoints,
      detail: detail && { checkpoint: detail.checkpoint, outliers: detail.outliers, finding: detail.finding },
    };
  }
  if (!client || !live) throw notFound ?? unreachable!;
  const checkpoints = await fetchJobCheckpoints(client, options.url, live.id, live.name, last);
  const newest = [...checkpoints.records].reverse().find((c) => c.status === 'COMPLETED');
  let detail: CheckpointsReport['detail'] = null;
  if (newest) {
    const { vertices } = await client.request(endpoints.jobDetails, { jobid: live.id });
    const full = await fetchCheckpointDetail(client, options.url, live.id, newest, vertices);
    detail = { checkpoint: full.checkpoint, outliers: full.outliers, finding: full.finding };
  }
  const { records: _records, ...view } = checkpoints;
  return { source: 'cluster', note: null, job: { id: live.id, name: live.name, state: live.state }, checkpoints: view, detail };
}

function formatReport(report: CheckpointsReport): string {
  const { job, checkpoints: c, detail } = report;
  const lines: string[] = [];
  const source = report.source === 'history' ? `from the console's history (${c.inHistory} checkpoints kept)` : 'from the cluster';
  lines.push(`${printable(`${job.name ?? job.id} (${job.id})${job.state ? ` ${job.state}` : ''}`)}: checkpoints ${source}`);
  if (report.note) lines.push(report.note);
  if (c.flink) {
    const n = c.flink.counts;
    lines.push(`Counts (Flink, since the JobManager started the job): ${n.completed} completed, ${n.failed} failed, ${n.inProgress} in progress, ${n.restored} restored`);
    const s = c.flink.summary;
    const rows: Array<[string, StatsSummary | null, (v: number) => string]> = [
      ['end-to-end', s.endToEndDurationMs, durationInWords],
      ['checkpointed', s.checkpointedBytes, bytesInWords],
      ['full size', s.stateBytes, bytesInWords],
      ['processed', s.processedBytes, bytesInWords],
      ['persisted', s.persistedBytes, bytesInWords],
    ];
    lines.push('', formatTable(['SUMMARY', 'MIN', 'AVG', 'MAX', 'P99'], rows.map(([label, stats, f]) => [label, ...(['min', 'avg', 'max', 'p99'] as const).map((k) => (stats?.[k] == null ? '-' : f(stats[k])))])).trimEnd());
  }
  if (c.checkpoints.length === 0) {
    lines.push('', c.emptyReason ?? 'No checkpoints.');
  } else {
    lines.push('', `Last ${c.checkpoints.length}:`);
    lines.push(
      formatTable(
        ['ID', 'STATUS', 'KIND', 'TRIGGERED', 'END-TO-END', 'CHECKPOINTED', 'FULL SIZE', 'PROCESSED', 'PERSISTED'],
        [...c.checkpoints].reverse().map((k) => [
          String(k.id),
          k.status,
          k.isSavepoint ? `savepoint${k.savepointFormat ? ` (${k.savepointFormat.toLowerCase()})` : ''}` : 'checkpoint',
          timestamp(k.triggerTimestamp),
          k.endToEndDurationMs === null ? '-' : durationInWords(k.endToEndDurationMs),
          bytes(k.checkpointedBytes),
          bytes(k.stateBytes),
          bytes(k.processedBytes),
          bytes(k.persistedBytes),
        ]),
      ).trimEnd(),
    );
  }
  lines.push('');
  lines.push(`Latest completed: ${describe(c.latestCompleted)}`);
  lines.push(`Latest failed: ${c.latestFailed ? `${describe(c.latestFailed)}: ${c.latestFailed.failureMessage ?? 'no message'}${c.latestFailed.failureExplanation ? ` ${c.latestFailed.failureExplanation}` : ''}` : 'none'}`);
  lines.push(`Restored: ${c.restored ? `${c.restored.isSavepoint ? 'savepoint' : 'checkpoint'} ${c.restored.id} at ${timestamp(c.restored.restoreTimestamp)}${c.restored.externalPath ? ` from ${c.restored.externalPath}` : ''}` : 'none'}`);
  if (detail) {
    lines.push('', `Checkpoint ${detail.checkpoint.id}: ${detail.finding}`);
    for (const outlier of detail.outliers.slice(1)) lines.push(`  also: ${outlier.sentence}`);
  }
  return `${lines.join('\n')}\n`;
}

function describe(checkpoint: CheckpointView | null): string {
  if (!checkpoint) return 'none';
  const e2e = checkpoint.endToEndDurationMs === null ? '' : ` in ${durationInWords(checkpoint.endToEndDurationMs)}`;
  return `#${checkpoint.id} triggered ${timestamp(checkpoint.triggerTimestamp)}${e2e}${checkpoint.stateBytes === null ? '' : `, ${bytesInWords(checkpoint.stateBytes)}`}`;
}

function bytes(value: number | null): string {
  return value === null ? '-' : bytesInWords(value);
}

/** Local time, as the operator's terminal shows it: `2026-11-30 03:02:20`. */
function timestamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
