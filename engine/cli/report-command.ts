import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { appVersion } from '../app/build-identity.ts';
import { connect } from '../clusters/cluster-connections.ts';
import { DEFAULT_TIMEOUT_MS } from '../clusters/cluster-input.ts';
import { fetchAttachments, MAX_EXCERPT_LINES } from '../exports/incident-attachments.ts';
import { BUNDLE_RETENTION, collectBundle, decodeBundle, encodeBundle, importBundle, type IncidentBundle } from '../exports/incident-bundle.ts';
import { attachmentsAsked } from '../exports/job-exports.ts';
import { readSkewReport } from '../exports/read-skew-report.ts';
import { isReportFormat, renderReportChunks, REPORT_FORMATS } from '../exports/render-report.ts';
import { SKEW_REPORT_JSON_SCHEMA } from '../exports/report-schema.ts';
import type { ReportCluster } from '../exports/skew-report.ts';
import { HistoryStore } from '../history/history-store.ts';
import { OperationsJournal, publicEntry } from '../operations/journal.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { fetchJobExceptions } from '../sampling/job-exceptions.ts';
import { fetchJobGraph } from '../sampling/job-graph.ts';
import { JobWatcher } from '../sampling/job-watcher.ts';
import { escapedForTerminal, printableLines } from './terminal-text.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attachChecked, resolveJob, type ConnectionOptions } from './cluster-commands.ts';
import { appDataDir } from './data-dir.ts';
import { openHistoryStore } from './open-history-store.ts';
import { coverageInStore, coverageLine } from './history-coverage.ts';
import { parseWindow } from './diagnose-command.ts';
import { checkWritable, writeAtomically } from './write-output.ts';
import { isEndedJobState } from '../flink-rest/job-states.ts';
import { samplesFromStore, withStoreOptions, type StoreOptions } from './metrics-store-window.ts';

interface ReportOptions extends Partial<ConnectionOptions>, StoreOptions {
  job?: string;
  window: string;
  format: string;
  out?: string;
  fromBundle?: string;
  jsonSchema?: boolean;
  dataDir?: string;
  flameGraph?: boolean;
  logExcerpt?: boolean;
}


/**
 * `flink-ops report` and `flink-ops bundle`: a job's skew report (CSV, JSON, HTML) and its incident bundle, from the
 * console's history whenever it has samples of the job in the window, else from the cluster's metrics store
 * (`--prometheus`, first when given, or the one the app saved with the cluster), else by sampling it for the window now;
 * `--from-bundle` makes the report again from a saved bundle, the same bytes each time. Output is written to a
 * temporary file and renamed: an interrupted or failed run leaves no partial file behind.
 */
