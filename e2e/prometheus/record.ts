/**
 * Records real Prometheus answers about the running test job for unit tests: `npx tsx e2e/prometheus/record.ts`
 * (FLINK_VERSION picks the cluster, 2.3.0 by default) with `flink.sh up --prometheus` and `prometheus.sh up` running.
 * Waits until Prometheus holds WINDOW_S of the job, then saves into `e2e/prometheus/recorded/<V>/` (or RECORD_DIR)
 * a `query_range` matrix per metric (step STEP_S), its raw samples (`metric[WINDOW_S]`), the job's series, buildinfo,
 * targets and Flink's `GET /jobs/:id`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { flinkVersion, getFromFlink, readFlinkCluster } from '../support/flinkCluster';
import { DEFAULT_PROMETHEUS_DIR, type PrometheusFacts } from './prometheus-process';

const WINDOW_S = Number(process.env.WINDOW_S ?? 300);
const STEP_S = 5;
const MAX_FILE_BYTES = 300 * 1024;

/** Task-scope series (one per subtask and attempt); the names are as Flink 2.3's reporter forms them. */
export const TASK_METRICS = [
  'numRecordsIn',
  'numRecordsOut',
  'numBytesIn',
  'numBytesOut',
  'numRecordsInPerSecond',
  'numRecordsOutPerSecond',
  'numBytesInPerSecond',
  'numBytesOutPerSecond',
  'busyTimeMsPerSecond',
  'backPressuredTimeMsPerSecond',
  'idleTimeMsPerSecond',
  'accumulateBusyTimeMs',
  'accumulateBackPressuredTimeMs',
  'accumulateIdleTimeMs',
  'currentInputWatermark',
  'isBackPressured',
];

/** Job-scope series of the JobManager (one per job). */
export const JOB_METRICS = ['numRestarts', 'uptime', 'lastCheckpointDuration', 'numberOfCompletedCheckpoints'];

function log(message: string): void {
  process.stderr.write(`[record] ${message}\n`);
}

