import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { diagnoseSamples, diagnoseWindow } from '../analysis/diagnose-job.ts';
import { newestCheckpointOutliers } from '../history/views/checkpoint-views.ts';
import { DIAGNOSIS_JSON_SCHEMA } from '../analysis/diagnosis-schema.ts';
import type { JobDiagnosis } from '../contracts/diagnosis.ts';
import { MAX_WINDOW_MS, MIN_WINDOW_MS } from '../diagnosis/history-windows.ts';
import { readJobWindow } from '../diagnosis/read-window.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { isEndedJobState } from '../flink-rest/job-states.ts';
import { formatSpan } from '../analysis/root-cause.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { JobSample } from '../history/job-sample.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { sampleJob } from '../sampling/sample-job.ts';
import { fetchJobGraph } from '../sampling/job-graph.ts';
import { CurrentGraphs } from '../diagnosis/current-graphs.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attachChecked, resolveJob, type ConnectionOptions } from './cluster-commands.ts';
import { DEFAULT_TIMEOUT_MS } from '../clusters/cluster-input.ts';
import { appDataDir } from './data-dir.ts';
import { openHistoryStore } from './open-history-store.ts';
import { coverageInStore, coverageLine } from './history-coverage.ts';
import { formatDiagnosis } from './format-diagnosis.ts';
import { samplesFromStore, withStoreOptions, type StoreOptions } from './metrics-store-window.ts';
import { printableLines, terminalJson } from './terminal-text.ts';
import { parseWindowOption } from './window-option.ts';

interface DiagnoseOptions extends Partial<ConnectionOptions>, StoreOptions {
  job?: string;
  window: string;
  json?: boolean;
  jsonSchema?: boolean;
  dataDir?: string;
}

/**
 * `flink-ops diagnose`: the root cause in one sentence, the hot subtasks per vertex with Flink's skew figures, and
 * what was not known, over a window. From the console's history whenever it has samples of the job in the window (the
 * app keeps a shown or pinned job sampled; a job it no longer watches keeps the samples it took), else from the
 * cluster's metrics store (`--prometheus`, which comes first when given, or the one the app saved with the cluster),
 * else by sampling the job for the window now. Exit 0 whatever it finds.
 */
export function registerDiagnoseCommand(program: Command): void {
  withStoreOptions(program.command('diagnose'))
    .description('Why is a job slow: the backpressure root cause, per-subtask skew and hot subtasks over a window')
    .option('--url <url>', 'REST URL of the JobManager, e.g. http://127.0.0.1:8081')
    .option('--job <id|name>', 'job id (32 hex) or job name')
    .option('--window <duration>', 'how far back to look: 60s, 5m, 1h (from the history as far as it has the job, sampled now when it has nothing)', '60s')
    .option('--json', 'print the diagnosis as JSON (schema: --json-schema)')
    .option('--json-schema', 'print the JSON Schema of --json and exit')
    .option('--data-dir <dir>', "the app's data folder, to read its history of watched jobs (default: the app's own, if any)")
    .option('--timeout <ms>', 'request timeout in ms', String(DEFAULT_TIMEOUT_MS))
    .option('--ca-file <pem>', 'extra CA certificates for https')
    .addHelpText('after', '\nCredentials: FLINK_OPS_TOKEN (bearer) or FLINK_OPS_USER + FLINK_OPS_PASSWORD (basic), from the environment.')
    .action(async (options: DiagnoseOptions) => {
      if (options.jsonSchema) {
        process.stdout.write(`${JSON.stringify(DIAGNOSIS_JSON_SCHEMA, null, 2)}\n`);
        return;
      }
      if (!options.url) throw new CliError(EXIT.badArguments, "required option '--url <url>' not specified");
      if (!options.job) throw new CliError(EXIT.badArguments, "required option '--job <id|name>' not specified");
      const windowMs = parseWindow(options.window);
      const { client, check } = await attachChecked({ url: options.url, timeout: options.timeout ?? String(DEFAULT_TIMEOUT_MS), caFile: options.caFile });
      const job = resolveJob(await fetchJobs(client), options.job);

      let diagnosis: JobDiagnosis | undefined;
      let source = '';
      const fromStore = async () => {
        const read = await samplesFromStore(options, client, options.url!, job.id, windowMs, check.metricsFetchIntervalMs);
        if (read) ({ diagnosis, source } = { diagnosis: diagnoseSamples(read.samples, windowMs), source: read.source });
      };
      if (options.prometheus) await fromStore();
      const store = diagnosis ? undefined : openStore(options.dataDir);
      try {
        const recorded = store ? fromHistory(store, job.id, windowMs, check.metricsFetchIntervalMs, isEndedJobState(job.state)) : undefined;
        if (recorded) ({ diagnosis, source } = recorded);
      } finally {
        await store?.close();
      }
      if (!diagnosis && !isEndedJobState(job.state)) await fromStore();
      if (!diagnosis) {
        const samples = await sampleWindow(client, options.url, job.id, windowMs, check.metricsFetchIntervalMs);
        diagnosis = diagnoseSamples(samples, windowMs);
        source = 'sampled now';
      }
      // No health verdict without evidence, nor while Flink reports a vertex HIGH: its current figures have the last word.
      const graphs = new CurrentGraphs(() => fetchJobGraph(client, options.url!, job.id));
      diagnosis = await graphs.diagnose(diagnosis);
      process.stdout.write(options.json ? terminalJson(diagnosis) : printableLines(formatDiagnosis(diagnosis, source)));
    });
}