export function registerReportCommands(program: Command): void {
  const connection = (command: Command) =>
    withStoreOptions(command)
      .option('--url <url>', 'REST URL of the JobManager, e.g. http://127.0.0.1:8081')
      .option('--job <id|name>', 'job id (32 hex) or job name')
      .option('--window <duration>', 'how far back: 60s, 5m, 1h (from the history as far as it has the job, sampled now when it has nothing)', '60s')
      .option('--data-dir <dir>', "the app's data folder, to read its history of watched jobs (default: the app's own, if any)")
      .option('--timeout <ms>', 'request timeout in ms', String(DEFAULT_TIMEOUT_MS))
      .option('--ca-file <pem>', 'extra CA certificates for https')
      .addHelpText('after', '\nCredentials: FLINK_OPS_TOKEN (bearer) or FLINK_OPS_USER + FLINK_OPS_PASSWORD (basic), from the environment.');

  connection(
    withAttachmentOptions(
      program
        .command('report')
        .description('A skew report of a job over a window: per-subtask and per-vertex figures, the root cause, checkpoints')
        .option('--format <format>', `${REPORT_FORMATS.join(' | ')} (csv: one row per subtask; vertices-csv: one row per vertex)`, 'csv')
        .option('--out <file>', 'write to this file (default: stdout)')
        .option('--from-bundle <file>', "make the report from an incident bundle instead of a cluster (HTML: with the bundle's flame graph and log excerpt)")
        .option('--json-schema', 'print the JSON Schema of --format json and exit'),
      'the HTML report',
    ),
  ).action(async (options: ReportOptions) => {
    if (options.jsonSchema) {
      process.stdout.write(`${JSON.stringify(SKEW_REPORT_JSON_SCHEMA, null, 2)}\n`);
      return;
    }
    const format = options.format;
    if (!isReportFormat(format)) throw new CliError(EXIT.badArguments, `--format must be one of ${REPORT_FORMATS.join(', ')}, not "${format}".`);
    const asked = attachmentsAsked(options);
    if (asked && format !== 'html') throw new CliError(EXIT.badArguments, '--flame-graph and --log-excerpt go into the HTML report: add --format html (or save them in a bundle).');
    if (asked && options.fromBundle) throw new CliError(EXIT.badArguments, '--from-bundle shows the flame graph and log excerpt the bundle holds: leave out --flame-graph and --log-excerpt.');
    if (options.out) checkWritable(options.out);
    const chunks = options.fromBundle
      ? await reportFromBundle(readBundle(options.fromBundle), format)
      : await withWindowStore(options, async ({ store, cluster, jobId, windowMs, endAt, client }) => {
          const report = readSkewReport(store, cluster, jobId, windowMs, { endAt });
          const attachments = asked ? await fetchAttachments(client, cluster.id, jobId, report.finding, options) : undefined;
          return renderReportChunks(report, format, attachments);
        });
    if (options.out) writeAtomically(options.out, chunks);
    // To a file the report is written as is; to stdout, nothing in it acts on a terminal.
    else for (const chunk of chunks) process.stdout.write(escapedForTerminal(chunk));
  });

  connection(
    withAttachmentOptions(
      program
        .command('bundle')
        .description('Save an incident bundle of a job: its samples over the window, checkpoints, exceptions, journal entries, graph and report')
        .requiredOption('--out <file>', 'the bundle file (.flinkops-bundle)'),
      'the bundle',
    ),
  ).action(async (options: ReportOptions & { out: string }) => {
    checkWritable(options.out);
    const bundle = await withWindowStore(options, async ({ store, cluster, jobId, windowMs, endAt, client, appStore }) => {
      const report = readSkewReport(store, cluster, jobId, windowMs, { endAt });
      const [jobGraph, exceptions, attachments] = await Promise.all([
        fetchJobGraph(client, cluster.id, jobId).catch(() => null),
        fetchJobExceptions(client, cluster.id, jobId).catch(() => null),
        fetchAttachments(client, cluster.id, jobId, report.finding, options),
      ]);
      const journal = appStore ? new OperationsJournal(appStore).list({ jobId, limit: 1000 }).map(publicEntry) : [];
      return collectBundle(store, report, windowMs, { savedBy: appVersion(), jobGraph, exceptions, journal, attachments });
    });
    writeAtomically(options.out, encodeBundle(bundle));
    // The attachments asked for, each included or why not: what the manifest says.
    const lines = (bundle.manifest?.attachments ?? []).map((a) => `  ${a.name === 'flameGraph' ? 'Flame graph' : 'Log excerpt'}: ${a.description}`);
    process.stderr.write(printableLines([`Saved the incident bundle to ${options.out}.`, ...lines].join('\n')) + '\n');
  });
}

/** `--flame-graph` and `--log-excerpt`: the finding's subtask's, read from the cluster into `where`. */
function withAttachmentOptions(command: Command, where: string): Command {
  return command
    .option('--flame-graph', `add Flink's flame graph of the subtask the finding names to ${where} (Flink samples it for about 5 s; where flame graphs are off, ${where} says so)`)
    .option('--log-excerpt', `add that subtask's lines in its TaskManager's log to ${where} (its last ${MAX_EXCERPT_LINES} lines at most)`);
}

