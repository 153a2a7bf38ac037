/**
 * `npm run bench` (or `npx tsx engine/bench/engine-big-job.ts` alone): the engine process beside a big job, as the app
 * runs it (`flink-ops app --web`, no page open), with the 200-vertex mixed job (4 × 4,096 + 196 × 128 subtasks) pinned:
 * its RSS and CPU read from /proc while the watcher samples the job. The synthetic cluster runs in a process of its own
 * at the lowest priority (a JobManager runs on other machines). Nothing here asserts; figures are printed beside their
 * targets (issue 27).
 *
 * BENCH_ENGINE_SECONDS: how long to sample after the warm-up (default 60: six samples). BENCH_ENGINE_NODE_OPTIONS: passed to the
 * engine's Node (e.g. `--heapsnapshot-signal=SIGUSR2` to take heap snapshots while it samples).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { startConsole } from './console-app.ts';
import { startSyntheticJobProcess } from './synthetic-job-process.ts';

/** Flink's default `metrics.fetcher.update-interval`: the watcher samples no faster. */
const FETCH_INTERVAL_MS = 10_000;
const WARM_UP_MS = 30_000;
const MEASURE_MS = Number(process.env.BENCH_ENGINE_SECONDS ?? 60) * 1000;
const RSS_TARGET_MIB = 250;
const CPU_TARGET_PERCENT = 5;
const JOB = { vertices: 200, parallelism: 128, wideVertices: 4, wideParallelism: 4096 };

interface ProcessFigures {
  rssMiB: number;
  /** The part of RSS that is the process's own memory (heap, buffers): what parsing and copies cost. */
  anonMiB: number;
  /** The part that maps files: the history store's LMDB map (pages the kernel may drop), Node's own binary. */
  fileMiB: number;
  cpuTicks: number;
}

/** RSS (MiB, and its anonymous and file-backed parts) and user + system CPU ticks (1/100 s) of a process, from /proc. */
function processFigures(pid: number): ProcessFigures {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { rssMiB: mib('VmRSS'), anonMiB: mib('RssAnon'), fileMiB: mib('RssFile') + mib('RssShmem'), cpuTicks: Number(fields[11]) + Number(fields[12]) };
}

function startClusterProcess(): Promise<{ url: string; stop(): Promise<void> }> {
  return startSyntheticJobProcess([JOB.vertices, JOB.parallelism, FETCH_INTERVAL_MS, JOB.wideVertices, JOB.wideParallelism]);
}

/** One engine call through web mode's `POST /api/rpc`, as the renderer makes it. */
function engineCaller(appUrl: string) {
  const url = new URL(appUrl);
  const token = url.searchParams.get('token') ?? '';
  return async <T>(call: string, ...args: unknown[]): Promise<T> => {
    const response = await fetch(`${url.origin}/api/rpc`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ call, args }),
    });
    const body = (await response.json()) as { ok: boolean; value?: T; error?: { message: string } };
    if (!body.ok) throw new Error(`${call}: ${body.error?.message}`);
    return body.value as T;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const check = (ok: boolean) => (ok ? '✓' : '✗');
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];

async function main(): Promise<void> {
  const cluster = await startClusterProcess();
  const extra = process.env.BENCH_ENGINE_NODE_OPTIONS;
  const app = await startConsole(extra ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${extra}`.trim() } : {});
  try {
    const engine = engineCaller(app.url);
    const idle = processFigures(app.pid);
    const { cluster: saved } = await engine<{ cluster: { id: string } }>('clusters.save', { name: 'mixed', url: cluster.url, auth: { kind: 'none' } });
    const jobs = await engine<Array<{ id: string }>>('jobs.list', saved.id);
    await engine('history.setPinned', saved.id, jobs[0].id, true);
    await sleep(WARM_UP_MS);
    const rss: ProcessFigures[] = [];
    const before = processFigures(app.pid);
    const started = performance.now();
    while (performance.now() - started < MEASURE_MS) {
      rss.push(processFigures(app.pid));
      await sleep(500);
    }
    const after = processFigures(app.pid);
    const seconds = (performance.now() - started) / 1000;
    const cpuPercent = ((after.cpuTicks - before.cpuTicks) / 100 / seconds) * 100;
    const watches = await engine<Array<{ jobId: string }>>('history.watches');
    const peak = rss.reduce((a, b) => (b.rssMiB > a.rssMiB ? b : a));
    const trend = [0, 0.25, 0.5, 0.75, 1].map((q) => rss[Math.min(rss.length - 1, Math.floor(q * rss.length))].rssMiB.toFixed(0)).join(' → ');
    console.log(`  ${JOB.wideVertices} × ${JOB.wideParallelism.toLocaleString('en-US')} + ${JOB.vertices - JOB.wideVertices} × ${JOB.parallelism} subtasks pinned, no page open; sampled every ${FETCH_INTERVAL_MS / 1000} s (the cluster's fetch interval); ${(seconds).toFixed(0)} s after a ${WARM_UP_MS / 1000} s warm-up; load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores; ${watches.length} watch`);
    console.log(`  engine RSS before the job            ${idle.rssMiB.toFixed(0).padStart(5)} MiB   (info)`);
    console.log(`  engine RSS while sampling: median    ${quantile(rss.map((r) => r.rssMiB), 0.5).toFixed(0).padStart(5)} MiB   (info; over the run ${trend} MiB)`);
    console.log(`  engine RSS while sampling: peak      ${peak.rssMiB.toFixed(0).padStart(5)} MiB   (target ≤ ${RSS_TARGET_MIB} MiB) ${check(peak.rssMiB <= RSS_TARGET_MIB)}  of which own memory ${peak.anonMiB.toFixed(0)} MiB, mapped files ${peak.fileMiB.toFixed(0)} MiB (the history store's LMDB map, Node)`);
    console.log(`  engine CPU while sampling            ${cpuPercent.toFixed(1).padStart(5)} %     of a core (target ≤ ${CPU_TARGET_PERCENT}%) ${check(cpuPercent <= CPU_TARGET_PERCENT)}`);
  } finally {
    await app.stop();
    await cluster.stop();
  }
}

await main();
