/**
 * The real-Flink side of the throughput benchmark: events per second through `gatewaymeter` on the real Flink of
 * this machine (the session cluster of `bash e2e/flink/flink.sh up`), parallelism 1, no throttling, no checkpoints,
 * next to the local engine's figure (`measureLocalThroughput`) and their ratio.
 *
 * The Java job is `dev.flinkops.testjob.GatewayMeterThroughputJob` (e2e/flink/job/): the same pipeline (source →
 * parse → keyBy(request_id) → assemble → keyBy(tenant_id) → tenant-cost → sink) fed by a port of the TypeScript
 * generator that yields the same events for the same seed, so both sides process the same 1,000,000 JSON lines and
 * must end with the same number of request records and window results (checked).
 *
 * Run: `npx tsx engine/bench/real-flink-throughput.ts [--version 2.2.1] [--events N] [--runs R] [--warmup W]`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchFlinkVersion } from './bench-cluster.ts';
import { promisify } from 'node:util';
import { formatThroughputComparison, measureLocalThroughput, type ThroughputResult } from './local-throughput.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const THROUGHPUT_ENTRY_CLASS = 'dev.flinkops.testjob.GatewayMeterThroughputJob';
const JAR_PREFIX = 'gatewaymeter-throughput-';

export interface RealFlinkRun {
  jobId: string;
  /** `/jobs/:jobid` `duration`: job created → FINISHED (includes scheduling, deployment, task initialization). */
  jobSeconds: number;
  /** Source subtask RUNNING → last subtask of the job FINISHED (subtask state timestamps): the data-flow time. */
  pipelineSeconds: number;
  /** Source subtask RUNNING → FINISHED (it finishes once the downstream tasks have taken all but their buffers). */
  sourceSeconds: number;
  /** events / pipelineSeconds: the figure compared. */
  eventsPerSecond: number;
  /** events / jobSeconds. */
  eventsPerJobSecond: number;
  /**
   * Sum over the three tasks of `accumulated-busy-time` (neither idle nor backpressured), seconds: with parallelism 1
   * the tasks still run on three threads that overlap, so this approximates the work on one core.
   */
  busySeconds?: number;
  eventsPerBusySecond?: number;
  /**
   * CPU time the TaskManager JVMs used from submission to FINISHED (user + system, from /proc: the cluster runs on
   * this machine), less their idle rate measured just before (the test job's share): all the job's threads, GC and
   * JIT included, and its deployment/initialization too. Undefined when the TaskManager processes are not readable.
   */
  cpuSeconds?: number;
  eventsPerCpuSecond?: number;
  /** The job's accumulators: events, parseErrors, requestRecords, abandonedRequests, windows, nanoUsd. */
  accumulators: Record<string, number>;
}

export interface RealFlinkThroughput {
  version: string;
  restUrl: string;
  jarId: string;
  events: number;
  parallelism: 1;
  warmupRuns: RealFlinkRun[];
  runs: RealFlinkRun[];
  /** Median of the measured runs' eventsPerSecond. */
  eventsPerSecond: number;
  /** Median of the measured runs' eventsPerJobSecond. */
  eventsPerJobSecond: number;
  eventsPerBusySecond?: number;
  eventsPerCpuSecond?: number;
}

/** The figure, or null with the reason it could not be measured (no cluster, no free slot, job failed...). */
export type RealFlinkOutcome = { result: RealFlinkThroughput; reason?: undefined } | { result: null; reason: string };

export interface RealFlinkOptions {
  /** Flink version of the cluster (`.cache/flink/<version>/cluster.json`). @default the bench's (benchFlinkVersion) */
  version?: string;
  /** @default 1_000_000 */
  events?: number;
  /** Unmeasured runs first (the TaskManager JVM is long-lived: Flink's runtime classes get JIT-compiled). @default 1 */
  warmupRuns?: number;
  /** Measured runs; the median is reported. @default 3 */
  runs?: number;
  /** Per run. @default 10 minutes */
  timeoutMs?: number;
  log?: (line: string) => void;
}