/** Reads and checks a bundle file: exit 2 for a file that is missing or not a bundle. */
export function readBundle(file: string): IncidentBundle {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new CliError(EXIT.badArguments, `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  return decodeBundle(bytes, file);
}

/**
 * A bundle's report, made again from its samples (imported into a throw-away store) by the same code as live; the
 * HTML with the flame graph and log excerpt the bundle holds.
 */
export async function reportFromBundle(bundle: IncidentBundle, format: (typeof REPORT_FORMATS)[number]): Promise<Iterable<string>> {
  return withBundleStore(bundle, (store) => renderReportChunks(readSkewReport(store, bundle.cluster, bundle.jobId, bundle.windowMs), format, bundle.attachments));
}

/** Imports a bundle into a history store in a temporary folder, runs `work` on it, removes the folder. */
export async function withBundleStore<T>(bundle: IncidentBundle, work: (store: HistoryStore, dir: string) => T | Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-bundle-'));
  const store = HistoryStore.open(dir, { retention: BUNDLE_RETENTION });
  try {
    await importBundle(store, bundle);
    return await work(store, dir);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface WindowStore {
  store: HistoryStore;
  cluster: ReportCluster;
  jobId: string;
  windowMs: number;
  /** Where the window ends: the newest sample, or now when the history has only part of the window. */
  endAt?: number;
  client: Awaited<ReturnType<typeof attachChecked>>['client'];
  /** The app's history, when the window came from it (for the journal). */
  appStore: HistoryStore | undefined;
}

/**
 * A history store holding the job's window: the app's, whenever it has samples of the job inside the window (all of
 * it while the app watches the job, else the part it recorded, said in one line on stderr), else a temporary one the
 * CLI fills by sampling the job for the window now.
 */
async function withWindowStore<T>(options: ReportOptions, work: (w: WindowStore) => T | Promise<T>): Promise<T> {
  if (!options.url) throw new CliError(EXIT.badArguments, "required option '--url <url>' not specified");
  if (!options.job) throw new CliError(EXIT.badArguments, "required option '--job <id|name>' not specified");
  const windowMs = parseWindow(options.window);
  const { client, check } = await attachChecked({ url: options.url, timeout: options.timeout ?? String(DEFAULT_TIMEOUT_MS), caFile: options.caFile });
  const job = resolveJob(await fetchJobs(client), options.job);
  const ended = isEndedJobState(job.state);

  if (options.prometheus) {
    const fromStore = await samplesInTemporaryStore(options, client, job.id, windowMs, check, work);
    if (fromStore) return fromStore.result;
  }
  const appStore = !options.dataDir && !existsSync(path.join(appDataDir(), 'history')) ? undefined : openHistoryStore(options.dataDir);
  try {
    const now = Date.now();
    const coverage = appStore ? coverageInStore(appStore, job.id, windowMs, check.metricsFetchIntervalMs, now, ended) : undefined;
    if (appStore && coverage) {
      const line = coverageLine(coverage, windowMs, now);
      if (line) process.stderr.write(line);
      const cluster = { id: coverage.clusterId, name: null, url: options.url, flinkVersion: check.flinkVersion };
      return await work({ store: appStore, cluster, jobId: job.id, windowMs, endAt: coverage.endAt, client, appStore });
    }
  } finally {
    await appStore?.close();
  }
  if (ended) throw new CliError(EXIT.failure, `The job ${job.id} has ${job.state} and the console has no history of it: there is nothing left to sample.`);
  if (!options.prometheus) {
    const fromStore = await samplesInTemporaryStore(options, client, job.id, windowMs, check, work);
    if (fromStore) return fromStore.result;
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-report-'));
  const store = HistoryStore.open(dir, { retention: BUNDLE_RETENTION });
  try {
    const cluster = { id: options.url, name: null, url: options.url, flinkVersion: check.flinkVersion };
    await sampleWindow(store, cluster.id, connect(client), job.id, windowMs, check.metricsFetchIntervalMs);
    // The samples were taken for this window; requests take time, so they may span a little more: the report covers them all.
    const { firstSampleAt, lastSampleAt } = store.samples.job(cluster.id, job.id)!;
    return await work({ store, cluster, jobId: job.id, windowMs: Math.max(windowMs, lastSampleAt - firstSampleAt), client, appStore: undefined });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The window from the cluster's metrics store, in a temporary history store; undefined when there is no store to read. */
async function samplesInTemporaryStore<T>(
  options: ReportOptions & { url?: string },
  client: FlinkRestClient,
  jobId: string,
  windowMs: number,
  check: { flinkVersion: string; metricsFetchIntervalMs: number },
  work: (w: WindowStore) => T | Promise<T>,
): Promise<{ result: T } | undefined> {
  const read = await samplesFromStore(options, client, options.url!, jobId, windowMs, check.metricsFetchIntervalMs);
  if (!read) return undefined;
  process.stderr.write(`Read ${read.source}.\n`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-report-'));
  const store = HistoryStore.open(dir, { retention: BUNDLE_RETENTION });
  try {
    for (const sample of read.samples) await store.samples.append(sample);
    const cluster = { id: options.url!, name: null, url: options.url!, flinkVersion: check.flinkVersion };
    return { result: await work({ store, cluster, jobId, windowMs, endAt: read.samples.at(-1)!.t, client, appStore: undefined }) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Samples the job into `store` for the window, at the cluster's metrics fetch interval, as the app's watch would. */
async function sampleWindow(store: HistoryStore, clusterId: string, connection: ReturnType<typeof connect>, jobId: string, windowMs: number, intervalMs: number): Promise<void> {
  const interval = Math.max(1000, Math.min(intervalMs, windowMs / 2));
  const count = Math.floor(windowMs / interval) + 1;
  process.stderr.write(`Sampling the job for ${Math.round(windowMs / 1000)} s (${count} samples, one every ${Math.round(interval / 1000)} s)...\n`);
  const watcher = new JobWatcher({ history: store, connection: () => connection });
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    const wait = started + i * interval - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await watcher.sampleNow(clusterId, jobId);
    if (store.events.list(clusterId, jobId).some((e) => e.kind === 'job-gone')) {
      throw new CliError(EXIT.jobNotFound, `The job ${jobId} disappeared from the cluster while it was being sampled.`);
    }
  }
  if (!store.samples.job(clusterId, jobId)) throw new CliError(EXIT.clusterUnavailable, `No sample of job ${jobId} could be taken: the cluster did not answer.`);
}
