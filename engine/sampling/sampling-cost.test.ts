import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createClient, type ClusterConnection } from '../clusters/cluster-connections.ts';
import { CurrentGraphs } from '../diagnosis/current-graphs.ts';
import { readJobWindow } from '../diagnosis/read-window.ts';
import { diagnoseWindow } from '../analysis/diagnose-job.ts';
import { HistoryStore } from '../history/history-store.ts';
import { jobMetricsHistory } from '../history/views/metrics-history.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { ManualClock } from '../local/time/clock.ts';
import { fetchJobGraph } from './job-graph.ts';
import { JobWatcher } from './job-watcher.ts';

/**
 * What the history costs the JobManager, counted at the unit level over 5 simulated minutes of the 3-vertex
 * hot-tenant job (checkpoints every 10 s) on the local engine: the sampler's own requests per minute, with a job page
 * open (its graph refreshed every interval, as the page does) and without. The side-by-side bench against a real Flink
 * and its Web UI is `npm run bench`.
 */
const dirs = tempDirs('flink-ops-sampling-cost-');
const T0 = Date.UTC(2026, 10, 30, 3, 0, 0);
const INTERVAL_MS = 10_000;
const MINUTES = 5;
let handle: LocalEngineHandle;
let jobId: string;

beforeAll(async () => {
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(T0), scenario: 'hot-tenant', checkpointDir: dirs.make() });
  jobId = [...handle.engine.cluster.jobs.keys()][0];
  handle.engine.advance(60_000); // past the shift at 30 s: acme's subtask 12 of tenant-cost saturates
}, 60_000);

afterAll(async () => {
  await handle?.close();
  dirs.removeAll();
});

const connectionTo = (url: string): ClusterConnection => connect(createClient({ name: 'local', url, auth: { kind: 'none' }, timeoutMs: 5_000 }, undefined));

interface Run {
  store: HistoryStore;
  requestsPerMinute: number;
  bytesPerMinute: number;
  pageRequestsPerMinute: number;
}

/** Samples as the loop does, one interval apart; with `pageOpen`, a page fetches the graph 1 s before each sample. */
async function simulate(pageOpen: boolean): Promise<Run> {
  const now = () => handle.engine.now();
  const store = HistoryStore.open(dirs.make(), { now });
  const sampler = connectionTo(handle.url);
  const page = connectionTo(handle.url);
  const graphs = new CurrentGraphs((c, j) => fetchJobGraph(page.client, c, j), now);
  const watcher = new JobWatcher({ history: store, connection: () => sampler, now, pageGraphs: graphs });
  const pageBefore = page.client.stats.requests;
  // A first sample and the warm-up one, then five minutes of the loop's samples.
  await watcher.sampleNow('local', jobId, { planned: true });
  handle.engine.advance(2_000);
  await watcher.sampleNow('local', jobId, { planned: true });
  const from = now();
  const before = { ...sampler.client.stats };
  for (let tick = 0; tick < (MINUTES * 60_000) / INTERVAL_MS; tick++) {
    handle.engine.advance(INTERVAL_MS - 1_000);
    if (pageOpen) graphs.remember(await fetchJobGraph(page.client, 'local', jobId));
    handle.engine.advance(1_000);
    await watcher.sampleNow('local', jobId, { planned: true });
  }
  expect(now() - from).toBe(MINUTES * 60_000);
  return {
    store,
    requestsPerMinute: (sampler.client.stats.requests - before.requests) / MINUTES,
    bytesPerMinute: (sampler.client.stats.bytes - before.bytes) / MINUTES,
    pageRequestsPerMinute: (page.client.stats.requests - pageBefore) / MINUTES,
  };
}

describe('the frugal sampler\'s cost on a 3-vertex job', () => {
  it('with a job page open: at most 22 requests a minute (the page\'s graph is shared), a point per interval in the charts, a verdict\'s evidence in a 1-minute window', async () => {
    const run = await simulate(true);
    try {
      // Per minute: three per-subtask readings of 3 vertices (2 requests each), /checkpoints, and one settled
      // checkpoint's details (1 + V) every 2 minutes: 18 + 1 + 2.
      expect(run.requestsPerMinute).toBeLessThanOrEqual(22);
      // The page's graph: 1 + V every interval.
      expect(run.pageRequestsPerMinute).toBe(4 * 6);

      const heads = run.store.samples.heads('local', jobId, -Infinity, Infinity);
      const times = heads.map((h) => h.t);
      const gaps = times.slice(1).map((t, i) => t - times[i]);
      // A sample per interval: stamped when the page fetched the figures it stores (1 s before), or when it read subtasks.
      expect(Math.max(...gaps.slice(1))).toBeLessThanOrEqual(INTERVAL_MS + 1_000);
      expect(heads.length).toBe(2 + (MINUTES * 60_000) / INTERVAL_MS);
      // Between readings (every other interval), samples hold Flink's aggregates: the charts have a point per interval.
      const coverage = heads.slice(2).flatMap((h) => h.vertices.map((v) => v.coverage));
      expect(coverage.filter((c) => c === 'aggregates').length).toBeGreaterThanOrEqual(coverage.filter((c) => c === 'subtasks').length);
      expect(coverage).not.toContain('none');
      const charts = jobMetricsHistory(run.store, 'local', jobId, times[2], times.at(-1)!);
      for (const series of charts.vertices) expect(series.points.filter((p) => p.busyMax !== null)).toHaveLength(heads.length - 2);

      // The page's default window: per-subtask figures over at least the 30 s a verdict needs, the hot subtask named.
      const newest = times.at(-1)!;
      const window = readJobWindow(run.store, 'local', jobId, newest - 60_000, newest);
      const tenantCost = window.vertices.find((v) => v.name.includes('tenant-cost'))!;
      expect(Math.min(...Array.from(tenantCost.coveredMs))).toBeGreaterThanOrEqual(30_000);
      const busy = Array.from(tenantCost.mean.busyTimeMsPerSecond);
      expect(busy.indexOf(Math.max(...busy))).toBe(12);
      const diagnosis = diagnoseWindow(window, 60_000);
      expect(diagnosis.finding.subtasks.map((s) => s.subtask)).toContain(12);
    } finally {
      await run.store.close();
    }
  }, 120_000);

  it('without a page: the sampler fetches the aggregates itself, below one full sample per interval', async () => {
    const run = await simulate(false);
    try {
      // The graph (1 + V) every interval, readings, checkpoints: 24 + 18 + 1 + 2 — against 62 a minute when every
      // sample read everything (2V + 2 per interval and 1 + V per settled checkpoint).
      expect(run.requestsPerMinute).toBeLessThanOrEqual(46);
      expect(run.pageRequestsPerMinute).toBe(0);
    } finally {
      await run.store.close();
    }
  }, 120_000);
});