interface ClusterJson {
  version: string;
  restUrl: string;
  jobId?: string;
  jobName?: string;
  jarId?: string | null;
}

class Skip extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The innermost "Caused by:" of a Flink error answer (they carry whole stack traces). */
function rootCause(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const causes = lines.filter((l) => l.startsWith('Caused by:'));
  return (causes.length ? causes[causes.length - 1].slice('Caused by:'.length).trim() : lines[0] ?? 'no details').slice(0, 400);
}

class Rest {
  constructor(readonly base: string) {}

  async call<T>(method: string, pathname: string, body?: unknown, timeoutMs = 30_000): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.base + pathname, {
        method,
        headers: body === undefined || body instanceof FormData ? undefined : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new Skip(`Flink REST ${this.base} not reachable (${method} ${pathname}: ${(error as Error).message})`);
    }
    const text = await response.text();
    if (!response.ok) {
      let detail = text;
      try {
        detail = ((JSON.parse(text) as { errors?: string[] }).errors ?? []).join('\n') || text;
      } catch {
        // not JSON
      }
      throw new Error(`${method} ${pathname} → HTTP ${response.status}: ${rootCause(detail)}`);
    }
    return (text ? JSON.parse(text) : {}) as T;
  }

  get<T>(pathname: string): Promise<T> {
    return this.call<T>('GET', pathname);
  }
}

interface Overview {
  taskmanagers: number;
  'slots-total': number;
  'slots-available': number;
  'jobs-running': number;
}

async function requireFreeSlot(rest: Rest, parallelism: number): Promise<void> {
  const ov = await rest.get<Overview>('/overview');
  if (ov['slots-available'] >= parallelism) return;
  const jobs = await rest.get<{ jobs: Array<{ name: string; state: string }> }>('/jobs/overview').catch(() => ({ jobs: [] }));
  const running = jobs.jobs.filter((j) => !['FINISHED', 'FAILED', 'CANCELED'].includes(j.state)).map((j) => `${j.name} (${j.state})`);
  throw new Skip(
    `no free slot on ${rest.base}: ${ov['slots-available']} of ${ov['slots-total']} slots available (${ov.taskmanagers} TaskManagers), ` +
      `parallelism ${parallelism} needs ${parallelism}; running: ${running.join(', ') || 'none'}. ` +
      'Wait for the other jobs to end (or cancel one you own) and run again.',
  );
}

/** `bash e2e/flink/flink.sh build`: the test-job jar built from the current sources, and its build stamp. */
async function buildJar(version: string): Promise<{ jar: string; stamp: string }> {
  const { stdout } = await promisify(execFile)('bash', [path.join(ROOT, 'e2e/flink/flink.sh'), 'build', '--version', version], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
    timeout: 15 * 60_000,
  });
  const jar = stdout.trim().split('\n').pop() ?? '';
  if (!jar || !existsSync(jar)) throw new Error(`flink.sh build printed no jar (${stdout.trim()})`);
  return { jar, stamp: readFileSync(path.join(path.dirname(jar), 'stamp'), 'utf8').trim() };
}

/**
 * The jar to run: the build of the current sources, uploaded as `gatewaymeter-throughput-<stamp>.jar` (reused while
 * the sources do not change; older uploads of ours are deleted, the test job's jar is left alone). If it cannot be
 * built, the jar of cluster.json (`jarId`), provided it has the entry class (a `/jars/:jarid/plan` probe).
 */
