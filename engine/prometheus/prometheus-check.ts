import { printable } from '../cli/terminal-text.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { prometheusEndpoints } from './prometheus-endpoints.ts';
import { askStore } from './prometheus-request.ts';
import { liveJobsQuery, rawSamplesQuery } from './promql.ts';
import { COUNTER_METRIC, LABEL } from './reporter-series.ts';

/** The jobs looked for at most (the caller lists the newest first): their ids go into one query's URL. */
export const MAX_JOBS_CHECKED = 20;
/** How far back the spacing of samples is measured, when the store does not list its targets. */
const SPACING_WINDOW_S = 300;
/** The series the check looks for: every task of every job has it, from its first scrape. */
const PROBE_METRIC = COUNTER_METRIC.recordsIn;

/** What the cluster form says of a metrics store: each finding one sentence, in the order checked. */
export interface MetricsStoreCheck {
  reachable: boolean;
  /** As the store names it (`2.42.0`); null when it does not say. */
  version: string | null;
  /** Of the jobs asked about, those with live task series in the store now, and those without. */
  jobsWithSeries: string[];
  jobsWithoutSeries: string[];
  scrapeIntervalMs: number | null;
  /** `targets`: the store's own configuration; `samples`: the spacing of this cluster's samples. */
  scrapeIntervalFrom: 'targets' | 'samples' | null;
  findings: string[];
}

/**
 * Checks a metrics store for a cluster: reachable (and which version), holding this cluster's series (task series
 * with the `job_id`s of the cluster's current jobs: ids, never names), and how often it scrapes them (the targets'
 * `scrapeInterval` where the store lists them, else the spacing of the samples).
 */
export async function checkMetricsStore(client: FlinkRestClient, currentJobIds: readonly string[], now: () => number = Date.now): Promise<MetricsStoreCheck> {
  const check: MetricsStoreCheck = { reachable: false, version: null, jobsWithSeries: [], jobsWithoutSeries: [], scrapeIntervalMs: null, scrapeIntervalFrom: null, findings: [] };
  const time = String(now() / 1000);

  try {
    check.version = printable((await askStore(client, prometheusEndpoints.buildInfo, {})).data.version).slice(0, 40) || null;
    check.reachable = true;
  } catch (error) {
    // Some compatible stores have no build information: any answer to a constant query says it is a query API.
    if (!(error instanceof EngineError && error.info.kind === 'not-found')) return failed(check, error);
    try {
      await askStore(client, prometheusEndpoints.query, { query: 'vector(1)', time });
      check.reachable = true;
    } catch (second) {
      return failed(check, second);
    }
  }
  check.findings.push(check.version ? `${client.baseUrl} answers as a Prometheus query API, version ${check.version}.` : `${client.baseUrl} answers as a Prometheus query API (it does not say which version).`);

  const asked = currentJobIds.slice(0, MAX_JOBS_CHECKED);
  const targets: Array<{ job: string; instance: string }> = [];
  if (asked.length === 0) {
    check.findings.push('No job runs on the cluster now: whether the store holds its series is checked once one does.');
  } else {
    await orSaid(check, async () => {
      const answer = await askStore(client, prometheusEndpoints.query, { query: liveJobsQuery(PROBE_METRIC, asked), time });
      const rows = answer.data.resultType === 'vector' ? answer.data.result : [];
      const found = new Set(rows.map((r) => r.metric[LABEL.jobId]));
      check.jobsWithSeries = asked.filter((id) => found.has(id));
      check.jobsWithoutSeries = asked.filter((id) => !found.has(id));
      for (const r of rows) if (asked.includes(r.metric[LABEL.jobId])) targets.push({ job: r.metric.job ?? '', instance: r.metric.instance ?? '' });
      check.findings.push(seriesSentence(asked.length, currentJobIds.length, check.jobsWithSeries.length, check.jobsWithoutSeries));
    });
  }

  await orSaid(check, async () => {
    const fromTargets = await scrapeIntervalOfTargets(client, targets);
    if (fromTargets) {
      check.scrapeIntervalMs = fromTargets.maxMs;
      check.scrapeIntervalFrom = 'targets';
      const every = fromTargets.minMs === fromTargets.maxMs ? formatInterval(fromTargets.maxMs) : `${formatInterval(fromTargets.minMs)} to ${formatInterval(fromTargets.maxMs)}`;
      check.findings.push(`It scrapes this cluster's TaskManagers every ${every}.`);
    } else if (check.jobsWithSeries.length > 0) {
      const spacing = await sampleSpacingMs(client, check.jobsWithSeries[0], time);
      check.scrapeIntervalMs = spacing;
      check.scrapeIntervalFrom = spacing === null ? null : 'samples';
      check.findings.push(
        spacing === null
          ? 'Its scrape interval is not known: it lists no targets of this cluster, and its samples of the last 5 minutes are too few to measure.'
          : `It scrapes this cluster's TaskManagers about every ${formatInterval(spacing)} (the spacing of its samples: it lists no targets of this cluster).`,
      );
    } else {
      check.findings.push('Its scrape interval is not known: there is no series of this cluster to measure it by.');
    }
  });
  return check;
}

