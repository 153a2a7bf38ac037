/**
 * Savepoints as the operator sees them: the time from the click (the engine's `operations.start`) to the savepoint path
 * on screen (the UI follows the journal entry at 250, 250, 500 ms, then every second), and the REST requests the
 * trigger and its polling spend; on the local engine and, when `npm run flink:up` left one running, on the real
 * Flink (a light job of the test jar, started here and cancelled after).
 *
 * Run: `npx tsx engine/bench/operations-latency.ts [--runs N]`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchFlinkVersion } from './bench-cluster.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { HistoryStore } from '../history/history-store.ts';
import { startLocalEngine } from '../local/start-local-engine.ts';
import { newTriggerId, Operations, type OperationsCluster } from '../operations/operations.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** What the UI waits between looks at an open entry (renderer/features/operations/useStartOperation.ts). */
const FOLLOW_DELAYS_MS = [250, 250, 500, 1000];
const TARGETS = { clickToPathLocalMs: 1_000, clickToPathRealMs: 3_000, requestsPerSavepoint: 6 };

interface Run {
  clickToPathMs: number;
  clusterMs: number;
  trigger: number;
  poll: number;
  /** Every request of the operation, the reading of the job and cluster before the trigger included. */
  all: number;
}

async function measure(cluster: OperationsCluster, jobId: string, target: string, runs: number): Promise<Run[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-bench-ops-'));
  const history = HistoryStore.open(dir);
  const operations = new Operations({ history, origin: 'app', cluster: () => cluster, clusterOfEntry: () => cluster });
  const out: Run[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const clicked = performance.now();
      const before = cluster.client.stats.requests;
      const { entry } = await operations.start({ kind: 'savepoint', clusterId: cluster.id, jobId, triggerId: newTriggerId(), targetDirectory: target });
      // Follow it as the page does.
      let seen = operations.journal.get(entry.id)!;
      for (let n = 0; seen.state === 'pending' || seen.state === 'in-progress'; n++) {
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_DELAYS_MS[Math.min(n, FOLLOW_DELAYS_MS.length - 1)]));
        seen = operations.journal.get(entry.id)!;
      }
      if (seen.state !== 'succeeded') throw new Error(`savepoint ${seen.id} ${seen.state}: ${seen.failure}`);
      out.push({
        clickToPathMs: performance.now() - clicked,
        clusterMs: seen.finishedAt! - seen.createdAt,
        trigger: seen.requests.trigger,
        poll: seen.requests.poll,
        all: cluster.client.stats.requests - before,
      });
    }
  } finally {
    operations.close();
    await history.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function report(label: string, runs: Run[], targetMs: number): void {
  const click = runs.map((r) => r.clickToPathMs);
  const requests = runs.map((r) => r.trigger + r.poll);
  console.log(
    [
      label.padEnd(34),
      `${Math.round(median(click))} ms`.padStart(9),
      `${Math.round(Math.max(...click))} ms`.padStart(9),
      `${Math.round(median(runs.map((r) => r.clusterMs)))} ms`.padStart(9),
      `${median(requests)} (${Math.min(...requests)}–${Math.max(...requests)})`.padStart(12),
      String(median(runs.map((r) => r.all))).padStart(5),
      `target ≤ ${targetMs} ms, ≤ ${TARGETS.requestsPerSavepoint} requests`,
    ].join('  '),
  );
}

async function localEngine(runs: number): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-bench-le-'));
  const handle = await startLocalEngine({ port: 0, scenario: 'exactly-once', rate: 1000, checkpointDir: path.join(dir, 'checkpoints') });
  try {
    const client = new FlinkRestClient({ baseUrl: handle.url });
    const jobId = [...handle.engine.cluster.jobs.keys()][0];
    const cluster: OperationsCluster = { id: 'local', name: 'Local engine', url: handle.url, client, metricsFetchIntervalMs: async () => 10_000 };
    report(`local engine (${runs} savepoints)`, await measure(cluster, jobId, `file://${path.join(dir, 'checkpoints', 'savepoints')}`, runs), TARGETS.clickToPathLocalMs);
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function realFlink(runs: number): Promise<void> {
  const version = benchFlinkVersion();
  const file = path.join(ROOT, `.cache/flink/${version}/cluster.json`);
  if (!existsSync(file)) {
    console.log(`${'real Flink'.padEnd(34)}  not measured: run \`npm run flink:up\` first`);
    return;
  }
  const info = JSON.parse(readFileSync(file, 'utf8')) as { restUrl: string; jarId: string };
  const dir = mkdtempSync(path.join(ROOT, '.cache/bench-savepoints-'));
  let jobId: string | undefined;
  try {
    const run = await fetch(`${info.restUrl}/jars/${info.jarId}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entryClass: 'dev.flinkops.testjob.GatewayMeterJob', programArgsList: ['--rate', '200', '--work-us', '200'], parallelism: 1 }),
    });
    jobId = ((await run.json()) as { jobid: string }).jobid;
    for (let i = 0; i < 120; i++) {
      const d = (await (await fetch(`${info.restUrl}/jobs/${jobId}`)).json()) as { state: string; vertices: Array<{ status: string }> };
      if (d.state === 'RUNNING' && d.vertices.every((v) => v.status === 'RUNNING')) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const client = new FlinkRestClient({ baseUrl: info.restUrl });
    const cluster: OperationsCluster = { id: 'real', name: `Flink ${version}`, url: info.restUrl, client, metricsFetchIntervalMs: async () => 10_000 };
    report(`real Flink ${version} (${runs} savepoints)`, await measure(cluster, jobId, `file://${dir}`, runs), TARGETS.clickToPathRealMs);
  } catch (error) {
    console.log(`${'real Flink'.padEnd(34)}  skipped: ${(error as Error).message}`);
  } finally {
    if (jobId) await fetch(`${info.restUrl}/jobs/${jobId}?mode=cancel`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' }).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 10;
console.log(['cluster'.padEnd(34), 'click→path'.padStart(9), '      max', '  cluster', 'trig+polls'.padStart(12), '  all'].join('  '));
await localEngine(runs);
await realFlink(runs);
console.log('click→path: from the start call to the path the page shows (it looks at 250, 250, 500 ms, then every second); cluster: trigger to outcome as journaled.');
console.log('trig+polls: REST requests per savepoint, the trigger and its polls (the first 250 ms after the trigger, then 500 ms, 1 s, 2 s, 2 s, …);');
console.log('all: with the reading of the job and the cluster before the trigger (state, savepoint folder, scheduler, slots, jars).');