async function ensureJar(rest: Rest, cluster: ClusterJson, version: string, log: (line: string) => void): Promise<string> {
  let built: { jar: string; stamp: string } | undefined;
  try {
    built = await buildJar(version);
  } catch (error) {
    log(`  could not build the job jar (${(error as Error).message.split('\n')[0]}); trying cluster.json's jarId`);
  }
  const jars = await rest.get<{ files: Array<{ id: string; name: string; uploaded: number }> }>('/jars');
  if (built) {
    const name = `${JAR_PREFIX}${built.stamp.slice(0, 12)}.jar`;
    const existing = jars.files.find((f) => f.name === name);
    if (existing) return existing.id;
    const form = new FormData();
    form.append('jarfile', new Blob([readFileSync(built.jar)], { type: 'application/x-java-archive' }), name);
    const uploaded = await rest.call<{ filename: string; status: string }>('POST', '/jars/upload', form, 120_000);
    const jarId = path.basename(uploaded.filename);
    log(`  uploaded ${name} as ${jarId}`);
    for (const old of jars.files.filter((f) => f.name.startsWith(JAR_PREFIX) && f.id !== jarId)) {
      await rest.call('DELETE', `/jars/${encodeURIComponent(old.id)}`).catch(() => undefined);
    }
    return jarId;
  }
  const jarId = cluster.jarId;
  if (!jarId || !jars.files.some((f) => f.id === jarId)) throw new Skip('no job jar: it could not be built and cluster.json has no uploaded jarId');
  try {
    await rest.call('POST', `/jars/${encodeURIComponent(jarId)}/plan`, { entryClass: THROUGHPUT_ENTRY_CLASS, programArgsList: ['--events', '1'], parallelism: 1 });
  } catch (error) {
    throw new Skip(`the uploaded jar ${jarId} has no usable ${THROUGHPUT_ENTRY_CLASS} (${(error as Error).message}); run \`bash e2e/flink/flink.sh build\``);
  }
  return jarId;
}

interface JobDetail {
  jid: string;
  state: string;
  duration: number;
  vertices: Array<{
    id: string;
    name: string;
    parallelism: number;
    status: string;
    metrics?: Record<string, number | boolean>;
  }>;
}

interface SubtaskTimes {
  subtasks: Array<{ subtask: number; timestamps: Record<string, number> }>;
}

const TERMINAL = ['FINISHED', 'FAILED', 'CANCELED'];

/** The TaskManager JVMs of `flink.sh up` (pid files of its run dir), checked against their command lines. */
function taskManagerPids(version: string): number[] {
  const runDir = path.join(ROOT, `.cache/flink/${version}/run`);
  const pidDir = path.join(runDir, 'pid');
  if (!existsSync(pidDir)) return [];
  const pids: number[] = [];
  for (const f of readdirSync(pidDir).filter((n) => n.includes('taskexecutor') && n.endsWith('.pid'))) {
    for (const line of readFileSync(path.join(pidDir, f), 'utf8').split('\n')) {
      const pid = Number(line.trim());
      if (!Number.isInteger(pid) || pid <= 0) continue;
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (cmd.includes('TaskManagerRunner') && cmd.includes(runDir)) pids.push(pid);
      } catch {
        // gone
      }
    }
  }
  return pids;
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU seconds of these processes (undefined if one cannot be read). */
function cpuSecondsOf(pids: number[]): number | undefined {
  if (pids.length === 0) return undefined;
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    } catch {
      return undefined;
    }
  }
  return ticks / CLOCK_TICKS;
}

