/**
 * The history's cost, printed beside its targets (`npm run bench` runs it in its own process):
 * - what one sample costs the cluster (requests, bytes) for the real test job (when `npm run flink:up` left one), the
 *   local engine's hot-tenant job and a generated job of 200 vertices × parallelism 1,024; and what a settled
 *   checkpoint's details cost, fetched once per checkpoint;
 * - the store: write cost per sample of the 200 × 1,024 job, its size on disk, and the time to read a 15-minute window
 *   of it (10 s samples): the whole window, and the metrics tab's view of it.
 *
 * Run: `npx tsx engine/bench/history-cost.ts`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { HistoryStore } from '../history/history-store.ts';
import { COUNTER_COLUMNS, RATE_COLUMNS, columnBytes, type JobSample } from '../history/job-sample.ts';
import { jobMetricsHistory } from '../history/views/metrics-history.ts';
import { startLocalEngine } from '../local/start-local-engine.ts';
import { ManualClock } from '../local/time/clock.ts';
import { mulberry32 } from '../local/time/random.ts';
import { CheckpointSync } from '../sampling/checkpoint-sync.ts';
import { fetchJobSample } from '../sampling/sample-job.ts';
import { withRates } from '../sampling/sample-rates.ts';
import { benchCluster, benchFlinkVersion } from './bench-cluster.ts';
import { startSyntheticJobServer } from './synthetic-job-server.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

interface SampleCost {
  label: string;
  vertices: number;
  subtasks: number;
  requests: number;
  bytes: number;
  millis: number;
  detailRequests: number;
  detailBytes: number;
}

/** One sample (after a first one, so rates are computed) and the details of one settled checkpoint. */
async function sampleCost(label: string, baseUrl: string, jobId: string): Promise<SampleCost> {
  const client = new FlinkRestClient({ baseUrl, timeoutMs: 120_000 });
  const dir = mkdtempSync(path.join(tmpdir(), 'flink-ops-bench-sample-'));
  const store = HistoryStore.open(dir);
  try {
    const first = await fetchJobSample(client, 'bench', jobId, undefined);
    const started = performance.now();
    const { sample, checkpoints } = await fetchJobSample(client, 'bench', jobId, first.sample);
    const millis = performance.now() - started;
    const sync = await new CheckpointSync(store, 'bench', jobId).sync(client, checkpoints!, sample);
    return {
      label,
      vertices: sample.vertices.length,
      subtasks: sample.vertices.reduce((s, v) => s + v.parallelism, 0),
      requests: sample.requests,
      bytes: sample.bytes,
      millis,
      detailRequests: sync.detailRequests,
      detailBytes: sync.detailBytes,
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printSampleCosts(rows: SampleCost[]): void {
  console.log('One sample (per watched job, at the cluster\'s metrics fetch interval), and a checkpoint\'s details (once per checkpoint)');
  console.log(['job'.padEnd(38), '   V', 'subtasks', 'req/budget', 'bytes/sample', '    time', 'details: req', '     bytes'].join('  '));
  for (const r of rows) {
    console.log(
      [
        r.label.padEnd(38),
        String(r.vertices).padStart(4),
        String(r.subtasks).padStart(8),
        `${r.requests}/${2 * r.vertices + 4}`.padStart(10),
        formatBytes(r.bytes).padStart(12),
        `${r.millis.toFixed(0)} ms`.padStart(8),
        `${r.detailRequests} (1+V)`.padStart(12),
        formatBytes(r.detailBytes).padStart(10),
      ].join('  '),
    );
  }
  console.log('budget: 2V + 4 requests per sample whatever the parallelism (the sampler takes 2V + 2: job, per vertex details + watermarks, /checkpoints).');
}

/** A sample of a 200 × 1,024 job whose counters move like a real job's (random walks, so they compress as real ones). */
function nextSample(template: JobSample, previous: JobSample | undefined, t: number, random: () => number): JobSample {
  const vertices = template.vertices.map((v, vi) => {
    const before = previous?.vertices[vi].subtasks;
    const columns = structuredClone(v.subtasks!);
    for (let k = 0; k < v.parallelism; k++) {
      COUNTER_COLUMNS.forEach((c) => (columns.counters[c][k] = (before ? before.counters[c][k] : Math.floor(random() * 1e6)) + Math.floor(random() * (c.startsWith('accumulated') ? 10_000 : 50_000))));
      columns.watermark[k] = t - Math.floor(random() * 2_000);
      columns.checkpointedBytes[k] = 4096 + Math.floor(random() * 100_000);
      for (const r of RATE_COLUMNS) columns.rates[r][k] = Number.NaN;
    }
    return { ...v, subtasks: columns };
  });
  return withRates(previous, { ...template, t, vertices });
}

async function storeCost(template: JobSample): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'flink-ops-bench-store-'));
  const random = mulberry32(9);
  const samples = 90; // 15 minutes at Flink's default 10 s metrics fetch interval
  const t0 = Date.UTC(2026, 10, 30, 3);
  const store = HistoryStore.open(dir, { now: () => t0 + samples * 10_000, retention: { maxSampleBytes: 64 * 1024 ** 3 } });
  const writes: number[] = [];
  let previous: JobSample | undefined;
  try {
    for (let i = 0; i < samples; i++) {
      const sample = nextSample(template, previous, t0 + i * 10_000, random);
      const started = performance.now();
      await store.samples.append(sample);
      writes.push(performance.now() - started);
      previous = sample;
    }
    const storedPerSample = store.samples.job('bench', template.jobId)!.storedBytes / samples;
    const onDisk = statSync(path.join(dir, 'data.mdb')).size;
    writes.sort((a, b) => a - b);
    previous = undefined;
    let started = performance.now();
    const view = jobMetricsHistory(store, 'bench', template.jobId, t0, t0 + samples * 10_000);
    const viewMs = performance.now() - started;
    const viewJson = JSON.stringify(view).length;
    started = performance.now();
    const window = store.samples.window('bench', template.jobId, t0, t0 + samples * 10_000);
    const windowMs = performance.now() - started;
    const windowBytes = window.reduce((sum, sample) => sum + columnBytes(sample), 0);

    const subtasks = template.vertices.reduce((s, v) => s + v.parallelism, 0);
    console.log(`\nThe store (LMDB), generated job of ${template.vertices.length} vertices × ${subtasks / template.vertices.length} subtasks, ${samples} samples = 15 minutes at 10 s`);
    console.log(`  write per sample         median ${writes[writes.length >> 1].toFixed(0)} ms, p95 ${writes[Math.floor(writes.length * 0.95)].toFixed(0)} ms   (target: well under the 10 s between samples)`);
    console.log(`  columns per sample       ${formatBytes(storedPerSample)} encoded (${(storedPerSample / subtasks).toFixed(0)} B per subtask); data.mdb ${formatBytes(onDisk)} for ${samples} samples (LZ4)`);
    console.log(`  metrics tab, 15 min      ${viewMs.toFixed(0)} ms: busy and backpressure per vertex from the heads' rollups, ${formatBytes(viewJson)} of JSON to the UI   (target: < 500 ms)`);
    console.log(`  read a 15-min window     ${windowMs.toFixed(0)} ms: every column of ${window.length} samples, ${formatBytes(windowBytes)} in memory (what a whole-window analysis reads)   (target: < 5 s)`);
    console.log(`  retention                the default 2 GiB bound keeps ${Math.floor((2 * 1024 ** 3) / storedPerSample)} samples of this job (${((2 * 1024 ** 3) / storedPerSample / 6).toFixed(0)} min at 10 s)`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Not bytesInIecUnits: always one decimal, so that the padded columns of the benchmark's table line up. */
function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= KiB) return `${(bytes / KiB).toFixed(1)} KiB`;
  return `${Math.round(bytes)} B`;
}

async function main(): Promise<void> {
  const rows: SampleCost[] = [];
  const version = benchFlinkVersion();
  const cluster = benchCluster(version);
  if (cluster) {
    try {
      rows.push(await sampleCost(`${cluster.jobName} on Flink ${version}`, cluster.restUrl, cluster.jobId));
    } catch (error) {
      console.log(`real Flink test job: skipped (${(error as Error).message})`);
    }
  } else {
    console.log('real Flink test job: not measured, run `npm run flink:up` first');
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'flink-ops-bench-engine-'));
  const engine = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(Date.UTC(2026, 10, 30, 3)), scenario: 'hot-tenant', checkpointDir: dir });
  try {
    engine.engine.advance(45_000);
    rows.push(await sampleCost('local engine, hot-tenant', engine.url, [...engine.engine.cluster.jobs.keys()][0]));
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const synthetic = await startSyntheticJobServer(200, { parallelism: 1024 }, { checkpoint: true });
  let template: JobSample;
  try {
    rows.push(await sampleCost('generated 200 vertices × 1,024', synthetic.url, synthetic.jobId));
    template = (await fetchJobSample(new FlinkRestClient({ baseUrl: synthetic.url, timeoutMs: 120_000 }), 'bench', synthetic.jobId, undefined)).sample;
  } finally {
    await synthetic.close();
  }
  printSampleCosts(rows);
  await storeCost(template);
}

await main();
