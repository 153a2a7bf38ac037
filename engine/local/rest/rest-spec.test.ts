import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment } from '../api/datastream.ts';
import { CollectSink, SequenceSource } from '../api/sources.ts';
import { forBoundedOutOfOrderness } from '../api/watermarks.ts';
import { endpoints } from '../../flink-rest/endpoints.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';
import { specHasOperation, validateAgainstSpec } from '../rest-spec/validate-against-spec.ts';
import { LOG_ROUTES } from './log-routes.ts';
import { EXTRA_ROUTES, ROUTES } from './server.ts';

/**
 * Every response of the local engine's REST API validates against Flink's official OpenAPI spec
 * (`resources/flink-rest/rest_v1_dispatcher.1.19-SNAPSHOT.yml`), route by route, in the states a job can be in, with
 * `validateAgainstSpec`: it accepts the documented places where real Flink's wire departs from its own spec
 * (`WIRE_DEVIATIONS`: bare metric arrays, `JobConfigInfo`'s serializer, null for unset fields, "NaN" doubles, lower-case
 * checkpointing mode, ...), each observed on a real 2.2.1 / 1.20.3.
 */
function specErrors(method: string, template: string, status: number, body: unknown): string[] {
  // Flink serializes EmptyResponseBody as {}: the spec documents no body.
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0 && !specHasBody(method, template, status)) return [];
  return validateAgainstSpec(method, template, status, body);
}

function specHasBody(method: string, template: string, status: number): boolean {
  return validateAgainstSpec(method, template, status, { __probe: true }).every((e) => !e.includes('has no body in the spec'));
}

function specOperation(method: string, template: string): boolean {
  return specHasOperation(method, template);
}