async function runOnce(rest: Rest, jarId: string, events: number, timeoutMs: number, tmPids: number[]): Promise<RealFlinkRun> {
  await requireFreeSlot(rest, 1);
  // The TaskManagers' CPU rate without this job (the test job runs there too), over 2 s.
  const idle0 = cpuSecondsOf(tmPids);
  const idleStart = performance.now();
  await sleep(2000);
  const idle1 = cpuSecondsOf(tmPids);
  const idleRate = idle0 !== undefined && idle1 !== undefined ? (idle1 - idle0) / ((performance.now() - idleStart) / 1000) : undefined;
  const cpu0 = cpuSecondsOf(tmPids);
  const cpuStart = performance.now();
  const submitted = await rest.call<{ jobid: string }>(
    'POST',
    `/jars/${encodeURIComponent(jarId)}/run`,
    { entryClass: THROUGHPUT_ENTRY_CLASS, programArgsList: ['--events', String(events)], parallelism: 1 },
    120_000,
  );
  const jobId = submitted.jobid;
  const started = Date.now();
  let job: JobDetail;
  for (;;) {
    job = await rest.get<JobDetail>(`/jobs/${jobId}`);
    if (TERMINAL.includes(job.state)) break;
    const waiting = job.state !== 'RUNNING' || job.vertices.some((v) => v.status === 'CREATED' || v.status === 'SCHEDULED');
    // The adaptive scheduler waits for resources: a job that cannot get its slot stays CREATED/SCHEDULED.
    if ((waiting && Date.now() - started > 60_000) || Date.now() - started > timeoutMs) {
      await rest.call('PATCH', `/jobs/${jobId}?mode=cancel`).catch(() => undefined);
      throw waiting
        ? new Skip(`job ${jobId} got no slot within 60 s (state ${job.state}); cancelled it. Another job probably took the free slot.`)
        : new Error(`job ${jobId} still ${job.state} after ${timeoutMs / 1000} s; cancelled it`);
    }
    await sleep(200);
  }
  const cpu1 = cpuSecondsOf(tmPids);
  const cpuSeconds =
    idleRate !== undefined && cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 - idleRate * ((performance.now() - cpuStart) / 1000) : undefined;
  if (job.state !== 'FINISHED') {
    const ex = await rest.get<{ 'root-exception'?: string }>(`/jobs/${jobId}/exceptions`).catch(() => ({}) as { 'root-exception'?: string });
    throw new Error(`job ${jobId} ended ${job.state}: ${rootCause(ex['root-exception'] ?? 'no exception recorded')}`);
  }
  const times = await Promise.all(job.vertices.map((v) => rest.get<SubtaskTimes>(`/jobs/${jobId}/vertices/${v.id}/subtasktimes`)));
  const source = times[0].subtasks[0].timestamps;
  const lastFinished = Math.max(...times.flatMap((t) => t.subtasks.map((s) => s.timestamps.FINISHED ?? 0)));
  const pipelineSeconds = (lastFinished - source.RUNNING) / 1000;
  const sourceSeconds = (source.FINISHED - source.RUNNING) / 1000;
  const busyMs = job.vertices.map((v) => Number(v.metrics?.['accumulated-busy-time']));
  const busySeconds = busyMs.every((b) => Number.isFinite(b) && b >= 0) ? busyMs.reduce((a, b) => a + b, 0) / 1000 : undefined;
  const acc = await rest.get<{ 'user-task-accumulators': Array<{ name: string; value: string }> }>(`/jobs/${jobId}/accumulators`);
  const accumulators = Object.fromEntries(acc['user-task-accumulators'].map((a) => [a.name, Number(a.value)]));
  if (accumulators.events !== events) throw new Error(`job ${jobId} parsed ${accumulators.events} events, expected ${events}`);
  return {
    jobId,
    jobSeconds: job.duration / 1000,
    pipelineSeconds,
    sourceSeconds,
    eventsPerSecond: events / pipelineSeconds,
    eventsPerJobSecond: events / (job.duration / 1000),
    busySeconds,
    eventsPerBusySecond: busySeconds ? events / busySeconds : undefined,
    cpuSeconds,
    eventsPerCpuSecond: cpuSeconds && cpuSeconds > 0 ? events / cpuSeconds : undefined,
    accumulators,
  };
}