/** Runs one step of the check; a failure of it is its finding (one sentence), and the next step still runs. */
async function orSaid(check: MetricsStoreCheck, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    failed(check, error);
  }
}

function failed(check: MetricsStoreCheck, error: unknown): MetricsStoreCheck {
  if (!(error instanceof EngineError)) throw error;
  check.findings.push(printable(error.info.message));
  return check;
}

function seriesSentence(asked: number, running: number, withSeries: number, without: string[]): string {
  const jobs = running > asked ? `the ${asked} newest of the cluster's ${running} current jobs` : asked === 1 ? "the cluster's current job" : `the cluster's ${asked} current jobs`;
  if (without.length === 0) return `It holds task series of ${jobs}.`;
  if (withSeries === 0) {
    return `It holds no task series of ${jobs}: is Flink's PrometheusReporter configured on the TaskManagers (metrics.reporter.prom.factory.class), and does this store scrape them?`;
  }
  const named = without.slice(0, 3).join(', ') + (without.length > 3 ? ', …' : '');
  return `It holds task series of ${withSeries} of ${jobs}, none of ${named}: their TaskManagers may not be scraped.`;
}

/** The `scrapeInterval` of the targets the cluster's series come from; undefined when the store does not say. */
async function scrapeIntervalOfTargets(client: FlinkRestClient, from: Array<{ job: string; instance: string }>): Promise<{ minMs: number; maxMs: number } | undefined> {
  if (from.length === 0) return undefined;
  let active;
  try {
    active = (await askStore(client, prometheusEndpoints.targets, { state: 'active' })).data.activeTargets;
  } catch (error) {
    // Thanos, Mimir and VictoriaMetrics' single node list no targets: the samples will tell.
    if (error instanceof EngineError && ['not-found', 'forbidden', 'unexpected-response', 'server-error'].includes(error.info.kind)) return undefined;
    throw error;
  }
  const intervals = active
    .filter((t) => from.some((f) => t.labels.job === f.job && t.labels.instance === f.instance))
    .map((t) => (t.scrapeInterval ? parseGoDuration(t.scrapeInterval) : undefined))
    .filter((ms): ms is number => ms !== undefined && ms > 0);
  if (intervals.length === 0) return undefined;
  return { minMs: Math.min(...intervals), maxMs: Math.max(...intervals) };
}

/** The median spacing of the raw samples of one subtask per vertex of `jobId` over the last minutes; null if too few. */
async function sampleSpacingMs(client: FlinkRestClient, jobId: string, time: string): Promise<number | null> {
  const answer = await askStore(client, prometheusEndpoints.query, { query: rawSamplesQuery(PROBE_METRIC, jobId, SPACING_WINDOW_S), time });
  if (answer.data.resultType !== 'matrix') return null;
  const spacings = answer.data.result.flatMap((s) => {
    const times = s.values.map((p) => p.t).sort((a, b) => a - b);
    return times.slice(1).map((t, i) => t - times[i]).filter((d) => d > 0);
  });
  if (spacings.length < 2) return null;
  spacings.sort((a, b) => a - b);
  // To 100 ms: a scrape's own jitter is a few ms.
  return Math.round(spacings[Math.floor(spacings.length / 2)] / 100) * 100;
}

const GO_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_536_000_000 };

/** `1m30s` → 90000; undefined for anything else. */
export function parseGoDuration(text: string): number | undefined {
  if (!/^((\d+(\.\d+)?)(ms|s|m|h|d|w|y))+$/.test(text)) return undefined;
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w|y)/g)) ms += Number(n) * GO_UNIT_MS[unit];
  return ms;
}

function formatInterval(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(1)} s`;
  return `${+(ms / 60_000).toFixed(1)} min`;
}
