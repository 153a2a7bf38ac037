import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_JARS } from '../jars/built-in-jars.ts';
import { readUpsertLog } from '../oracle/upsert-log.ts';
import { validateAgainstSpec } from '../rest-spec/validate-against-spec.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';

/**
 * Savepoints, stop-with-savepoint and jar runs through Flink's REST API: the trigger-then-poll protocol with
 * client-chosen trigger IDs, drain and no drain, restores at another parallelism, and the restore refusals.
 */
const T0 = 1_767_225_617_000;
const root = mkdtempSync(path.join(os.tmpdir(), 'le-sp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const GATEWAYMETER_JAR = BUILT_IN_JARS.find((j) => j.job === 'gatewaymeter')!.id;
const SALTED_JAR = BUILT_IN_JARS.find((j) => j.job === 'gatewaymeter-salted')!.id;

let handle: LocalEngineHandle;
let sinkDir: string;

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${handle.url}${url}`, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Polls a savepoint / stop operation until it completes (advancing virtual time); returns the operation. */
async function settle(jobId: string, triggerId: string): Promise<{ location?: string; 'failure-cause'?: { class: string; 'stack-trace': string } }> {
  for (let i = 0; i < 300; i++) {
    const r = await call('GET', `/jobs/${jobId}/savepoints/${triggerId}`);
    expect(r.status).toBe(200);
    expect(validateAgainstSpec('GET', '/jobs/:jobid/savepoints/:triggerid', 200, r.body)).toEqual([]);
    const body = r.body as { status: { id: string }; operation: Record<string, never> | null };
    if (body.status.id === 'COMPLETED') return body.operation!;
    handle.engine.advance(100);
  }
  throw new Error('the operation did not complete');
}

const job = (id: string) => handle.engine.cluster.jobs.get(id)!;
const firstJob = () => [...handle.engine.cluster.jobs.values()][0];
const args = ['--scenario', 'exactly-once', '--seed', '42', '--events', '60000', '--rate', '1000'];

beforeAll(async () => {
  sinkDir = path.join(root, 'sink');
  handle = await startLocalEngine({
    port: 0,
    time: 'manual',
    clock: new ManualClock(T0),
    scenario: 'exactly-once',
    events: 60_000,
    rate: 1000,
    checkpointDir: path.join(root, 'checkpoints'),
    checkpointIntervalMs: 3000,
    sinkDir,
    // Savepoints of these tests go to folders of their own under the test's temporary folder.
    allowDirs: [root],
  });
  handle.engine.advance(10_000);
});
afterAll(() => handle.close());

describe('savepoints (POST /jobs/:jobid/savepoints)', () => {
  it('202 with the request ID, IN_PROGRESS, then COMPLETED with the location of a canonical savepoint', async () => {
    const j = firstJob();
    const triggerId = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    const trigger = await call('POST', `/jobs/${j.jobId}/savepoints`, { triggerId, 'cancel-job': false });
    expect(trigger).toEqual({ status: 202, body: { 'request-id': triggerId } });
    expect(validateAgainstSpec('POST', '/jobs/:jobid/savepoints', 202, trigger.body)).toEqual([]);
    expect((await call('GET', `/jobs/${j.jobId}/savepoints/${triggerId}`)).body).toEqual({ status: { id: 'IN_PROGRESS' }, operation: null });
    // The same trigger ID again: the same operation, nothing new started.
    const total = j.checkpointTracker!.counts.total;
    expect((await call('POST', `/jobs/${j.jobId}/savepoints`, { triggerId })).body).toEqual({ 'request-id': triggerId });
    expect(j.checkpointTracker!.counts.total).toBe(total);
    const operation = await settle(j.jobId, triggerId);
    const location = operation.location!;
    expect(location).toMatch(new RegExp(`^file:${path.join(root, 'checkpoints', 'savepoints')}/savepoint-${j.jobId.slice(0, 6)}-[0-9a-f]{12}$`));
    const metadata = JSON.parse(readFileSync(path.join(location.slice('file:'.length), '_metadata'), 'utf8'));
    expect(metadata).toMatchObject({ isSavepoint: true, checkpointType: 'SAVEPOINT', snapshotFormat: 'CANONICAL', jobId: j.jobId });
    const latest = j.checkpointTracker!.latestSavepoint()!;
    expect(latest).toMatchObject({ kind: 'SAVEPOINT', savepointFormat: 'CANONICAL', externalPath: location });
    // One ID counter for checkpoints and savepoints.
    handle.engine.advance(3_000);
    expect(j.checkpointTracker!.latestCompleted()!.checkpointId).toBe(latest.checkpointId + 1);
    expect(j.status).toBe('RUNNING');
  });

  it('a stop with the trigger ID of that savepoint returns the savepoint and does not stop the job (one cache)', async () => {
    const j = firstJob();
    const r = await call('POST', `/jobs/${j.jobId}/stop`, { triggerId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', drain: true });
    expect(r).toEqual({ status: 202, body: { 'request-id': 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' } });
    handle.engine.advance(1_000);
    expect(j.status).toBe('RUNNING');
  });

  it('an unknown job: 202, then COMPLETED with FlinkJobNotFoundException; unknown trigger IDs and bad bodies are refused', async () => {
    const unknown = '0123456789abcdef0123456789abcdef';
    const r = await call('POST', `/jobs/${unknown}/savepoints`, {});
    expect(r.status).toBe(202);
    const operation = await settle(unknown, (r.body as { 'request-id': string })['request-id']);
    expect(operation['failure-cause']!.class).toBe('java.util.concurrent.CompletionException');
    expect(operation['failure-cause']!['stack-trace']).toContain(`FlinkJobNotFoundException: Could not find Flink job (${unknown})`);
    const missing = await call('GET', `/jobs/${firstJob().jobId}/savepoints/00000000000000000000000000000000`);
    expect(missing.status).toBe(404);
    expect((missing.body as { errors: string[] }).errors[0]).toBe(
      `org.apache.flink.runtime.rest.handler.RestHandlerException: There is no savepoint operation with triggerId=00000000000000000000000000000000 for job ${firstJob().jobId}.\n` +
        '\tat org.apache.flink.runtime.rest.handler.job.savepoints.SavepointHandlers$SavepointStatusHandler.maybeCreateNotFoundError(SavepointHandlers.java:325)\n',
    );
    const bad = await call('POST', `/jobs/${firstJob().jobId}/savepoints`, { triggerId: 'xyz' });
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: string[] }).errors[0]).toMatch(/^org\.apache\.flink\.runtime\.rest\.handler\.RestHandlerException: Request did not match expected format SavepointTriggerRequestBody\./);
  });
});

describe('jars and runs from savepoints', () => {
  it('GET /jars lists the built-in jobs', async () => {
    const r = await call('GET', '/jars');
    expect(validateAgainstSpec('GET', '/jars', 200, r.body)).toEqual([]);
    expect(r.body).toEqual({
      address: handle.url,
      files: BUILT_IN_JARS.map((jar) => ({ id: jar.id, name: jar.name, uploaded: T0, entry: [{ name: jar.entryClass, description: null }] })),
    });
  });

  it('POST /jars/:jarid/plan answers the graph a run would start, in Flink\'s shape, and starts nothing', async () => {
    const jobs = handle.engine.cluster.jobs.size;
    const plan = await call('POST', `/jars/${GATEWAYMETER_JAR}/plan`, { programArgsList: ['--scenario', 'hot-tenant'], parallelism: 2 });
    expect(plan.status).toBe(200);
    expect(validateAgainstSpec('POST', '/jars/:jarid/plan', 200, plan.body)).toEqual([]);
    const nodes = (plan.body as { plan: { nodes: Array<{ id: string; parallelism: number; description: string }> } }).plan.nodes;
    // tenant-cost sets its own parallelism (32): a job parallelism does not change it.
    expect(nodes.map((n) => n.parallelism)).toEqual([2, 2, 32]);
    expect(nodes.map((n) => n.id)).toEqual(firstJob().jobGraph.vertices.map((v) => v.id));
    const byQuery = await call('POST', `/jars/${GATEWAYMETER_JAR}/plan?parallelism=3&programArg=--scenario,exactly-once`);
    expect((byQuery.body as { plan: { nodes: Array<{ parallelism: number }> } }).plan.nodes.map((n) => n.parallelism)).toEqual([3, 3, 3]);
    const badArg = await call('POST', `/jars/${GATEWAYMETER_JAR}/plan`, { programArgsList: ['--speed', 'fast'] });
    expect(badArg.status).toBe(400);
    expect((badArg.body as { errors: string[] }).errors[0]).toMatch(/Unknown program argument "--speed"/);
    const restoring = await call('POST', `/jars/${GATEWAYMETER_JAR}/plan`, { savepointPath: '/tmp/x' });
    expect(restoring.status).toBe(400);
    expect((restoring.body as { errors: string[] }).errors[0]).toMatch(/JarPlanRequestBody\. \(unknown field "savepointPath"/);
    expect((await call('POST', '/jars/no-such.jar/plan', {})).status).toBe(404);
    expect(handle.engine.cluster.jobs.size).toBe(jobs);
  });

  let savepoint = '';

  it('stop without drain: SYNC_SAVEPOINT, the job FINISHED, no window fired after the barrier', async () => {
    const j = firstJob();
    const rowsBefore = readUpsertLog(sinkDir).lines;
    const stop = await call('POST', `/jobs/${j.jobId}/stop`, { drain: false });
    expect(validateAgainstSpec('POST', '/jobs/:jobid/stop', 202, stop.body)).toEqual([]);
    savepoint = (await settle(j.jobId, (stop.body as { 'request-id': string })['request-id'])).location!;
    handle.engine.cluster.advanceUntil(() => j.isTerminal, 10_000);
    expect(j.status).toBe('FINISHED');
    expect(j.checkpointTracker!.latestSavepoint()).toMatchObject({ kind: 'SYNC_SAVEPOINT', externalPath: savepoint });
    expect(readUpsertLog(sinkDir).lines).toBe(rowsBefore);
    // The savepoint holds the open requests and the unfired windows.
    const metadata = JSON.parse(readFileSync(path.join(savepoint.slice('file:'.length), '_metadata'), 'utf8')) as { operators: Array<{ uid: string; keyedState: Array<{ entries: number }> }> };
    const entries = (uid: string) => metadata.operators.find((o) => o.uid === uid)!.keyedState.reduce((s, f) => s + f.entries, 0);
    expect(entries('assemble')).toBeGreaterThan(0);
    expect(entries('tenant-cost')).toBeGreaterThan(0);
  });

  it('refuses a savepoint with another max parallelism, state without a matching uid, or no savepoint, with Flink\'s messages', async () => {
    const maxP = await call('POST', `/jars/${GATEWAYMETER_JAR}/run`, { savepointPath: savepoint, programArgsList: [...args, '--max-parallelism', '256'] });
    expect(maxP.status).toBe(400);
    expect((maxP.body as { errors: string[] }).errors[0]).toMatch(
      /^java\.lang\.IllegalStateException: Failed to rollback to checkpoint\/savepoint file:.*\. Max parallelism mismatch between checkpoint\/savepoint state and new program\. Cannot map operator [0-9a-f]{32} \(uid "gateway-events"\) with max parallelism 128 to new program with max parallelism 256\./,
    );
    const nowhere = await call('POST', `/jars/${GATEWAYMETER_JAR}/run`, { savepointPath: path.join(root, 'no-such-savepoint') });
    expect(nowhere.status).toBe(400);
    expect((nowhere.body as { errors: string[] }).errors[0]).toContain(`Cannot find checkpoint or savepoint file/directory '${path.join(root, 'no-such-savepoint')}' on file system 'file'.`);
    const tooWide = await call('POST', `/jars/${GATEWAYMETER_JAR}/run`, { savepointPath: savepoint, parallelism: 129 });
    expect(tooWide.status).toBe(400);
    expect((tooWide.body as { errors: string[] }).errors[0]).toMatch(/is higher than its maximum parallelism \(128\)/);
    const badArg = await call('POST', `/jars/${GATEWAYMETER_JAR}/run`, { programArgsList: ['--speed', 'fast'] });
    expect(badArg.status).toBe(400);
    expect((badArg.body as { errors: string[] }).errors[0]).toMatch(/Unknown program argument "--speed"\. The built-in jobs accept --scenario, --seed/);
    expect(handle.engine.cluster.jobs.size).toBe(1);
  });

  it('runs the jar from the savepoint at another parallelism with the program arguments; the job continues the stream', async () => {
    const run = await call('POST', `/jars/${GATEWAYMETER_JAR}/run`, { savepointPath: savepoint, parallelism: 3, programArgsList: [...args, '--sink-dir', sinkDir] });
    expect(run.status).toBe(200);
    expect(validateAgainstSpec('POST', '/jars/:jarid/run', 200, run.body)).toEqual([]);
    const restored = job((run.body as { jobid: string }).jobid);
    expect(restored.jobGraph.vertices.map((v) => v.parallelism)).toEqual([3, 3, 3]);
    expect(restored.checkpointTracker!.latestRestored()).toMatchObject({ isSavepoint: true, externalPath: savepoint, checkpointId: firstJob().checkpointTracker!.latestSavepoint()!.checkpointId });
    const config = await call('GET', `/jobs/${restored.jobId}/config`);
    expect((config.body as { 'execution-config': { 'user-config': Record<string, string> } })['execution-config']['user-config']).toMatchObject({ seed: '42', events: '60000', scenario: 'exactly-once' });
    // 4 splits of the first run spread over 3 subtasks: 2, 1, 1.
    const splits = restored.vertices[0].tasks.map((t) => (t as unknown as { reader: { snapshotState(): unknown[] } }).reader.snapshotState().length);
    expect(splits).toEqual([2, 1, 1]);
    handle.engine.cluster.advanceUntil(() => restored.isTerminal, 600_000);
    expect(restored.status).toBe('FINISHED');
  });

  it('state without a matching uid: refused, unless allowNonRestoredState', async () => {
    // A savepoint of the salted job has `tenant-cost-partial`, which the plain job does not have.
    const salted = await call('POST', `/jars/${SALTED_JAR}/run`, { programArgsList: args });
    expect(salted.status).toBe(200);
    const saltedJob = job((salted.body as { jobid: string }).jobid);
    handle.engine.advance(20_000);
    const stop = await call('POST', `/jobs/${saltedJob.jobId}/stop`, {});
    const location = (await settle(saltedJob.jobId, (stop.body as { 'request-id': string })['request-id'])).location!;
    const refused = await call('POST', `/jars/${GATEWAYMETER_JAR}/run`, { savepointPath: location, programArgsList: args });
    expect(refused.status).toBe(400);
    expect((refused.body as { errors: string[] }).errors[0]).toMatch(
      /^java\.lang\.IllegalStateException: Failed to rollback to checkpoint\/savepoint file:.*\. Cannot map checkpoint\/savepoint state for operator [0-9a-f]{32} \(uid "tenant-cost-partial"\) to the new program, because the operator is not available in the new program\. If you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI\./,
    );
    const allowed = await call('POST', `/jars/${GATEWAYMETER_JAR}/run`, { savepointPath: location, programArgsList: args, allowNonRestoredState: true });
    expect(allowed.status).toBe(200);
    const plain = job((allowed.body as { jobid: string }).jobid);
    expect(plain.status).toBe('RUNNING');
    expect(plain.checkpointTracker!.latestRestored()!.externalPath).toBe(location);
    plain.cancel();
  });

  it('stop with drain: MAX_WATERMARK fires every window and timer before the savepoint; the job FINISHED', async () => {
    const run = await call('POST', `/jars/${GATEWAYMETER_JAR}/run`, { programArgsList: [...args, '--events', '200000'] });
    const j = job((run.body as { jobid: string }).jobid);
    handle.engine.advance(15_000);
    const stop = await call('POST', `/jobs/${j.jobId}/stop`, { drain: true, targetDirectory: path.join(root, 'drained') });
    const location = (await settle(j.jobId, (stop.body as { 'request-id': string })['request-id'])).location!;
    handle.engine.cluster.advanceUntil(() => j.isTerminal, 10_000);
    expect(j.status).toBe('FINISHED');
    expect(location.startsWith(`file:${path.join(root, 'drained')}/savepoint-`)).toBe(true);
    expect(existsSync(path.join(location.slice('file:'.length), '_metadata'))).toBe(true);
    const metadata = JSON.parse(readFileSync(path.join(location.slice('file:'.length), '_metadata'), 'utf8')) as { checkpointType: string; operators: Array<{ uid: string; keyedState: unknown[] }> };
    expect(metadata.checkpointType).toBe('SYNC_SAVEPOINT');
    // Every open request was abandoned and every window fired: no keyed state is left.
    expect(metadata.operators.find((o) => o.uid === 'assemble')!.keyedState).toEqual([]);
    expect(metadata.operators.find((o) => o.uid === 'tenant-cost')!.keyedState).toEqual([]);
    expect(handle.engine.results.get(j.jobId)!.emitted).toBeGreaterThan(0);
  });
});