const T0 = 1_767_225_600_000;
let handle: LocalEngineHandle;
let checkpointDir: string;
const ids = { running: '', failed: '', canceled: '', finished: '' };
const triggers = { savepoint: '', checkpoint: '' };
let checkpointId = 0;

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${handle.url}${url}`, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

function smallJob(name: string, fail: boolean, count?: number) {
  const env = new StreamExecutionEnvironment({ parallelism: 1 });
  env
    .fromSource(new SequenceSource({ ratePerSubtask: 10, countPerSubtask: count, record: (i) => i }), forBoundedOutOfOrderness(0), 'numbers')
    .uid(`${name}-numbers`)
    .map((x: number) => {
      if (fail && x === 5) throw new Error('Simulated failure at record 5');
      return x;
    }, undefined, 'check')
    .uid(`${name}-check`)
    .sinkTo(new CollectSink<number>(), 'collect');
  return env.getStreamGraph(name);
}

/** Runs the engine until `done`: the test moves a manual clock; the real clock moves by itself (polled, with a deadline). */
async function runUntil(time: 'manual' | 'real', manualStepMs: number, done: () => boolean, what: string): Promise<void> {
  if (time === 'manual') {
    handle.engine.advance(manualStepMs);
    if (!done()) throw new Error(`Not reached after ${manualStepMs} virtual ms: ${what}`);
    return;
  }
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Not reached within 30 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The same states on a virtual clock the test moves, and on the real clock (the engine measuring CPU time, as
 * `npm start` runs it): real time is where fractions of a millisecond show up, e.g. in the accumulated times.
 */
async function startEngine(time: 'manual' | 'real'): Promise<void> {
  checkpointDir = mkdtempSync(path.join(os.tmpdir(), 'le-ckpt-'));
  handle = await startLocalEngine({
    port: 0,
    time,
    ...(time === 'manual' && { clock: new ManualClock(T0) }),
    checkpointDir,
    checkpointIntervalMs: time === 'manual' ? undefined : 1_000,
    taskManagers: 5,
  });
  ids.running = [...handle.engine.cluster.jobs.keys()][0];
  const cluster = handle.engine.cluster;
  ids.failed = cluster.submitJob(smallJob('failing', true)).jobId;
  ids.canceled = cluster.submitJob(smallJob('to-cancel', false)).jobId;
  ids.finished = cluster.submitJob(smallJob('bounded', false, 20)).jobId;
  const job = (id: string) => cluster.jobs.get(id)!;
  await runUntil(time, 12_000, () => job(ids.failed).status === 'FAILED' && job(ids.finished).status === 'FINISHED' && (job(ids.running).checkpointTracker?.history().length ?? 0) > 0, 'a failed, a finished job and a checkpoint');
  job(ids.canceled).cancel();
  triggers.savepoint = ((await call('POST', `/jobs/${ids.running}/savepoints`, {})).body as { 'request-id': string })['request-id'];
  triggers.checkpoint = ((await call('POST', `/jobs/${ids.running}/checkpoints`, {})).body as { 'request-id': string })['request-id'];
  const settled = (triggerId: string, kind: 'savepoints' | 'checkpoints') => async () =>
    ((await call('GET', `/jobs/${ids.running}/${kind}/${triggerId}`)).body as { status: { id: string } }).status.id === 'COMPLETED';
  if (time === 'manual') handle.engine.advance(1_000);
  else {
    const deadline = Date.now() + 30_000;
    while (!((await settled(triggers.savepoint, 'savepoints')()) && (await settled(triggers.checkpoint, 'checkpoints')()))) {
      if (Date.now() > deadline) throw new Error('The savepoint and the checkpoint did not complete within 30 s.');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  checkpointId = cluster.jobs.get(ids.running)!.checkpointTracker!.history()[0].checkpointId;
}

async function stopEngine(): Promise<void> {
  await handle?.close();
  rmSync(checkpointDir, { recursive: true, force: true });
}

/** Every concrete URL for a route template in the current engine state, with the status it must answer. */
function urlsFor(template: string): Array<{ url: string; status: number }> {
  if (!template.includes(':')) return [{ url: template, status: 200 }];
  const out = new Map<string, number>();
  for (const jobId of Object.values(ids)) {
    const job = handle.engine.cluster.jobs.get(jobId)!;
    const checkpointing = job.checkpointTracker !== undefined;
    // Checkpoint statistics exist only for the engine's own job (checkpointing enabled); triggers only where posted.
    let status = 200;
    if (template.includes('/checkpoints') && !template.endsWith('/:triggerid') && !checkpointing) status = 404;
    if (template.endsWith('/:triggerid') && jobId !== ids.running) status = 404;
    for (const v of job.vertices) {
      for (const subtask of [0, v.tasks.length - 1]) {
        for (const tm of handle.engine.cluster.taskManagers.slice(0, 1)) {
          const url = template
            .replace(':jobid', jobId)
            .replace(':vertexid', v.jobVertex.id)
            .replace(':subtaskindex', String(subtask))
            .replace(':attempt', '0')
            .replace(':taskmanagerid', tm.id)
            .replace(':checkpointid', String(checkpointId))
            .replace(':triggerid', template.includes('/savepoints/') ? triggers.savepoint : triggers.checkpoint);
          out.set(url, status);
        }
      }
    }
  }
  return [...out].map(([url, status]) => ({ url, status }));
}

describe.each(['manual', 'real'] as const)('the REST API against the official Flink spec, %s clock', (time) => {
  beforeAll(() => startEngine(time), 60_000);
  afterAll(stopEngine);

  it('has the four job states to check', () => {
    const state = (id: string) => handle.engine.cluster.jobs.get(id)!.status;
    expect([state(ids.running), state(ids.failed), state(ids.canceled), state(ids.finished)]).toEqual(['RUNNING', 'FAILED', 'CANCELED', 'FINISHED']);
  });

  // The log files are plain text (untyped handlers, not in the spec); the lists and thread dumps are checked.
  for (const route of [...ROUTES, ...LOG_ROUTES.filter((r) => specOperation('GET', r.path))].filter((r) => r.method === 'GET')) {
    it(`GET ${route.path}`, async () => {
      expect(specOperation('GET', route.path), 'route exists in the spec').toBe(true);
      for (const { url, status: expected } of urlsFor(route.path)) {
        const queries = url.endsWith('metrics') ? ['', '?get=busyTimeMsPerSecond,numRecordsIn,idleTimeMsPerSecond,uptime,Status.JVM.Memory.Heap.Used'] : [''];
        for (const query of queries) {
          const { status, body } = await call('GET', url + query);
          expect(status, `${url}${query}: ${JSON.stringify(body)}`).toBe(expected);
          if (expected !== 200) {
            expect(body, url).toEqual({ errors: [expect.any(String)] });
            continue;
          }
          expect(specErrors('GET', route.path, 200, body), `${url}${query}`).toEqual([]);
        }
      }
    });
  }

  it('the check has teeth: wrong shapes are rejected', () => {
    expect(specErrors('GET', '/overview', 200, { taskmanagers: '4' })).not.toEqual([]);
    expect(specErrors('GET', '/jobs/:jobid/vertices/:vertexid/backpressure', 200, { status: 'ok', backpressureLevel: 'HIGH' })).not.toEqual([]);
    expect(specErrors('GET', '/jobs/:jobid', 200, { jid: 'not-hex', vertices: [] })).not.toEqual([]);
    expect(specErrors('GET', '/jobs/:jobid/vertices/:vertexid/watermarks', 200, { metrics: [] })).not.toEqual([]);
    expect(specErrors('GET', '/jobs/:jobid/vertices/:vertexid/subtasks/metrics', 200, [{ id: 'x', max: '1' }])).not.toEqual([]);
    expect(specErrors('GET', '/jobs/:jobid/vertices/:vertexid/subtasks/:subtaskindex', 200, { subtask: 0, status: 'RUNNNING' })).not.toEqual([]);
  });

  it('aggregated metrics with every aggregation, incl. skew, validate too', async () => {
    const job = handle.engine.cluster.jobs.get(ids.running)!;
    const url = `/jobs/${ids.running}/vertices/${job.vertices[1].jobVertex.id}/subtasks/metrics?get=busyTimeMsPerSecond,numRecordsInPerSecond&agg=min,max,avg,sum,skew&subtasks=0-2`;
    const { status, body } = await call('GET', url);
    expect(status).toBe(200);
    expect(specErrors('GET', '/jobs/:jobid/vertices/:vertexid/subtasks/metrics', 200, body)).toEqual([]);
    expect((body as Array<Record<string, number>>)[0]).toHaveProperty('skew');
  });

  it('the /v1 prefix serves the same API', async () => {
    const { status, body } = await call('GET', '/v1/overview');
    expect(status).toBe(200);
    expect(specErrors('GET', '/overview', 200, body)).toEqual([]);
  });

  it('cancel: PATCH /jobs/:jobid?mode=cancel answers 202 as documented, and the job is CANCELED', async () => {
    const victim = handle.engine.cluster.submitJob(smallJob('cancel-me', false));
    const { status } = await call('PATCH', `/jobs/${victim.jobId}?mode=cancel`);
    expect(status).toBe(202);
    expect(validateAgainstSpec('PATCH', '/jobs/:jobid', 202, undefined)).toEqual([]);
    expect((await call('GET', `/jobs/${victim.jobId}/status`)).body).toEqual({ status: 'CANCELED' });
    expect((await call('PATCH', `/jobs/${victim.jobId}?mode=cancel`)).status).toBe(409);
  });

  it('errors are Flink-shaped: a status and {"errors": [...]}', async () => {
    for (const [url, status] of [
      ['/jobs/0123456789abcdef0123456789abcdef', 404],
      ['/jobs/not-a-job-id', 400],
      [`/jobs/${ids.running}/vertices/0123456789abcdef0123456789abcdef`, 404],
      ['/no/such/endpoint', 404],
      [`/jobs/${ids.running}/vertices/${handle.engine.cluster.jobs.get(ids.running)!.vertices[0].jobVertex.id}/subtasks/99`, 404],
    ] as const) {
      const response = await call('GET', url);
      expect(response.status, url).toBe(status);
      expect(response.body, url).toEqual({ errors: [expect.any(String)] });
    }
  });

  it("the console's own client schemas accept every response it reads", async () => {
    const job = handle.engine.cluster.jobs.get(ids.running)!;
    const params: Record<string, string> = {
      jobid: ids.running,
      vertexid: job.vertices[1].jobVertex.id,
      taskmanagerid: handle.engine.cluster.taskManagers[0].id,
      checkpointid: String(checkpointId),
    };
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const url = endpoint.path.replace(/:([a-z]+)/g, (_, p: string) => params[p]);
      const query = name === 'subtaskMetricsAggregated' ? '?get=busyTimeMsPerSecond,backPressuredTimeMsPerSecond&agg=min,max,avg,sum' : '';
      const { body } = await call(endpoint.method, url + query);
      const result = endpoint.response.safeParse(body);
      expect(result.success, `${name}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
    }
  });

  it('engine extras live under /local-engine/, outside Flink paths', async () => {
    for (const route of EXTRA_ROUTES) {
      expect(route.path.startsWith('/local-engine/v1/')).toBe(true);
      expect(specOperation(route.method, route.path)).toBe(false);
    }
    const { status, body } = await call('GET', `/local-engine/v1/jobs/${ids.running}/results`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ rows: expect.any(Array), emitted: expect.any(Number) });
  });
});
