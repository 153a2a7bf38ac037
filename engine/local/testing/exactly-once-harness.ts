import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILT_IN_JARS } from '../jars/built-in-jars.ts';
import { compareTotals, type TotalsComparison } from '../oracle/compare-totals.ts';
import { computeExpectedTotals, type ExpectedTotals } from '../oracle/gatewaymeter-oracle.ts';
import { readUpsertLog } from '../oracle/upsert-log.ts';
import { isFlinkErrorBody, specHasOperation, validateAgainstSpec } from '../rest-spec/validate-against-spec.ts';
import type { JobExecution } from '../runtime/job.ts';
import { loadScenario } from '../scenarios/scenario.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';
import { mulberry32 } from '../time/random.ts';

/**
 * The exactly-once proofs of the local engine, shared by the unit test (`exactly-once.test.ts`) and the full-size
 * benchmark (`engine/bench/local-checkpoint-proof.ts`): a bounded GatewayMeter run of the `exactly-once` scenario (no
 * late data) on a manual clock, driven only through Flink's REST API (plus the engine's TaskManager kill), and its
 * `--sink-dir` upsert log compared with the independent oracle:
 * (a) plain, (b) a TaskManager killed at random moments, (c) stop-with-savepoint (no drain) and restores at other
 * parallelisms, (d) adaptive rescales mid-run. Every REST response on the way is validated against Flink's spec.
 */

export interface ProofConfig {
  events: number;
  /** Events per second. */
  rate: number;
  seed: number;
  /** Virtual start time (a minute boundary plus an offset, so windows are cut mid-stream). */
  startTime: number;
  checkpointIntervalMs: number;
}

export const DEFAULT_PROOF_CONFIG: ProofConfig = {
  events: 400_000,
  rate: 1000,
  seed: 42,
  startTime: 1_767_225_617_000,
  checkpointIntervalMs: 10_000,
};

export interface ProofOutcome {
  name: string;
  comparison: TotalsComparison;
  /** Jobs the run went through (restores from savepoints start new jobs). */
  jobs: Array<{ jobId: string; status: string; parallelism: number[]; numRestarts: number; numRescales: number; checkpoints: number }>;
  /** Lines in the upsert log (firings, incl. re-fires after restores) and distinct rows. */
  sinkLines: number;
  sinkRows: number;
  /** What happened, for the report (kill times, savepoint paths, rescales). */
  events: string[];
  wallMs: number;
  /** Spec problems of REST responses (must be empty). */
  specProblems: string[];
}

const SCENARIO = 'exactly-once';
const JAR = BUILT_IN_JARS.find((j) => j.job === 'gatewaymeter')!.id;

/** The oracle's expectation for a config: the stream of the first run (4 splits, started at `startTime`). */
export function expectedTotalsFor(config: ProofConfig): ExpectedTotals {
  const scenario = loadScenario(SCENARIO);
  return computeExpectedTotals({
    generator: { ...scenario.traffic, rate: config.rate, events: config.events, seed: config.seed },
    sourceParallelism: scenario.parallelism ?? 4,
    startTime: config.startTime,
  });
}

/** A REST client on the engine that validates every Flink response against the spec. */
class Rest {
  readonly problems: string[] = [];

  constructor(private readonly handle: LocalEngineHandle) {}

  async call(method: string, template: string, params: Record<string, string>, body?: unknown): Promise<{ status: number; body: unknown }> {
    const url = template.replace(/:([a-z]+)/g, (_, p: string) => params[p]);
    const response = await fetch(`${this.handle.url}${url}`, {
      method,
      ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    if (response.status < 300 && specHasOperation(method, template)) {
      const empty = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).length === 0;
      const errors = validateAgainstSpec(method, template, response.status, parsed).filter((e) => !(empty && e.includes('has no body')));
      for (const e of errors) this.problems.push(`${method} ${template} ${response.status}: ${e}`);
    } else if (response.status >= 400 && !isFlinkErrorBody(parsed)) {
      this.problems.push(`${method} ${template} ${response.status}: not a Flink error body: ${text.slice(0, 200)}`);
    }
    return { status: response.status, body: parsed };
  }
}

async function withEngine<T>(config: ProofConfig, options: Parameters<typeof startLocalEngine>[0], run: (h: LocalEngineHandle, rest: Rest, dirs: { checkpoints: string; sink: string }) => Promise<T>): Promise<T> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'le-proof-'));
  const dirs = { checkpoints: path.join(root, 'checkpoints'), sink: path.join(root, 'sink') };
  const handle = await startLocalEngine({
    port: 0,
    time: 'manual',
    clock: new ManualClock(config.startTime),
    scenario: SCENARIO,
    seed: config.seed,
    events: config.events,
    rate: config.rate,
    checkpointDir: dirs.checkpoints,
    checkpointIntervalMs: config.checkpointIntervalMs,
    sinkDir: dirs.sink,
    ...options,
  });
  try {
    return await run(handle, new Rest(handle), dirs);
  } finally {
    await handle.close();
    rmSync(root, { recursive: true, force: true });
  }
}