/** The answer's exact text (a recording keeps the bytes Prometheus sent) and its JSON. */
async function promGet(url: string, pathAndQuery: string): Promise<{ text: string; body: unknown }> {
  const response = await fetch(`${url}${pathAndQuery}`, { signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  const body = JSON.parse(text) as { status?: string; error?: string };
  if (!response.ok || body.status !== 'success') throw new Error(`GET ${pathAndQuery} answered ${response.status}: ${body.error ?? ''}`);
  return { text, body };
}

async function record(url: string, dir: string, name: string, request: string, files: Record<string, string>): Promise<unknown> {
  const { text, body } = await promGet(url, request);
  if (Buffer.byteLength(text) > MAX_FILE_BYTES) throw new Error(`${name} is ${Buffer.byteLength(text)} bytes, over ${MAX_FILE_BYTES}`);
  mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  writeFileSync(path.join(dir, name), text.endsWith('\n') ? text : `${text}\n`);
  files[name] = request;
  return body;
}

async function main(): Promise<void> {
  const version = flinkVersion();
  const cluster = readFlinkCluster(version);
  const facts = JSON.parse(readFileSync(path.join(DEFAULT_PROMETHEUS_DIR, 'prometheus.json'), 'utf8')) as PrometheusFacts;
  const jobId = cluster.jobId;
  const out = process.env.RECORD_DIR ?? path.join(path.dirname(new URL(import.meta.url).pathname), 'recorded', version);
  mkdirSync(out, { recursive: true });
  const selector = `job_id="${jobId}"`;

  // Prometheus must hold the whole window: its oldest busy sample of the job at least WINDOW_S old
  const deadline = Date.now() + (WINDOW_S + 120) * 1000;
  // RECORD_NOW=1: a window with a failover, whose new attempts cannot have the whole window
  while (process.env.RECORD_NOW !== '1') {
    const now = Math.floor(Date.now() / 1000);
    const { body } = (await promGet(
      facts.url,
      `/api/v1/query?query=${encodeURIComponent(`count_over_time(flink_taskmanager_job_task_busyTimeMsPerSecond{${selector}}[${WINDOW_S}s])`)}&time=${now}`,
    )) as { body: { data: { result: { value: [number, string] }[] } } };
    const counts = body.data.result.map((r) => Number(r.value[1]));
    const full = Math.floor(WINDOW_S / facts.scrapeIntervalS) - 1;
    if (counts.length > 0 && Math.min(...counts) >= full) break;
    if (Date.now() > deadline) throw new Error(`Prometheus holds ${Math.min(...counts, 0)} of ${full} samples of the job after waiting`);
    log(`waiting for ${WINDOW_S}s of samples (have ${counts.length ? Math.min(...counts) : 0} of ${full})`);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }

  const end = Math.floor(Date.now() / 1000 / STEP_S) * STEP_S;
  const start = end - WINDOW_S;
  const files: Record<string, string> = {};
  for (const [scope, metrics] of [
    ['taskmanager_job_task', TASK_METRICS],
    ['jobmanager_job', JOB_METRICS],
  ] as const) {
    for (const metric of metrics) {
      const query = `flink_${scope}_${metric}{${selector}}`;
      const request = `/api/v1/query_range?query=${encodeURIComponent(query)}&start=${start}&end=${end}&step=${STEP_S}s`;
      await record(facts.url, out, `query_range/flink_${scope}_${metric}.json`, request, files);
      // the raw samples with their scrape timestamps: a range query holds a value up to 5 min (Prometheus' lookback)
      const raw = `/api/v1/query?query=${encodeURIComponent(`${query}[${WINDOW_S}s]`)}&time=${end}`;
      await record(facts.url, out, `raw/flink_${scope}_${metric}.json`, raw, files);
    }
  }
  const seriesOf = (match: string): string =>
    `/api/v1/series?${new URLSearchParams({ 'match[]': match, start: String(start), end: String(end) })}`;
  // all of the job's series (about 250 KB a 5 min window); with a failover's second attempt, only the task scope
  await record(facts.url, out, 'series.json', seriesOf(`{${selector}}`), files).catch((error: unknown) => {
    if (!String(error).includes('bytes, over')) throw error;
    log('the series of the whole job are too big: recording the task scope only');
    return record(facts.url, out, 'series.json', seriesOf(`{__name__=~"flink_taskmanager_job_task_[A-Za-z]+",${selector}}`), files);
  });
  const namesRequest = `/api/v1/label/__name__/values?${new URLSearchParams({ 'match[]': `{${selector}}` })}`;
  await record(facts.url, out, 'label-name-values.json', namesRequest, files);
  await record(facts.url, out, 'buildinfo.json', '/api/v1/status/buildinfo', files);
  await record(facts.url, out, 'targets.json', '/api/v1/targets', files);
  const job = await getFromFlink<{ vertices: { id: string; name: string; parallelism: number }[] }>(cluster, `/jobs/${jobId}`);
  writeFileSync(path.join(out, 'flink-job.json'), `${JSON.stringify(job, null, 2)}\n`);
  files['flink-job.json'] = `(Flink REST) /jobs/${jobId}`;

  const manifest = {
    flinkVersion: version,
    recordedAt: new Date(end * 1000).toISOString(),
    jobId,
    window: { start, end, stepS: STEP_S },
    scrapeIntervalS: facts.scrapeIntervalS,
    vertices: job.vertices.map((v) => ({ id: v.id, name: v.name, parallelism: v.parallelism })),
    note:
      'Real answers of Prometheus 2.42 (Debian) scraping the PrometheusReporter of a local Flink session cluster ' +
      '(flink.sh up --prometheus) running the gatewaymeter-test job; see e2e/prometheus/README.md. ' +
      "'files' maps each file to its request (relative to Prometheus' root).",
    files,
  };
  writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`saved ${Object.keys(files).length} files into ${out}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`record: ERROR: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
