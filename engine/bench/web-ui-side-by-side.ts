/**
 * What a job page costs the JobManager, side by side with Flink's own Web UI (issue 23), through a counting proxy in
 * front of the real JobManager `npm run flink:up` left running, in the same Chromium:
 * 1. Flink's Web UI (served by the JobManager at `/`) on the test job's overview, its graph;
 * 2. the console in web mode with the cluster added through the proxy, the job page open and the job watched (its
 *    history on);
 * 3. the console's sampler alone: the job still watched, no page open.
 * Each is measured alone over the same span after a warm-up, and printed per minute with the console's ratios to the
 * Web UI beside their targets. Nothing here asserts a figure.
 *
 * Run: `npx tsx engine/bench/web-ui-side-by-side.ts` (BENCH_REST_SPAN_S, BENCH_REST_WARMUP_S: the spans, in seconds).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { benchCluster, type BenchCluster } from './bench-cluster.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { addCluster, startConsole } from './console-app.ts';
import { startCountingProxy, type ClientCount, type CountingProxy } from './counting-proxy.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SPAN_MS = Number(process.env.BENCH_REST_SPAN_S ?? 60) * 1000;
const WARMUP_MS = Number(process.env.BENCH_REST_WARMUP_S ?? 15) * 1000;
const TARGETS = { requests: 0.2, bytes: 0.5 };
const KiB = 1024;
const LABEL_WIDTH = 44;

interface Measured {
  label: string;
  count: ClientCount;
  minutes: number;
}


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/** Counts `client`'s traffic for SPAN_MS, starting from zero; the proxy is reset after, so the count stays as taken. */
async function measureSpan(proxy: CountingProxy, client: string, label: string): Promise<Measured> {
  proxy.reset();
  const started = performance.now();
  await sleep(SPAN_MS);
  const count = proxy.count(client);
  const minutes = (performance.now() - started) / 60_000;
  proxy.reset();
  return { label, count, minutes };
}

/** Polls the proxy's count until `client` asked for an endpoint matching `pattern`, or fails at the deadline. */
async function waitForRequest(proxy: CountingProxy, client: string, pattern: RegExp, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (![...proxy.count(client).byEndpoint.keys()].some((e) => pattern.test(e))) {
    if (Date.now() > deadline) throw new Error(`${what} asked nothing matching ${pattern} within 60 s`);
    await sleep(250);
  }
}

async function webUi(browser: Browser, proxy: CountingProxy, cluster: BenchCluster): Promise<Measured> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${proxy.url('web-ui')}/#/job/running/${cluster.jobId}/overview`);
    await waitForRequest(proxy, 'web-ui', /^\/jobs\/:id\/vertices\/:id/, "Flink's Web UI");
    await sleep(WARMUP_MS);
    return await measureSpan(proxy, 'web-ui', "Flink's Web UI, the job's overview (graph)");
  } finally {
    await context.close();
  }
}

async function consoleSide(browser: Browser, proxy: CountingProxy, cluster: BenchCluster): Promise<{ page: Measured; samplerAlone: Measured }> {
  const app = await startConsole();
  try {
    const clusterId = await addCluster(browser, app.url, proxy.url('console'), `Flink ${cluster.version} (proxied)`);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    let page: Measured;
    try {
      const tab = await context.newPage();
      await tab.goto(app.url);
      await tab.evaluate(({ id, jobId }) => (window.location.hash = `#/clusters/${encodeURIComponent(id)}/jobs/${jobId}`), { id: clusterId, jobId: cluster.jobId });
      await tab.locator('.react-flow__node').first().waitFor({ timeout: 60_000 });
      const toggle = tab.getByTestId('watch-toggle');
      await toggle.click();
      await toggle.and(tab.locator('[aria-pressed="true"]')).waitFor({ timeout: 30_000 });
      await sleep(WARMUP_MS);
      page = await measureSpan(proxy, 'console', 'the console, the job page, its history on');
    } finally {
      await context.close();
    }
    // The job stays pinned: the sampler goes on with no page open.
    await sleep(WARMUP_MS);
    const samplerAlone = await measureSpan(proxy, 'console', 'the console, no page open (the sampler alone)');
    return { page, samplerAlone };
  } finally {
    await app.stop();
  }
}