/**
 * Runs `GatewayMeterThroughputJob` on the running cluster of `flink.sh up` (parallelism 1, one slot) `warmupRuns +
 * runs` times and reports the median of the measured runs. Null with a reason when there is no cluster, no free
 * slot, or the job cannot run.
 *
 * The figure is events / (source subtask RUNNING → last subtask FINISHED), from the subtasks' state timestamps: the
 * time the data flows. The job's `duration` also counts job creation, scheduling, deployment and task
 * initialization (a fixed few hundred ms per job, not throughput; the local figure starts after `submitJob` too);
 * `eventsPerJobSecond` gives it for reference.
 */
export async function measureRealFlinkThroughput(options: RealFlinkOptions = {}): Promise<RealFlinkOutcome> {
  const version = options.version ?? benchFlinkVersion();
  const events = options.events ?? 1_000_000;
  const warmup = options.warmupRuns ?? 1;
  const runs = Math.max(1, options.runs ?? 3);
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const log = options.log ?? (() => undefined);
  const file = path.join(ROOT, `.cache/flink/${version}/cluster.json`);
  if (!existsSync(file)) return { result: null, reason: `no Flink ${version} cluster is up (${file} is missing): run \`bash e2e/flink/flink.sh up --version ${version}\`` };
  const cluster = JSON.parse(readFileSync(file, 'utf8')) as ClusterJson;
  const rest = new Rest(cluster.restUrl.replace(/\/$/, ''));
  try {
    await requireFreeSlot(rest, 1);
    const jarId = await ensureJar(rest, cluster, version, log);
    const tmPids = taskManagerPids(version);
    const warmupRuns: RealFlinkRun[] = [];
    const measured: RealFlinkRun[] = [];
    for (let i = 0; i < warmup + runs; i++) {
      const run = await runOnce(rest, jarId, events, timeoutMs, tmPids);
      (i < warmup ? warmupRuns : measured).push(run);
      log(
        `  ${i < warmup ? 'warm-up' : 'run'} ${i < warmup ? i + 1 : i - warmup + 1}: job ${run.jobId} ` +
          `${Math.round(run.eventsPerSecond).toLocaleString('en-US')} events/s (data flow ${run.pipelineSeconds.toFixed(2)} s, ` +
          `source ${run.sourceSeconds.toFixed(2)} s, job duration ${run.jobSeconds.toFixed(2)} s` +
          `${run.busySeconds !== undefined ? `, tasks busy ${run.busySeconds.toFixed(2)} s` : ''}` +
          `${run.cpuSeconds !== undefined ? `, TaskManager CPU ${run.cpuSeconds.toFixed(2)} s` : ''})`,
      );
    }
    const busy = measured.map((r) => r.eventsPerBusySecond).filter((v): v is number => v !== undefined);
    const cpu = measured.map((r) => r.eventsPerCpuSecond).filter((v): v is number => v !== undefined);
    return {
      result: {
        version,
        restUrl: rest.base,
        jarId,
        events,
        parallelism: 1,
        warmupRuns,
        runs: measured,
        eventsPerSecond: median(measured.map((r) => r.eventsPerSecond)),
        eventsPerJobSecond: median(measured.map((r) => r.eventsPerJobSecond)),
        eventsPerBusySecond: busy.length === measured.length ? median(busy) : undefined,
        eventsPerCpuSecond: cpu.length === measured.length ? median(cpu) : undefined,
      },
    };
  } catch (error) {
    return { result: null, reason: error instanceof Skip ? error.message : `the real Flink run failed: ${(error as Error).message}` };
  }
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * Local and real runs alternate (local, real, local, real...), never at the same time: on a shared machine each pair
 * then sees about the same background load. Reported: the medians (compared by `formatThroughputComparison`), the
 * median of the per-pair ratios, the fastest run of each side (the least disturbed), and per CPU-second.
 */
async function main(): Promise<void> {
  const version = argValue('--version') ?? benchFlinkVersion();
  const events = Number(argValue('--events') ?? 1_000_000);
  const runs = Math.max(1, Number(argValue('--runs') ?? 3));
  const warmupRuns = Number(argValue('--warmup') ?? 1);

  console.log(`gatewaymeter throughput, ${fmt(events)} events, parallelism 1, no capacity limit, no checkpoints; ${runs} pairs of runs (local, then real Flink ${version})`);
  measureLocalThroughput({ events: 100_000 }); // JIT warm-up, as local-throughput.ts does
  const localRuns: ThroughputResult[] = [];
  const realRuns: RealFlinkRun[] = [];
  let real: RealFlinkThroughput | undefined;
  for (let i = 0; i < runs; i++) {
    const l = measureLocalThroughput({ events, parallelism: 1 });
    localRuns.push(l);
    console.log(
      `pair ${i + 1}: local engine ${fmt(l.eventsPerSecond)} events/s (${l.seconds.toFixed(2)} s wall, ${l.cpuSeconds.toFixed(2)} s CPU; ` +
        `${fmt(l.requestRecords)} request records, ${l.windowsEmitted} window results)`,
    );
    const outcome = await measureRealFlinkThroughput({ version, events, runs: 1, warmupRuns: i === 0 ? warmupRuns : 0, log: (line) => console.log(line) });
    if (!outcome.result) {
      console.log(`real Flink ${version}: not measured: ${outcome.reason}`);
      console.log(formatThroughputComparison(l));
      process.exitCode = 2;
      return;
    }
    real = outcome.result;
    realRuns.push(...real.runs);
  }
  const byRate = (a: ThroughputResult, b: ThroughputResult) => a.eventsPerSecond - b.eventsPerSecond;
  const local = [...localRuns].sort(byRate)[localRuns.length >> 1];
  const fastestLocal = [...localRuns].sort(byRate)[localRuns.length - 1];
  const realMedian = median(realRuns.map((r) => r.eventsPerSecond));
  const realFastest = Math.max(...realRuns.map((r) => r.eventsPerSecond));
  const pairRatios = localRuns.map((l, i) => l.eventsPerSecond / realRuns[i].eventsPerSecond);
  const acc = realRuns[0].accumulators;
  const same = realRuns.every((r) => r.accumulators.requestRecords === local.requestRecords && r.accumulators.windows === local.windowsEmitted);
  const cpu = realRuns.map((r) => r.eventsPerCpuSecond).filter((v): v is number => v !== undefined);
  console.log('');
  console.log(`local engine: median ${fmt(local.eventsPerSecond)} events/s, fastest ${fmt(fastestLocal.eventsPerSecond)}; median ${fmt(median(localRuns.map((r) => r.eventsPerCpuSecond)))} per CPU-second`);
  console.log(
    `real Flink ${version} (${real!.restUrl}): median ${fmt(realMedian)} events/s over the data flow, fastest ${fmt(realFastest)}; ` +
      `median ${fmt(median(realRuns.map((r) => r.eventsPerJobSecond)))} over the whole job duration` +
      `${cpu.length === realRuns.length ? `, ${fmt(median(cpu))} per TaskManager CPU-second` : ''}`,
  );
  console.log(
    `check: ${fmt(acc.requestRecords)} request records (${fmt(acc.abandonedRequests)} abandoned), ${acc.windows} window results, ` +
      `${(acc.nanoUsd / 1e9).toFixed(2)} USD on real Flink — ${same ? 'same records and windows as the local engine' : 'DIFFERENT from the local engine'}`,
  );
  console.log(formatThroughputComparison(local, realMedian));
  console.log(
    `ratio per pair: ${pairRatios.map((r) => r.toFixed(2)).join(', ')} (median ${median(pairRatios).toFixed(2)}); ` +
      `fastest runs: ${(fastestLocal.eventsPerSecond / realFastest).toFixed(2)}` +
      `${cpu.length === realRuns.length ? `; per CPU-second: ${(median(localRuns.map((r) => r.eventsPerCpuSecond)) / median(cpu)).toFixed(2)} (real Flink runs its 3 tasks on 3 threads even at parallelism 1)` : ''}`,
  );
  if (!same) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