/** "60s", "5m", "1h", "90000" (ms) → ms, within what the history keeps. */
export function parseWindow(raw: string): number {
  return parseWindowOption(raw, { minMs: MIN_WINDOW_MS, maxMs: MAX_WINDOW_MS, inWords: 'from 10s to 24h (e.g. 60s, 5m, 1h)' });
}

/** The app's history, when asked for or when the app has one; never created by the CLI on its own. */
function openStore(dataDir: string | undefined): HistoryStore | undefined {
  if (!dataDir && !existsSync(path.join(appDataDir(), 'history'))) return undefined;
  return openHistoryStore(dataDir);
}

/**
 * The window from the app's history, whenever it has samples inside it: all of it while the app watches the job, else
 * the part it recorded, said in one line on stderr. Undefined when it has none: then the job is sampled now.
 */
function fromHistory(store: HistoryStore, jobId: string, windowMs: number, intervalMs: number, ended: boolean): { diagnosis: JobDiagnosis; source: string } | undefined {
  const now = Date.now();
  const coverage = coverageInStore(store, jobId, windowMs, intervalMs, now, ended);
  if (!coverage) return undefined;
  const line = coverageLine(coverage, windowMs, now);
  if (line) process.stderr.write(line);
  const window = readJobWindow(store, coverage.clusterId, jobId, coverage.endAt - windowMs, coverage.endAt);
  const checkpoints = window.samples > 0 ? newestCheckpointOutliers(store, coverage.clusterId, jobId, window.from, window.to) : null;
  const source = coverage.whole ? "from the console's history" : `from the console's history, ${formatSpan(coverage.to - coverage.from)} of the ${formatSpan(windowMs)} asked`;
  return { diagnosis: diagnoseWindow(window, windowMs, checkpoints), source };
}

/** Samples the job for the window at the cluster's metrics fetch interval (faster returns the same figures). */
async function sampleWindow(client: FlinkRestClient, clusterId: string, jobId: string, windowMs: number, intervalMs: number): Promise<JobSample[]> {
  const interval = Math.max(1000, Math.min(intervalMs, windowMs / 2));
  const count = Math.floor(windowMs / interval) + 1;
  process.stderr.write(`Sampling the job for ${Math.round(windowMs / 1000)} s (${count} samples, one every ${Math.round(interval / 1000)} s)...\n`);
  const samples: JobSample[] = [];
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    const wait = started + i * interval - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      samples.push(await sampleJob(client, clusterId, jobId, samples[samples.length - 1]));
    } catch (error) {
      if (error instanceof EngineError && error.info.kind === 'not-found' && error.info.status === 404) {
        throw new CliError(EXIT.jobNotFound, `The job ${jobId} disappeared from the cluster while it was being sampled.`);
      }
      throw error;
    }
  }
  return samples;
}