function describeJob(job: JobExecution): ProofOutcome['jobs'][number] {
  return {
    jobId: job.jobId,
    status: job.status,
    parallelism: job.jobGraph.vertices.map((v) => v.parallelism),
    numRestarts: job.numRestarts,
    numRescales: job.numRescales,
    checkpoints: job.checkpointTracker?.counts.completed ?? 0,
  };
}

function finish(name: string, expected: ExpectedTotals, sinkDir: string, jobs: JobExecution[], events: string[], started: number, rest: Rest): ProofOutcome {
  const log = readUpsertLog(sinkDir, 'gatewaymeter');
  return {
    name,
    comparison: compareTotals(expected, log.rows),
    jobs: jobs.map(describeJob),
    sinkLines: log.lines,
    sinkRows: log.rows.size,
    events,
    wallMs: performance.now() - started,
    specProblems: rest.problems,
  };
}

/** Runs the engine until the job is terminal (bounded run) or `maxMs` of virtual time passed. */
function runToEnd(handle: LocalEngineHandle, job: JobExecution, maxMs = 3_600_000): void {
  if (!handle.engine.cluster.advanceUntil(() => job.isTerminal, maxMs)) throw new Error(`Job ${job.jobId} did not end within ${maxMs} ms of virtual time (status ${job.status}).`);
}

/** Advances until `predicate` holds, polling every `stepMs`; throws after `maxMs`. */
function advanceUntil(handle: LocalEngineHandle, predicate: () => boolean, maxMs: number, what: string): void {
  if (!handle.engine.cluster.advanceUntil(predicate, maxMs)) throw new Error(`Timed out after ${maxMs} ms of virtual time waiting for ${what}.`);
}

/** Roughly how long the source of a config runs, in virtual ms. */
function sourceDurationMs(config: ProofConfig): number {
  return (config.events / config.rate) * 1000;
}

/** (a) A plain run with periodic checkpoints. */
export async function proofPlain(config: ProofConfig, expected: ExpectedTotals): Promise<ProofOutcome> {
  return withEngine(config, {}, async (handle, rest, dirs) => {
    const started = performance.now();
    const job = [...handle.engine.cluster.jobs.values()][0];
    runToEnd(handle, job);
    await rest.call('GET', '/jobs/:jobid/checkpoints', { jobid: job.jobId });
    return finish('plain', expected, dirs.sink, [job], [], started, rest);
  });
}

/**
 * (b) A TaskManager that runs the job is killed (through the engine's REST endpoint) at `kills` random moments; the
 * fixed-delay strategy restarts the job from its latest completed checkpoint every time.
 */
export async function proofTaskManagerKills(config: ProofConfig, expected: ExpectedTotals, kills = 5, killSeed = 7): Promise<ProofOutcome> {
  return withEngine(config, { restartStrategy: 'fixed-delay', restartAttempts: kills + 5, restartDelayMs: 1000, taskManagerRestartDelayMs: 5000 }, async (handle, rest, dirs) => {
    const started = performance.now();
    const job = [...handle.engine.cluster.jobs.values()][0];
    const random = mulberry32(killSeed);
    const span = sourceDurationMs(config);
    const times = Array.from({ length: kills }, () => config.startTime + Math.round(span * (0.05 + 0.85 * random()))).sort((a, b) => a - b);
    const events: string[] = [];
    for (const at of times) {
      if (at > handle.engine.now()) handle.engine.advance(at - handle.engine.now());
      advanceUntil(handle, () => job.status === 'RUNNING' || job.isTerminal, 120_000, 'the job to run again');
      if (job.isTerminal) break;
      const hosts = handle.engine.cluster.taskManagers.filter((tm) => tm.slots.includes(job.jobId));
      const victim = hosts[Math.floor(random() * hosts.length)];
      const { status } = await rest.call('POST', '/local-engine/v1/taskmanagers/:taskmanagerid/kill', { taskmanagerid: victim.id });
      if (status !== 200) throw new Error(`Killing TaskManager ${victim.id} answered ${status}.`);
      events.push(`t+${((handle.engine.now() - config.startTime) / 1000).toFixed(1)}s: killed TaskManager ${victim.id.slice(0, 8)} (restart ${job.numRestarts})`);
    }
    runToEnd(handle, job);
    const exceptions = await rest.call('GET', '/jobs/:jobid/exceptions', { jobid: job.jobId });
    events.push(`exception history: ${(exceptions.body as { exceptionHistory: { entries: unknown[] } }).exceptionHistory.entries.length} entries`);
    return finish('TaskManager kills', expected, dirs.sink, [job], events, started, rest);
  });
}

async function pollSavepoint(handle: LocalEngineHandle, rest: Rest, jobId: string, triggerId: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const { body } = await rest.call('GET', '/jobs/:jobid/savepoints/:triggerid', { jobid: jobId, triggerid: triggerId });
    const result = body as { status: { id: string }; operation: { location?: string; 'failure-cause'?: { 'stack-trace': string } } | null };
    if (result.status.id === 'COMPLETED') {
      if (result.operation?.location) return result.operation.location;
      throw new Error(`The savepoint failed: ${result.operation?.['failure-cause']?.['stack-trace'] ?? JSON.stringify(result)}`);
    }
    handle.engine.advance(100);
  }
  throw new Error(`Savepoint ${triggerId} of job ${jobId} did not complete.`);
}

