import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../project-root.ts';
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
 * What the history costs the JobManager, counted at the unit level over 3 simulated minutes on the local engine
 * (checkpoints every 10 s): the sampler's own requests per minute, with a job page open (its graph refreshed every
 * interval as the jobs service does it, reading per subtask what the history wants) and without. The hot-tenant job
 * (3 vertices; tenant-cost at parallelism 32, too wide for its figures in one request) and the same job at parallelism
 * 2 (the real test job's shape). The side-by-side bench against a real Flink and its Web UI is `npm run bench`.
 */
const dirs = tempDirs('flink-ops-sampling-cost-');
const T0 = Date.UTC(2026, 10, 30, 3, 0, 0);
const INTERVAL_MS = 10_000;
const MINUTES = 3;
const engines = new Map<'hot-tenant' | 'narrow', { handle: LocalEngineHandle; jobId: string }>();

/** hot-tenant at parallelism 2 everywhere (no operator of its own parallelism). */
function narrowScenario(): string {
  const file = path.join(dirs.make(), 'narrow.yaml');
  const text = readFileSync(path.join(PROJECT_ROOT, 'resources/scenarios/hot-tenant.yaml'), 'utf8')
    .replace(/^parallelism: 4$/m, 'parallelism: 2')
    .replace(/^operatorParallelism:\n( {2}.*\n)+/m, '');
  writeFileSync(file, text);
  return file;
}

beforeAll(async () => {
  for (const [name, scenario] of [['hot-tenant', 'hot-tenant'], ['narrow', narrowScenario()]] as const) {
    const handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(T0), scenario, checkpointDir: dirs.make() });
    handle.engine.advance(60_000); // past the shift at 30 s: acme's subtask of tenant-cost saturates
    engines.set(name, { handle, jobId: [...handle.engine.cluster.jobs.keys()][0] });
  }
}, 60_000);

afterAll(async () => {
  for (const { handle } of engines.values()) await handle.close();
  dirs.removeAll();
});

const connectionTo = (url: string): ClusterConnection => connect(createClient({ name: 'local', url, auth: { kind: 'none' }, timeoutMs: 5_000 }, undefined));

interface Run {
  store: HistoryStore;
  jobId: string;
  requestsPerMinute: number;
  bytesPerMinute: number;
  pageRequestsPerMinute: number;
}

/**
 * Samples as the loop does, one interval apart; with `pagePeriodMs`, a page refreshes the graph that often (1 s
 * before a sample when it is the interval), as the app does: through CurrentGraphs, reading per subtask the vertices
 * the watch wants (see create-engine.ts).
 */
async function simulate(engine: 'hot-tenant' | 'narrow', pagePeriodMs?: number): Promise<Run> {
  const { handle, jobId } = engines.get(engine)!;
  const now = () => handle.engine.now();
  const store = HistoryStore.open(dirs.make(), { now });
  const sampler = connectionTo(handle.url);
  const page = connectionTo(handle.url);
  const graphs: CurrentGraphs = new CurrentGraphs((c, j) => fetchJobGraph(page.client, c, j, { perSubtask: watcher.figuresWanted(c, j) }), now);
  const watcher: JobWatcher = new JobWatcher({ history: store, connection: () => sampler, now, pageGraphs: graphs });
  const pageBefore = page.client.stats.requests;
  // A first sample and the warm-up one, then five minutes of the loop's samples.
  await watcher.sampleNow('local', jobId, { planned: true });
  handle.engine.advance(2_000);
  await watcher.sampleNow('local', jobId, { planned: true });
  const from = now();
  const before = { ...sampler.client.stats };
  // Each second: the page's refresh when due (1 s before the sampler's tick at the same period), then the tick.
  for (let second = 1; second <= MINUTES * 60; second++) {
    handle.engine.advance(1_000);
    if (pagePeriodMs !== undefined && (second * 1_000 + 1_000) % pagePeriodMs === 0) await graphs.fetch('local', jobId);
    if ((second * 1_000) % INTERVAL_MS === 0) await watcher.sampleNow('local', jobId, { planned: true });
  }
  expect(now() - from).toBe(MINUTES * 60_000);
  return {
    store,
    jobId,
    requestsPerMinute: (sampler.client.stats.requests - before.requests) / MINUTES,
    bytesPerMinute: (sampler.client.stats.bytes - before.bytes) / MINUTES,
    pageRequestsPerMinute: (page.client.stats.requests - pageBefore) / MINUTES,
  };
}