function perMinute(m: Measured): { requests: number; kib: number } {
  return { requests: m.count.requests / m.minutes, kib: m.count.bytes / KiB / m.minutes };
}

function print(cluster: BenchCluster, vertices: number, web: Measured, page: Measured, alone: Measured): void {
  console.log(
    `  ${cluster.jobName} (${vertices} vertices) on Flink ${cluster.version}; each measured alone for ${(SPAN_MS / 60_000).toFixed(1)} min after a ${WARMUP_MS / 1000} s warm-up; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );
  console.log(`  ${'through the proxy'.padEnd(LABEL_WIDTH)}  ${'requests/min'.padStart(12)}  ${'KiB/min'.padStart(9)}  ${'requests'.padStart(8)}  ${'KiB'.padStart(8)}`);
  for (const m of [web, page, alone]) {
    const rate = perMinute(m);
    console.log(
      `  ${m.label.padEnd(LABEL_WIDTH)}  ${rate.requests.toFixed(1).padStart(12)}  ${rate.kib.toFixed(1).padStart(9)}  ${String(m.count.requests).padStart(8)}  ${(m.count.bytes / KiB).toFixed(1).padStart(8)}`,
    );
  }
  const w = perMinute(web);
  const p = perMinute(page);
  const ratio = (console: number, ui: number) => (ui > 0 ? console / ui : Number.NaN);
  const requests = ratio(p.requests, w.requests);
  const bytes = ratio(p.kib, w.kib);
  const mark = (value: number, target: number) => (value <= target ? '✓' : '✗');
  console.log(`  ${'the console’s job page / the Web UI'.padEnd(LABEL_WIDTH)}  ${`${requests.toFixed(2)}×`.padStart(12)}  ${`${bytes.toFixed(2)}×`.padStart(9)}`);
  console.log(
    `  targets (issue 23): requests ≤ ${TARGETS.requests}× ${mark(requests, TARGETS.requests)} ${requests.toFixed(2)}×, bytes ≤ ${TARGETS.bytes}× ${mark(bytes, TARGETS.bytes)} ${bytes.toFixed(2)}×`,
  );
  for (const m of [web, page, alone]) {
    const top = [...m.count.byEndpoint].sort((a, b) => b[1].requests - a[1].requests).slice(0, 6);
    console.log(`  most asked, ${m.label}:`);
    for (const [endpoint, c] of top) console.log(`    ${(c.requests / m.minutes).toFixed(1).padStart(6)}/min  ${(c.bytes / KiB / m.minutes).toFixed(1).padStart(7)} KiB/min  ${endpoint}`);
  }
  console.log('  bytes: response bodies as the JobManager sent them; the Web UI\'s own files are loaded during its warm-up.');
}

async function main(): Promise<void> {
  const started = performance.now();
  const cluster = benchCluster();
  const job = cluster ? await fetch(`${cluster.restUrl}/jobs/${cluster.jobId}`).then((r) => (r.ok ? (r.json() as Promise<{ state: string; vertices: unknown[] }>) : undefined), () => undefined) : undefined;
  if (!cluster || !job) {
    console.log('  real Flink test job: not measured, run `npm run flink:up` first');
    return;
  }
  if (job.state !== 'RUNNING') {
    console.log(`  real Flink test job: not measured, it is ${job.state}`);
    return;
  }
  if (!existsSync(path.join(ROOT, 'renderer/dist/index.html'))) {
    console.log('  building the renderer first (npm run build)…');
    spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
  }
  const proxy = await startCountingProxy(cluster.restUrl, ['web-ui', 'console']);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const web = await webUi(browser, proxy, cluster);
    const { page, samplerAlone } = await consoleSide(browser, proxy, cluster);
    print(cluster, job.vertices.length, web, page, samplerAlone);
  } finally {
    await browser.close();
    await proxy.close();
  }
  console.log(`  (this case took ${((performance.now() - started) / 60_000).toFixed(1)} min)`);
}

await main();
