import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skewHeatmap } from '../../engine/analysis/skew-heatmap.ts';
import { windowInfo } from '../../engine/analysis/window-info.ts';
import { createEngine, type Engine } from '../../engine/app/create-engine.ts';
import { openClusterStore } from '../../engine/cli/data-dir.ts';
import { openHistoryStore } from '../../engine/cli/open-history-store.ts';
import { MemorySecretStore } from '../../engine/clusters/secret-store.ts';
import type { JobDiagnosis } from '../../engine/contracts/diagnosis.ts';
import { readJobWindow } from '../../engine/diagnosis/read-window.ts';
import type { HistoryStore } from '../../engine/history/history-store.ts';
import type { JobSample } from '../../engine/history/job-sample.ts';
import { eventually } from '../flink/eventually.ts';
import { startCountingProxy, type CountingProxy } from '../support/counting-proxy.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';
import { startPrometheus, type RunningPrometheus } from './prometheus-process.ts';

/**
 * The history read from a real Prometheus scraping the real Flink's PrometheusReporter (`flink.sh up --prometheus`),
 * against the console's own samples of the JobManager and Flink's own REST figures. The test job keeps the `throttle`
 * vertex skewed: one hot key saturates one of its subtasks.
 */
const cluster = readFlinkCluster();
const SCRAPE_INTERVAL_S = 5;
/**
 * Busy time agrees within 5% of the metric's scale, 1000 ms/s (so 50 ms/s), not 5% of each value: the sink's
 * subtasks sit near 15 ms/s, where 5% would be under a millisecond — less than the two sources' few-second views of
 * Flink's clock differ by at the edges of a window.
 */
const BUSY_TOLERANCE_MS_PER_S = 50;

let prometheus: RunningPrometheus;
let prometheusDir: string;
const apps: TestConsole[] = [];

interface Vertex {
  id: string;
  name: string;
  parallelism: number;
}

interface TestConsole {
  engine: Engine;
  history: HistoryStore;
  clusterId: string;
  createdAt: number;
}

/** A console of its own (fresh data folder) with the test cluster saved, with the metrics store or without. */
async function startConsole(name: string, restUrl: string, storeUrl?: string): Promise<TestConsole> {
  const dir = mkdtempSync(path.join(tmpdir(), `flink-ops-prometheus-${name}-`));
  const history = openHistoryStore(dir);
  const createdAt = Date.now();
  const engine = createEngine({ clusterStore: openClusterStore(dir), secretStore: new MemorySecretStore(), history, mode: 'web', version: 'test' });
  const app: TestConsole = { engine, history, clusterId: '', createdAt };
  apps.push(app);
  const { cluster: saved, check } = await engine.clusters.save({
    name,
    url: restUrl,
    auth: { kind: 'none' },
    ...(storeUrl ? { metricsStore: { url: storeUrl, auth: { kind: 'none' } } } : {}),
  });
  if (storeUrl) expect(check.metricsStore, JSON.stringify(check.metricsStore)).toMatchObject({ reachable: true, usable: true });
  app.clusterId = saved.id;
  afterAllCleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return app;
}

const afterAllCleanups: Array<() => void> = [];

async function watch(app: TestConsole): Promise<void> {
  await app.engine.history.setPinned(app.clusterId, cluster.jobId, true);
}

function samplesOf(app: TestConsole, from = -Infinity, to = Infinity): JobSample[] {
  return app.history.samples.window(app.clusterId, cluster.jobId, from, to);
}

/** Each vertex's per-subtask busy-time means over exactly [from, to] of a console's history, by vertex name. */
function busyMeans(app: TestConsole, from: number, to: number): { byVertex: Map<string, Array<number | null>>; source: string | null; samples: number } {
  const window = readJobWindow(app.history, app.clusterId, cluster.jobId, from, to);
  const info = windowInfo(window, to - from);
  const heatmap = skewHeatmap(window, 'busyTimeMsPerSecond', 'mean', info);
  return { byVertex: new Map(heatmap.rows.map((r) => [r.name, r.values])), source: info.source, samples: info.samples };
}