/**
 * (c) Stop-with-savepoint (no drain), then run the jar again from the savepoint at the next parallelism, through
 * `POST /jars/:jarid/run` with the same program arguments; the last job runs to the end.
 */
export async function proofSavepointRescales(config: ProofConfig, expected: ExpectedTotals, parallelisms = [1, 3, 8, 32]): Promise<ProofOutcome> {
  return withEngine(config, {}, async (handle, rest, dirs) => {
    const started = performance.now();
    const jobs = [[...handle.engine.cluster.jobs.values()][0]];
    const events: string[] = [];
    const span = sourceDurationMs(config);
    const programArgsList = ['--scenario', SCENARIO, '--seed', String(config.seed), '--events', String(config.events), '--rate', String(config.rate), '--sink-dir', dirs.sink];
    for (let i = 0; i < parallelisms.length; i++) {
      const job = jobs[jobs.length - 1];
      const stopAt = config.startTime + Math.round((span * (i + 1)) / (parallelisms.length + 1));
      if (stopAt > handle.engine.now()) handle.engine.advance(stopAt - handle.engine.now());
      if (job.isTerminal) throw new Error(`Job ${job.jobId} ended (${job.status}) before the stop.`);
      const stop = await rest.call('POST', '/jobs/:jobid/stop', { jobid: job.jobId }, { drain: false });
      const location = await pollSavepoint(handle, rest, job.jobId, (stop.body as { 'request-id': string })['request-id']);
      advanceUntil(handle, () => job.isTerminal, 60_000, `job ${job.jobId} to finish after stop-with-savepoint`);
      if (job.status !== 'FINISHED') throw new Error(`Stop-with-savepoint ended the job ${job.status}, expected FINISHED.`);
      const run = await rest.call('POST', '/jars/:jarid/run', { jarid: JAR }, { savepointPath: location, parallelism: parallelisms[i], programArgsList });
      if (run.status !== 200) throw new Error(`Run from ${location} at parallelism ${parallelisms[i]} answered ${run.status}: ${JSON.stringify(run.body)}`);
      const next = handle.engine.cluster.jobs.get((run.body as { jobid: string }).jobid)!;
      jobs.push(next);
      events.push(
        `t+${((handle.engine.now() - config.startTime) / 1000).toFixed(1)}s: stopped ${job.jobId.slice(0, 8)} at parallelism ${job.jobGraph.vertices[0].parallelism} → ${location.split('/').pop()} → restored as ${next.jobId.slice(0, 8)} at parallelism ${parallelisms[i]}`,
      );
    }
    runToEnd(handle, jobs[jobs.length - 1]);
    return finish('stop-with-savepoint and restore', expected, dirs.sink, jobs, events, started, rest);
  });
}

/**
 * (d) Adaptive rescales mid-run through `PUT /jobs/:jobid/resource-requirements`: each takes effect at the next
 * completed checkpoint (FLIP-461) and restarts the job from it at the new parallelism.
 */
export async function proofAdaptiveRescale(config: ProofConfig, expected: ExpectedTotals, steps: number[][] = [[2, 6, 3], [8, 5, 8]]): Promise<ProofOutcome> {
  return withEngine(config, {}, async (handle, rest, dirs) => {
    const started = performance.now();
    const job = [...handle.engine.cluster.jobs.values()][0];
    const events: string[] = [];
    const span = sourceDurationMs(config);
    for (let i = 0; i < steps.length; i++) {
      const at = config.startTime + Math.round((span * (i + 1)) / (steps.length + 1));
      if (at > handle.engine.now()) handle.engine.advance(at - handle.engine.now());
      const current = (await rest.call('GET', '/jobs/:jobid/resource-requirements', { jobid: job.jobId })).body as Record<string, { parallelism: { lowerBound: number; upperBound: number } }>;
      const vertexIds = job.jobGraph.vertices.map((v) => v.id);
      const body = Object.fromEntries(vertexIds.map((id, k) => [id, { parallelism: { lowerBound: 1, upperBound: steps[i][k] } }]));
      const put = await rest.call('PUT', '/jobs/:jobid/resource-requirements', { jobid: job.jobId }, body);
      if (put.status !== 200) throw new Error(`PUT resource-requirements answered ${put.status}: ${JSON.stringify(put.body)}`);
      const before = job.numRescales;
      advanceUntil(handle, () => job.numRescales > before && job.status === 'RUNNING', 4 * config.checkpointIntervalMs, 'the rescale');
      events.push(
        `t+${((handle.engine.now() - config.startTime) / 1000).toFixed(1)}s: ${vertexIds.map((id) => current[id].parallelism.upperBound).join('/')} → ${job.jobGraph.vertices.map((v) => v.parallelism).join('/')} (restored from checkpoint ${job.checkpointTracker?.latestRestored()?.checkpointId})`,
      );
    }
    runToEnd(handle, job);
    return finish('adaptive rescale', expected, dirs.sink, [job], events, started, rest);
  });
}
