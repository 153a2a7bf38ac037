import type { Command } from 'commander';
import { formatSpan } from '../analysis/root-cause.ts';
import { storeStepMs } from '../clusters/metrics-stores.ts';
import { createMetricsStoreClient, parseMetricsStoreUrl, type StoredMetricsStore } from '../clusters/metrics-store-settings.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { JobSample } from '../history/job-sample.ts';
import { readWindow } from '../prometheus/prometheus-history.ts';
import { jobLayoutOf } from '../prometheus/job-layout.ts';
import { CliError, EXIT } from './cli-error.ts';
import { openClusterStore } from './data-dir.ts';

export interface StoreOptions {
  prometheus?: string;
  prometheusCaFile?: string;
  dataDir?: string;
}

/** `--prometheus` and its CA: the window read from the cluster's metrics store instead of sampled. */
export function withStoreOptions(command: Command): Command {
  return command
    .option('--prometheus <url>', "read the window from this Prometheus-compatible query API (default: the store saved with the cluster in the app, if any)")
    .option('--prometheus-ca-file <pem>', 'extra CA certificates for an https --prometheus')
    .addHelpText('after', 'Metrics store credentials: FLINK_OPS_PROMETHEUS_TOKEN (bearer) or FLINK_OPS_PROMETHEUS_USER + FLINK_OPS_PROMETHEUS_PASSWORD (basic), from the environment.');
}

/**
 * The store to read, when there is one: `--prometheus`, else the store the app saved with a cluster of this URL.
 * Credentials come from the environment only: the app's secrets stay in the app.
 */
function storeFor(options: StoreOptions, clusterUrl: string, timeoutMs: number): FlinkRestClient | undefined {
  const env = process.env;
  const auth: StoredMetricsStore['auth'] = env.FLINK_OPS_PROMETHEUS_TOKEN
    ? { kind: 'bearer' }
    : env.FLINK_OPS_PROMETHEUS_USER
      ? { kind: 'basic', username: env.FLINK_OPS_PROMETHEUS_USER }
      : { kind: 'none' };
  const secret = env.FLINK_OPS_PROMETHEUS_TOKEN ?? env.FLINK_OPS_PROMETHEUS_PASSWORD;
  if (options.prometheus) {
    return createMetricsStoreClient({ url: parseMetricsStoreUrl(options.prometheus), auth, ...(options.prometheusCaFile ? { caFile: options.prometheusCaFile } : {}) }, secret, timeoutMs);
  }
  let saved: StoredMetricsStore | undefined;
  try {
    saved = openClusterStore(options.dataDir).list().find((c) => c.url === clusterUrl)?.metricsStore;
  } catch {
    return undefined; // no app settings to read: sample, as without a store
  }
  if (!saved) return undefined;
  return createMetricsStoreClient({ ...saved, auth: saved.auth.kind === 'none' ? saved.auth : auth }, secret, timeoutMs);
}

/**
 * The job's window from its cluster's metrics store, ending now, at the store's step; undefined when there is no
 * store to read. What the store lacks in the window is said on stderr, in one line each.
 */
export async function samplesFromStore(options: StoreOptions, rest: FlinkRestClient, clusterId: string, jobId: string, windowMs: number, fetchIntervalMs: number): Promise<{ samples: JobSample[]; source: string } | undefined> {
  const store = storeFor(options, rest.baseUrl, rest.timeoutMs);
  if (!store) return undefined;
  try {
    const stepMs = await storeStepMs(store, rest, fetchIntervalMs);
    const details = await rest.request(endpoints.jobDetails, { jobid: jobId });
    const now = Date.now();
    const to = Math.floor((now - stepMs) / stepMs) * stepMs;
    const from = Math.ceil((to - windowMs) / stepMs) * stepMs;
    // A series' `tm_id` is matched to the TaskManagers the REST API lists: a hot subtask's TaskManager named as elsewhere.
    const taskManagers = await rest.request(endpoints.taskManagers).then((info) => info.taskmanagers.map((tm) => ({ id: tm.id, endpoint: null })), () => []);
    const read = await readWindow(store, jobLayoutOf(clusterId, details, taskManagers), from, to, stepMs);
    const samples = read.samples.filter((s) => s.vertices.some((v) => v.subtasks !== null));
    if (samples.length < 2) {
      throw new CliError(EXIT.failure, `The metrics store ${store.baseUrl} holds no figures of job ${jobId} in the last ${formatSpan(windowMs)}: is it scraping the cluster's PrometheusReporter?`);
    }
    for (const line of read.missing) process.stderr.write(`${line}\n`);
    return { samples, source: `from the metrics store ${store.baseUrl}, ${samples.length} samples every ${formatSpan(stepMs)}` };
  } catch (error) {
    if (error instanceof EngineError) throw new CliError(EXIT.clusterUnavailable, `Metrics store: ${error.info.message}`);
    throw error;
  }
}
