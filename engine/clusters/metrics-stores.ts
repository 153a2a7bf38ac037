import type { MetricsStoreCheck } from '../contracts/clusters.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { checkMetricsStore } from '../prometheus/prometheus-check.ts';
import type { StoreSampling } from '../sampling/store-samples.ts';
import type { ClusterRegistry } from './cluster-registry.ts';

/** How far back the first read of a watched job reaches into its cluster's metrics store. */
export const STORE_BACKFILL_MS = 60 * 60_000;
/** A store that says no scrape interval is read at this step (Prometheus' default scrape interval is 1 min; 15 s is common). */
const DEFAULT_STEP_MS = 15_000;

/**
 * The clusters' metrics stores as the rest of the engine needs them: checked for the cluster form, and for the
 * watcher, a store to read at the step its scrape interval allows (found once per store client: an edit of the
 * cluster builds a new client, checked again).
 */
export class MetricsStores {
  private readonly steps = new WeakMap<FlinkRestClient, Promise<number>>();

  constructor(private readonly registry: ClusterRegistry) {}

  /** The form's check: the store reachable, holding series of the cluster's current jobs, and how often it scrapes. */
  async check(store: FlinkRestClient, cluster: FlinkRestClient): Promise<MetricsStoreCheck> {
    const found = await checkMetricsStore(store, await currentJobIds(cluster));
    const usable = found.reachable && (found.jobsWithSeries.length > 0 || found.jobsWithoutSeries.length === 0);
    return { reachable: found.reachable, usable, version: found.version, scrapeIntervalMs: found.scrapeIntervalMs, findings: found.findings };
  }

  /** What the watcher reads a job of this cluster from; null when the cluster names no store. */
  async sampling(clusterId: string): Promise<StoreSampling | null> {
    const store = this.registry.metricsStore(clusterId);
    if (!store) return null;
    const connection = this.registry.connection(clusterId);
    let step = this.steps.get(store);
    if (!step) {
      step = connection.check().then((check) => storeStepMs(store, connection.client, check.metricsFetchIntervalMs));
      this.steps.set(store, step);
      step.catch(() => this.steps.delete(store));
    }
    return { store, stepMs: await step, backfillMs: STORE_BACKFILL_MS };
  }
}

/**
 * The step to read a store at: its scrape interval (finer steps repeat the same figures), never below the
 * JobManager's metrics fetch interval, whole seconds.
 */
export async function storeStepMs(store: FlinkRestClient, cluster: FlinkRestClient, fetchIntervalMs: number): Promise<number> {
  const found = await checkMetricsStore(store, await currentJobIds(cluster));
  const scrape = found.scrapeIntervalMs ?? DEFAULT_STEP_MS;
  return Math.max(Math.round(scrape / 1000) * 1000, fetchIntervalMs, 1000);
}

/** The cluster's running jobs, newest first: whose series the store should hold. */
async function currentJobIds(cluster: FlinkRestClient): Promise<string[]> {
  const { jobs } = await cluster.request(endpoints.jobsOverview);
  return jobs.filter((j) => j.state === 'RUNNING').sort((a, b) => b['start-time'] - a['start-time']).map((j) => j.jid);
}