describe('the frugal sampler\'s cost on a 3-vertex job', () => {
  it('with a job page open: the page\'s refreshes are the narrow vertices\' readings; the wide one\'s, checkpoints and their details are all it asks; a point per interval in the charts, a verdict\'s evidence in a 1-minute window', async () => {
    const run = await simulate('hot-tenant', INTERVAL_MS);
    try {
      // Per minute: three readings of tenant-cost (details and watermarks: 2 requests each), /checkpoints, and one
      // settled checkpoint's details (1 + V) every 5 minutes: 6 + 1 + 0.8. Source and assemble: none.
      expect(run.requestsPerMinute).toBeLessThanOrEqual(8);
      // The page's graph: 1 + V every interval, its readings included.
      expect(run.pageRequestsPerMinute).toBe(4 * 6);

      const heads = run.store.samples.heads('local', run.jobId, -Infinity, Infinity);
      const times = heads.map((h) => h.t);
      const gaps = times.slice(1).map((t, i) => t - times[i]);
      // A sample per interval: stamped when the page fetched the figures it stores (1 s before), or when it read subtasks.
      expect(Math.max(...gaps.slice(1))).toBeLessThanOrEqual(INTERVAL_MS + 1_000);
      expect(heads.length).toBe(2 + (MINUTES * 60_000) / INTERVAL_MS);
      // Between readings (every other interval), samples hold Flink's aggregates: the charts have a point per interval.
      const coverage = heads.slice(2).flatMap((h) => h.vertices.map((v) => v.coverage));
      expect(coverage.filter((c) => c === 'aggregates').length).toBeGreaterThanOrEqual(coverage.filter((c) => c === 'subtasks').length);
      expect(coverage).not.toContain('none');
      const charts = jobMetricsHistory(run.store, 'local', run.jobId, times[2], times.at(-1)!);
      for (const series of charts.vertices) expect(series.points.filter((p) => p.busyMax !== null)).toHaveLength(heads.length - 2);

      // The page's default window: per-subtask figures over at least the 30 s a verdict needs, the hot subtask named.
      const newest = times.at(-1)!;
      const window = readJobWindow(run.store, 'local', run.jobId, newest - 60_000, newest);
      for (const vertex of window.vertices) expect(Math.min(...Array.from(vertex.coveredMs)), vertex.name).toBeGreaterThanOrEqual(30_000);
      const tenantCost = window.vertices.find((v) => v.name.includes('tenant-cost'))!;
      const busy = Array.from(tenantCost.mean.busyTimeMsPerSecond);
      expect(busy.indexOf(Math.max(...busy))).toBe(12);
      const diagnosis = diagnoseWindow(window, 60_000);
      expect(diagnosis.finding.subtasks.map((s) => s.subtask)).toContain(12);
    } finally {
      await run.store.close();
    }
  }, 120_000);

  it('at parallelism 2 with a page open: every reading is the page\'s, the sampler asks for checkpoints only', async () => {
    const run = await simulate('narrow', INTERVAL_MS);
    try {
      // /checkpoints once a minute and a settled checkpoint's details (1 + V) every 5 minutes.
      expect(run.requestsPerMinute).toBeLessThanOrEqual(2);
      expect(run.pageRequestsPerMinute).toBe(4 * 6);
      const heads = run.store.samples.heads('local', run.jobId, -Infinity, Infinity);
      const newest = heads.at(-1)!.t;
      const window = readJobWindow(run.store, 'local', run.jobId, newest - 60_000, newest);
      // Readings every 20 s from the page's refreshes: a verdict's 30 s of evidence on every vertex, rates adding up.
      for (const vertex of window.vertices) {
        expect(Math.min(...Array.from(vertex.coveredMs)), vertex.name).toBeGreaterThanOrEqual(30_000);
        for (let k = 0; k < vertex.parallelism; k++) {
          const sum = vertex.mean.busyTimeMsPerSecond[k] + vertex.mean.backPressuredTimeMsPerSecond[k] + vertex.mean.idleTimeMsPerSecond[k];
          expect(sum, `${vertex.name} subtask ${k}`).toBeCloseTo(1000, 0);
        }
      }
    } finally {
      await run.store.close();
    }
  }, 120_000);

  it('a page refreshing every 15 s (the app\'s default) drives the samples: one per refresh, nothing asked between them, a reading at every refresh', async () => {
    const run = await simulate('narrow', 15_000);
    try {
      // Checkpoints as above, and one graph of its own (1 + V) before the page's second refresh gives its period.
      expect(run.requestsPerMinute).toBeLessThanOrEqual(1.8 + 4 / MINUTES);
      expect(run.pageRequestsPerMinute).toBe(4 * 4);
      // Past the first refreshes (the page's period not known yet): a sample at each of the page's refreshes.
      const all = run.store.samples.heads('local', run.jobId, -Infinity, Infinity);
      const heads = all.filter((h) => h.t >= all[0].t + 30_000);
      const gaps = heads.slice(1).map((h, i) => h.t - heads[i].t);
      expect(new Set(gaps)).toEqual(new Set([15_000]));
      expect(heads.slice(1).every((h) => h.vertices.every((v) => v.coverage === 'subtasks'))).toBe(true);
    } finally {
      await run.store.close();
    }
  }, 120_000);

  it('without a page: the sampler\'s own graph is the narrow vertices\' reading, below one full sample per interval', async () => {
    const run = await simulate('hot-tenant');
    try {
      // The graph (1 + V) every interval, tenant-cost's readings, checkpoints: 24 + 6 + 1 + 0.8 — against 62 a minute
      // when every sample read everything (2V + 2 per interval and 1 + V per settled checkpoint).
      expect(run.requestsPerMinute).toBeLessThanOrEqual(32);
      expect(run.pageRequestsPerMinute).toBe(0);
    } finally {
      await run.store.close();
    }
  }, 120_000);
});