/** Polls Flink's own per-subtask busy time as a Web UI would (every 3 s), each value with the time it was read. */
function pollFlinkBusy(vertices: Vertex[]): { stop(): Promise<Map<string, Array<Array<{ t: number; value: number }>>>> } {
  const seen = new Map(vertices.map((v) => [v.name, Array.from({ length: v.parallelism }, () => [] as Array<{ t: number; value: number }>)]));
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = Date.now();
      await Promise.all(
        vertices.flatMap((v) =>
          Array.from({ length: v.parallelism }, async (_, k) => {
            const answer = await getFromFlink<Array<{ id: string; value: string }>>(cluster, `/jobs/${cluster.jobId}/vertices/${v.id}/subtasks/${k}/metrics?get=busyTimeMsPerSecond`).catch(() => []);
            const value = Number(answer.find((m) => m.id === 'busyTimeMsPerSecond')?.value);
            if (Number.isFinite(value)) seen.get(v.name)![k].push({ t, value });
          }),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return seen;
    },
  };
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** The subtask a diagnosis names as hot in the vertex it is about. */
function hotSubtasks(diagnosis: JobDiagnosis): { vertex: string | null; subtasks: number[] } {
  return { vertex: diagnosis.finding.vertexName, subtasks: diagnosis.finding.subtasks.map((s) => s.subtask) };
}

async function vertices(): Promise<Vertex[]> {
  return (await getFromFlink<{ vertices: Vertex[] }>(cluster, `/jobs/${cluster.jobId}`)).vertices;
}

beforeAll(async () => {
  if (!cluster.prometheus?.targets.length) {
    throw new Error(`${cluster.version}'s cluster.json names no PrometheusReporter endpoints: run \`bash e2e/flink/flink.sh up --version ${cluster.version} --prometheus\`.`);
  }
  prometheusDir = mkdtempSync(path.join(tmpdir(), 'flink-ops-prometheus-e2e-'));
  prometheus = await startPrometheus(cluster.prometheus.targets, SCRAPE_INTERVAL_S, { dir: prometheusDir });
  // The job's task series are scraped before any test reads them.
  await eventually(async () => ((await instantQuery(`count(flink_taskmanager_job_task_accumulateBusyTimeMs{job_id="${cluster.jobId}"})`)) > 0 ? true : undefined), 'the job\'s task series in Prometheus', 60_000);
});

afterAll(async () => {
  for (const c of apps) {
    await c.engine.close();
    await c.history.close();
  }
  await prometheus?.stop();
  for (const cleanup of afterAllCleanups) cleanup();
  if (prometheusDir) rmSync(prometheusDir, { recursive: true, force: true });
});

async function instantQuery(promql: string): Promise<number> {
  const response = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(promql)}`, { signal: AbortSignal.timeout(5_000) });
  const body = (await response.json()) as { data?: { result?: Array<{ value: [number, string] }> } };
  return Number(body.data?.result?.[0]?.value[1] ?? Number.NaN);
}

describe(`the history from Prometheus, against the console's own samples and Flink ${cluster.version}'s REST`, () => {
  // The consoles of the first two tests watch the job over the same minutes (CI time): each test asserts on its own.
  let jobVertices: Vertex[];
  let flink: ReturnType<typeof pollFlinkBusy>;
  let fromStore: TestConsole;
  let sampled: TestConsole;
  let proxy: CountingProxy;
  let proxied: TestConsole;
  let started: number;

  beforeAll(async () => {
    jobVertices = await vertices();
    proxy = await startCountingProxy(cluster.restUrl);
    flink = pollFlinkBusy(jobVertices);
    fromStore = await startConsole('with-store', cluster.restUrl, prometheus.url);
    sampled = await startConsole('sampled', cluster.restUrl);
    proxied = await startConsole('proxied', proxy.url, prometheus.url);
    proxy.reset();
    started = Date.now();
    await Promise.all([watch(fromStore), watch(sampled), watch(proxied)]);
  });

  afterAll(async () => {
    await flink?.stop();
    await proxy?.close();
  });

  it('the same 90 s read from Prometheus and sampled from the JobManager name the same hot subtask, busy within 50 ms/s per subtask', async () => {
    // The same span of both histories: from 10 s after the watches began (the console's first samples have no
    // rates yet) to 90 s later.
    const from = started + 10_000;
    const to = from + 90_000;
    await eventually(
      async () => (samplesOf(fromStore, to).length > 0 && samplesOf(sampled, to).length > 0 ? true : undefined),
      'both histories past the end of the 90 s window',
      150_000,
    );
    const polled = await flink.stop();

    const store = busyMeans(fromStore, from, to);
    const own = busyMeans(sampled, from, to);
    expect(store.source).toBe('prometheus');
    expect(own.source).toBe('jobmanager');
    expect(store.samples).toBeGreaterThanOrEqual(6);
    expect(own.samples).toBeGreaterThanOrEqual(6);
    for (const vertex of jobVertices) {
      for (let k = 0; k < vertex.parallelism; k++) {
        const what = `${vertex.name} subtask ${k}`;
        const flinkValues = polled.get(vertex.name)![k].filter((p) => p.t >= from && p.t <= to).map((p) => p.value);
        expect(flinkValues.length, `${what}: Flink's REST was polled in the window`).toBeGreaterThanOrEqual(10);
        const flinkMean = mean(flinkValues);
        const a = store.byVertex.get(vertex.name)![k];
        const b = own.byVertex.get(vertex.name)![k];
        const said = `${what}: Prometheus ${a}, JobManager samples ${b}, Flink's REST mean ${flinkMean.toFixed(1)} (${flinkValues.join(', ')})`;
        expect(a, said).not.toBeNull();
        expect(b, said).not.toBeNull();
        expect(Math.abs(a! - b!), said).toBeLessThanOrEqual(BUSY_TOLERANCE_MS_PER_S);
        expect(Math.abs(a! - flinkMean), said).toBeLessThanOrEqual(BUSY_TOLERANCE_MS_PER_S);
        expect(Math.abs(b! - flinkMean), said).toBeLessThanOrEqual(BUSY_TOLERANCE_MS_PER_S);
      }
    }

    // Both diagnoses name the skewed vertex and its hot subtask: the one Flink's REST shows busiest.
    const throttle = polled.get('throttle')!.map((points) => mean(points.filter((p) => p.t >= from && p.t <= to).map((p) => p.value)));
    const hottest = throttle.indexOf(Math.max(...throttle));
    const [a, b] = await Promise.all([
      fromStore.engine.diagnosis.diagnose(fromStore.clusterId, cluster.jobId, 90_000),
      sampled.engine.diagnosis.diagnose(sampled.clusterId, cluster.jobId, 90_000),
    ]);
    expect(hotSubtasks(a), a.finding.sentence).toEqual({ vertex: 'throttle', subtasks: [hottest] });
    expect(hotSubtasks(b), b.finding.sentence).toEqual(hotSubtasks(a));
    expect(a.window.source).toBe('prometheus');
  }, 240_000);

  it('the JobManager sees no sampling requests for what Prometheus has: only the job and its checkpoints, over a minute', async () => {
    await eventually(
      async () => (Date.now() >= started + 60_000 && samplesOf(proxied, started + 50_000).length > 0 ? true : undefined),
      'a minute of the store-backed watch',
      120_000,
    );
    const requests = proxy.requests().map((r) => `${r.method} ${r.path}`);
    const job = `/jobs/${cluster.jobId}`;
    const vertexRequests = requests.filter((r) => r.includes(`${job}/vertices`));
    expect(vertexRequests, 'no vertex details, watermarks or subtask metrics').toEqual([]);
    const allowed = [
      new RegExp(`^GET ${job}$`),
      new RegExp(`^GET ${job}/checkpoints$`),
      new RegExp(`^GET ${job}/checkpoints/details/\\d+(/subtasks/[0-9a-f]{32})?$`),
      // The TaskManagers a series' `tm_id` names (every 5 minutes), the processes' memory and GC (a round a minute,
      // from the JobManager: the store's process series are not read yet), the cluster's own check (once per
      // connection) and the store's check of which jobs run.
      /^GET \/taskmanagers$/,
      /^GET \/taskmanagers\/[^/]+\/metrics(\?get=[\w.,]+)?$/,
      /^GET \/jobmanager\/metrics(\?get=[\w.,]+)?$/,
      /^GET \/config$/,
      /^GET \/jobmanager\/config$/,
      /^GET \/jobs\/overview$/,
    ];
    expect(requests.filter((r) => !allowed.some((pattern) => pattern.test(r))), 'requests other than the job, its checkpoints and the checks').toEqual([]);
    // It did watch: the job asked for at every round, and the samples came from Prometheus.
    expect(requests.filter((r) => r === `GET ${job}`).length).toBeGreaterThanOrEqual(5);
    const watched = samplesOf(proxied, started);
    expect(watched.length).toBeGreaterThanOrEqual(5);
    expect(watched.every((s) => s.source === 'prometheus')).toBe(true);
  }, 180_000);

  it('a console started minutes after the hot key began diagnoses it at once from Prometheus, with samples from before it started', async () => {
    // Prometheus has scraped the job for at least two minutes (the tests before did; alone, this one waits).
    await eventually(
      async () => ((await instantQuery(`min(count_over_time(flink_taskmanager_job_task_accumulateBusyTimeMs{job_id="${cluster.jobId}"}[5m]))`)) * SCRAPE_INTERVAL_S >= 120 ? true : undefined),
      'two minutes of the job in Prometheus',
      180_000,
    );
    const job = await getFromFlink<{ 'start-time': number }>(cluster, `/jobs/${cluster.jobId}`);
    const app = await startConsole('late', cluster.restUrl, prometheus.url);
    expect(app.createdAt - job['start-time'], 'the job ran for minutes before the console').toBeGreaterThan(120_000);
    await watch(app);
    // The first diagnosis with samples: the first round's backfill, not minutes of watching.
    const diagnosis = await eventually(async () => {
      const d = await app.engine.diagnosis.diagnose(app.clusterId, cluster.jobId, 300_000);
      return d.window.samples > 0 ? d : undefined;
    }, 'the first diagnosis with samples', 30_000);
    expect(diagnosis.window.source).toBe('prometheus');
    expect(diagnosis.window.from!, 'samples from before the console started').toBeLessThan(app.createdAt - 90_000);
    expect(diagnosis.window.spanMs).toBeGreaterThanOrEqual(90_000);
    const throttle = (await vertices()).find((v) => v.name === 'throttle')!;
    const flinkBusy = await Promise.all(
      Array.from({ length: throttle.parallelism }, async (_, k) => {
        const answer = await getFromFlink<Array<{ id: string; value: string }>>(cluster, `/jobs/${cluster.jobId}/vertices/${throttle.id}/subtasks/${k}/metrics?get=busyTimeMsPerSecond`);
        return Number(answer[0]?.value);
      }),
    );
    expect(hotSubtasks(diagnosis), diagnosis.finding.sentence).toEqual({ vertex: 'throttle', subtasks: [flinkBusy.indexOf(Math.max(...flinkBusy))] });
  }, 240_000);

  it('Prometheus down mid-window: store-silent, the JobManager sampled meanwhile, store-answers after the restart, the window from both', async () => {
    const app = await startConsole('store-down', cluster.restUrl, prometheus.url);
    const started = Date.now();
    await watch(app);
    await eventually(async () => (samplesOf(app, started).filter((s) => s.source === 'prometheus').length >= 2 ? true : undefined), 'two store samples of the watch', 60_000);

    const stoppedAt = Date.now();
    await prometheus.stop();
    const silent = await eventually(
      async () => app.history.events.list(app.clusterId, cluster.jobId, stoppedAt).find((e) => e.kind === 'store-silent'),
      'the store-silent event',
      60_000,
    );
    expect(silent.message).toMatch(/^The metrics store does not answer \(.+\): the console samples the JobManager until it does\.$/);
    await eventually(async () => (samplesOf(app, stoppedAt).filter((s) => s.source === undefined).length >= 2 ? true : undefined), 'two JobManager samples while the store is down', 60_000);

    prometheus = await prometheus.restart();
    const restartedAt = Date.now();
    const answers = await eventually(
      async () => app.history.events.list(app.clusterId, cluster.jobId, restartedAt).find((e) => e.kind === 'store-answers'),
      'the store-answers event',
      60_000,
    );
    expect(answers.message).toMatch(/^The metrics store answers again after \d+ s: its figures are read from it again\.$/);
    await eventually(async () => (samplesOf(app, restartedAt).filter((s) => s.source === 'prometheus').length >= 2 ? true : undefined), 'store samples after the restart', 60_000);

    // Said once each, in order: a round with nothing to read yet is no sign that the store is back.
    const kinds = app.history.events.list(app.clusterId, cluster.jobId, started).map((e) => e.kind).filter((k) => k.startsWith('store-'));
    expect(kinds).toEqual(['store-silent', 'store-answers']);
    expect(silent.t).toBeGreaterThanOrEqual(stoppedAt);
    expect(answers.t).toBeGreaterThanOrEqual(restartedAt);
    const span = samplesOf(app, started);
    // The JobManager was sampled while the store was silent, and only then.
    expect(span.filter((s) => s.source === undefined).every((s) => s.t >= silent.t && s.t < answers.t)).toBe(true);
    const windowMs = Math.ceil((Date.now() - started) / 1000) * 1000 + 10_000;
    const diagnosis = await app.engine.diagnosis.diagnose(app.clusterId, cluster.jobId, windowMs);
    expect(diagnosis.window.source).toBe('both');
    expect(hotSubtasks(diagnosis).vertex, diagnosis.finding.sentence).toBe('throttle');

    // The saturated subtask's busy time over the span: a figure or a gap (NaN), never a zero made up for the time
    // neither Prometheus nor the JobManager had.
    const throttle = span[0].vertices.findIndex((v) => v.name === 'throttle');
    const hot = hotSubtasks(diagnosis).subtasks[0];
    const busy = span.map((s) => ({ t: s.t, source: s.source ?? 'jobmanager', busy: s.vertices[throttle].subtasks?.rates.busyTimeMsPerSecond[hot] ?? Number.NaN }));
    const said = JSON.stringify(busy.map((b) => [b.t - started, b.source, b.busy]));
    expect(busy.every((b) => Number.isNaN(b.busy) || b.busy > 500), said).toBe(true);
    expect(busy.some((b) => b.source === 'jobmanager' && b.busy > 500), said).toBe(true);
  }, 300_000);
});
