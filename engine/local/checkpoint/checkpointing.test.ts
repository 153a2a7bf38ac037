import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment } from '../api/datastream.ts';
import type { KeyedProcessFunction } from '../api/functions.ts';
import { CollectSink, SequenceSource } from '../api/sources.ts';
import { forBoundedOutOfOrderness } from '../api/watermarks.ts';
import { LocalCluster } from '../runtime/cluster.ts';
import { validateAgainstSpec } from '../rest-spec/validate-against-spec.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';
import { CHECKPOINTING_DEFAULTS } from './checkpoint-stats-rest.ts';
import { CHECKPOINT_EXPIRED, CHECKPOINT_SUSPENDING } from './checkpoint-coordinator.ts';
import { call, tempDirs } from '../testing/engine-test-kit.ts';

/** Periodic aligned checkpoints in the running engine: storage, statistics, REST, metrics, manual triggers. */
const T0 = 1_767_225_600_000;
const temp = tempDirs('le-chk-');
const tempDir = temp.make;
afterAll(temp.removeAll);


describe('periodic aligned checkpoints of the GatewayMeter job', () => {
  let handle: LocalEngineHandle;
  let checkpointDir: string;
  let jobId: string;

  beforeAll(async () => {
    checkpointDir = tempDir();
    handle = await startLocalEngine({
      port: 0,
      time: 'manual',
      clock: new ManualClock(T0),
      scenario: 'hot-tenant',
      checkpointDir,
      checkpointIntervalMs: 5000,
      checkpointsRetained: 2,
    });
    jobId = [...handle.engine.cluster.jobs.keys()][0];
    // 30 s in, acme's traffic saturates its tenant-cost subtask: back-pressure makes barriers wait and align.
    handle.engine.advance(51_000);
  });
  afterAll(() => handle.close());

  it('completes checkpoints every interval and keeps the last 2 on disk (older ones discarded)', () => {
    const job = handle.engine.cluster.jobs.get(jobId)!;
    const tracker = job.checkpointTracker!;
    expect(tracker.counts.completed).toBeGreaterThanOrEqual(8);
    const folders = readdirSync(path.join(checkpointDir, jobId)).filter((f) => f.startsWith('chk-')).sort();
    const completed = tracker.history().filter((c) => c.status === 'COMPLETED');
    expect(folders).toHaveLength(2);
    expect(folders).toEqual(completed.slice(0, 2).map((c) => `chk-${c.checkpointId}`).sort());
    expect(completed.slice(2).every((c) => c.discarded)).toBe(true);
    expect(completed[0].externalPath).toBe(`file:${path.join(checkpointDir, jobId, folders[folders.length - 1])}`);
  });

  it('writes keyed state per key group and the source splits as operator state', () => {
    const job = handle.engine.cluster.jobs.get(jobId)!;
    const latest = job.checkpointTracker!.latestCompleted()!;
    const dir = path.join(checkpointDir, jobId, `chk-${latest.checkpointId}`);
    const metadata = JSON.parse(readFileSync(path.join(dir, '_metadata'), 'utf8'));
    const byUid = new Map<string, { keyedState: Array<{ keyGroup: number; file: string; entries: number; timers: number }>; operatorState: unknown[]; keyGroupRanges?: unknown[] }>(
      metadata.operators.map((op: { uid: string }) => [op.uid, op]),
    );
    const assemble = byUid.get('assemble')!;
    expect(assemble.keyGroupRanges).toHaveLength(4);
    expect(assemble.keyedState.length).toBeGreaterThan(100); // open requests spread over (most of) the 128 key groups
    expect(assemble.keyedState.every((f) => existsSync(path.join(dir, f.file)) && f.entries === f.timers)).toBe(true); // one abandon timer per open request
    const source = byUid.get('gateway-events')!;
    expect(source.operatorState).toHaveLength(4);
    const split = JSON.parse(readFileSync(path.join(dir, (source.operatorState[0] as { file: string }).file), 'utf8'));
    expect(split.SourceReaderState.mode).toBe('SPLIT_DISTRIBUTE');
    expect(split.SourceReaderState.partitions).toEqual([{ split: 0, numSplits: 4, startTime: T0, emitted: expect.any(Number) }]);
    expect(byUid.get('tenant-cost')!.keyedState.length).toBeGreaterThan(0); // window contents and timers
  });

  it('reports per-vertex and per-subtask statistics as Flink does, valid against the spec', async () => {
    const overview = await call(handle, 'GET', `/jobs/${jobId}/checkpoints`);
    expect(overview.status).toBe(200);
    expect(validateAgainstSpec('GET', '/jobs/:jobid/checkpoints', 200, overview.body)).toEqual([]);
    const body = overview.body as { counts: { completed: number }; history: Array<{ id: number; status: string; checkpoint_type: string }>; latest: { completed: { id: number } } };
    expect(body.history.length).toBeLessThanOrEqual(10);
    expect(body.history[0].checkpoint_type).toBe('CHECKPOINT');
    const id = body.latest.completed.id;
    const details = await call(handle, 'GET', `/jobs/${jobId}/checkpoints/details/${id}`);
    expect(validateAgainstSpec('GET', '/jobs/:jobid/checkpoints/details/:checkpointid', 200, details.body)).toEqual([]);
    const job = handle.engine.cluster.jobs.get(jobId)!;
    let alignedSomewhere = false;
    type SubtaskStats = { status: string; start_delay: number; alignment: { duration: number; processed: number }; checkpointed_size: number };
    const subtasksOf = new Map<string, SubtaskStats[]>();
    for (const v of job.vertices) {
      const r = await call(handle, 'GET', `/jobs/${jobId}/checkpoints/details/${id}/subtasks/${v.jobVertex.id}`);
      expect(validateAgainstSpec('GET', '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid', 200, r.body)).toEqual([]);
      const subtasks = (r.body as { subtasks: SubtaskStats[] }).subtasks;
      expect(subtasks).toHaveLength(v.tasks.length);
      expect(subtasks.every((s) => s.status === 'completed')).toBe(true);
      subtasksOf.set(v.jobVertex.name, subtasks);
    }
    expect(subtasksOf.size, 'one entry per vertex name').toBe(job.vertices.length);
    // Named, not filtered: a renamed or missing vertex fails here instead of skipping its check.
    const sources = job.vertices.filter((v) => v.jobVertex.isSource).map((v) => v.jobVertex.name);
    expect(sources, 'the job\'s source vertices').not.toEqual([]);
    for (const source of sources) {
      expect(subtasksOf.get(source)!.every((s) => s.start_delay === 0 && s.alignment.duration === 0 && s.alignment.processed === 0), source).toBe(true);
    }
    expect([...subtasksOf.keys()]).toContain('assemble');
    expect(subtasksOf.get('assemble')!.every((s) => s.checkpointed_size > 0)).toBe(true);
    // Under back-pressure, barriers wait behind buffered records: some checkpoint shows start delay and alignment.
    for (const c of job.checkpointTracker!.history()) {
      for (const task of c.tasks.values()) if (task.summary.alignmentDuration.max > 0 && task.summary.startDelay.max > 0) alignedSomewhere = true;
    }
    expect(alignedSomewhere).toBe(true);
    const missing = await call(handle, 'GET', `/jobs/${jobId}/checkpoints/details/99999`);
    expect(missing.status).toBe(404);
    expect((missing.body as { errors: string[] }).errors[0]).toMatch(/^org\.apache\.flink\.runtime\.rest\.handler\.RestHandlerException: Could not find checkpointing statistics for checkpoint 99999\./);
  });

  it('serves the checkpointing configuration (lower-case mode) and the job checkpoint metrics', async () => {
    const config = await call(handle, 'GET', `/jobs/${jobId}/checkpoints/config`);
    expect(validateAgainstSpec('GET', '/jobs/:jobid/checkpoints/config', 200, config.body)).toEqual([]);
    expect(config.body).toMatchObject({ mode: 'exactly_once', interval: 5000, timeout: CHECKPOINTING_DEFAULTS.timeoutMs, checkpoint_storage: 'FileSystemCheckpointStorage' });
    const metrics = await call(handle, 'GET', `/jobs/${jobId}/metrics?get=lastCheckpointDuration,lastCheckpointSize,numberOfCompletedCheckpoints,numRestarts`);
    const values = Object.fromEntries((metrics.body as Array<{ id: string; value: string }>).map((m) => [m.id, m.value]));
    const latest = handle.engine.cluster.jobs.get(jobId)!.checkpointTracker!.latestCompleted()!;
    expect(values).toEqual({
      lastCheckpointDuration: String(latest.endToEndDuration),
      lastCheckpointSize: String(latest.checkpointedSize),
      numberOfCompletedCheckpoints: String(handle.engine.cluster.jobs.get(jobId)!.checkpointTracker!.counts.completed),
      numRestarts: '0',
    });
    expect(Number(values.lastCheckpointSize)).toBeGreaterThan(100_000);
  });

  it('triggers a checkpoint on request: 202, then COMPLETED with its ID; a repeated triggerId starts nothing', async () => {
    const triggerId = 'cccccccccccccccccccccccccccccccc';
    const first = await call(handle, 'POST', `/jobs/${jobId}/checkpoints`, { checkpointType: 'FULL', triggerId });
    expect(first).toEqual({ status: 202, body: { 'request-id': triggerId } });
    expect(validateAgainstSpec('POST', '/jobs/:jobid/checkpoints', 202, first.body)).toEqual([]);
    const total = handle.engine.cluster.jobs.get(jobId)!.checkpointTracker!.counts.total;
    expect((await call(handle, 'POST', `/jobs/${jobId}/checkpoints`, { triggerId })).body).toEqual({ 'request-id': triggerId });
    expect(handle.engine.cluster.jobs.get(jobId)!.checkpointTracker!.counts.total).toBe(total);
    const inProgress = await call(handle, 'GET', `/jobs/${jobId}/checkpoints/${triggerId}`);
    expect(inProgress.body).toEqual({ status: { id: 'IN_PROGRESS' }, operation: null });
    handle.engine.cluster.advanceUntil(() => handle.engine.operations.pending(jobId).length === 0, 60_000);
    const done = await call(handle, 'GET', `/jobs/${jobId}/checkpoints/${triggerId}`);
    expect(validateAgainstSpec('GET', '/jobs/:jobid/checkpoints/:triggerid', 200, done.body)).toEqual([]);
    const checkpointId = (done.body as { operation: { checkpointId: number } }).operation.checkpointId;
    expect(handle.engine.cluster.jobs.get(jobId)!.checkpointTracker!.byId(checkpointId)?.status).toBe('COMPLETED');
    const unknown = await call(handle, 'GET', `/jobs/${jobId}/checkpoints/00000000000000000000000000000000`);
    expect(unknown.status).toBe(404);
    expect((unknown.body as { errors: string[] }).errors[0]).toContain(`There is no checkpoint operation with triggerId=00000000000000000000000000000000 for job ${jobId}.`);
    const bad = await call(handle, 'POST', `/jobs/${jobId}/checkpoints`, { checkpointType: 'SOMETIMES' });
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: string[] }).errors[0]).toMatch(/Request did not match expected format CheckpointTriggerRequestBody/);
  });
});

/** A keyed job whose operator takes 50 ms per record: barriers queue behind records and checkpoints expire. */
function slowJob(name: string) {
  const env = new StreamExecutionEnvironment({ parallelism: 2, maxParallelism: 128 });
  const slow: KeyedProcessFunction<number, number, number> = {
    processElement(value, _ctx, out) {
      out.collect(value);
    },
  };
  env
    .fromSource(new SequenceSource({ ratePerSubtask: 200, record: (i) => i }), forBoundedOutOfOrderness(0), 'numbers')
    .uid(`${name}-numbers`)
    .keyBy((x: number) => x % 16)
    .process(slow, undefined, 'slow')
    .uid(`${name}-slow`)
    .sinkTo(new CollectSink<number>(), 'collect');
  return env.getStreamGraph(name);
}

describe('failed checkpoints', () => {
  afterEach(() => undefined);

  it('a checkpoint that does not complete in time expires; beyond the tolerable failures the job fails over', () => {
    const clock = new ManualClock(T0);
    const cluster = new LocalCluster({ clock });
    const job = cluster.submitJob(slowJob('slow'), {
      capacity: { 'slow-slow': { costPerRecordMs: 50 } },
      checkpointing: { ...CHECKPOINTING_DEFAULTS, intervalMs: 1000, timeoutMs: 500, tolerableFailedCheckpoints: 1 },
      checkpointStorage: { checkpointDirectory: tempDir() },
      restartStrategy: { type: 'none' },
    });
    cluster.advance(10_000);
    const tracker = job.checkpointTracker!;
    expect(tracker.latestFailed()?.failureMessage).toBe(CHECKPOINT_EXPIRED);
    expect(tracker.counts.failed).toBe(2);
    expect(job.status).toBe('FAILED');
    expect(job.exceptionHistory[0].stacktrace).toMatch(/^org\.apache\.flink\.runtime\.checkpoint\.CheckpointException: Exceeded checkpoint tolerable failure threshold\. The latest checkpoint failed due to Checkpoint expired before completing\./);
    expect(job.failure?.message).toBe('Recovery is suppressed by NoRestartBackoffTimeStrategy');
  });

  it('pending checkpoints fail with "Checkpoint Coordinator is suspending." when the job fails over', () => {
    const clock = new ManualClock(T0);
    const cluster = new LocalCluster({ clock });
    const job = cluster.submitJob(slowJob('suspend'), {
      checkpointing: { ...CHECKPOINTING_DEFAULTS, intervalMs: 60_000 },
      checkpointStorage: { checkpointDirectory: tempDir() },
      restartStrategy: { type: 'fixed-delay', attempts: 1, delayMs: 1000 },
    });
    cluster.advance(2_000);
    const id = job.triggerCheckpoint({ kind: 'CHECKPOINT' })!;
    expect(job.checkpoints.pendingIds()).toEqual([id]);
    cluster.killTaskManager(job.slots[0].taskManagerId);
    expect(job.status).toBe('RESTARTING');
    expect(job.checkpointTracker!.byId(id)).toMatchObject({ status: 'FAILED', failureMessage: CHECKPOINT_SUSPENDING });
    // The next checkpoint continues the ID counter after the restart.
    cluster.advance(2_000);
    expect(job.status).toBe('RUNNING');
    expect(job.triggerCheckpoint({ kind: 'CHECKPOINT' })).toBe(id + 1);
  });
  it('a stop-with-savepoint abandons the checkpoint in flight first, as Flink does ("Checkpoint Coordinator is suspending.")', () => {
    const clock = new ManualClock(T0);
    const cluster = new LocalCluster({ clock });
    const job = cluster.submitJob(slowJob('stop'), {
      capacity: { 'stop-slow': { costPerRecordMs: 50 } },
      checkpointing: { ...CHECKPOINTING_DEFAULTS, intervalMs: 60_000 },
      checkpointStorage: { checkpointDirectory: tempDir() },
      restartStrategy: { type: 'none' },
    });
    cluster.advance(2_000);
    const periodic = job.triggerCheckpoint({ kind: 'CHECKPOINT' })!;
    cluster.advance(100);
    expect(job.checkpoints.pendingIds()).toEqual([periodic]);
    const stop = job.stopWithSavepoint({ targetDirectory: tempDir() })!;
    // Real Flink 2.2.1: the periodic checkpoint FAILED a few ms before the stop's SYNC_SAVEPOINT was triggered.
    expect(job.checkpointTracker!.byId(periodic)).toMatchObject({ status: 'FAILED', failureMessage: CHECKPOINT_SUSPENDING });
    expect(job.checkpoints.pendingIds()).toEqual([stop]);
    expect(job.status).toBe('RUNNING');
  });
});

describe('retained checkpoints when the job ends', () => {
  function run(retention: 'NO_EXTERNALIZED_CHECKPOINTS' | 'RETAIN_ON_CANCELLATION' | 'DELETE_ON_CANCELLATION', end: 'cancel' | 'fail') {
    const dir = tempDir();
    const cluster = new LocalCluster({ clock: new ManualClock(T0) });
    const job = cluster.submitJob(slowJob(`retain-${retention}-${end}`), {
      checkpointing: { ...CHECKPOINTING_DEFAULTS, intervalMs: 1000, retention, numRetained: 2 },
      checkpointStorage: { checkpointDirectory: dir },
      restartStrategy: { type: 'none' },
    });
    cluster.advance(3_500);
    let savepoint = '';
    job.triggerCheckpoint({ kind: 'SAVEPOINT', targetDirectory: path.join(dir, 'sp'), onComplete: (c) => (savepoint = c.path) });
    cluster.advance(100);
    const folders = () => readdirSync(path.join(dir, job.jobId)).filter((f) => f.startsWith('chk-'));
    expect(folders()).toHaveLength(2);
    if (end === 'cancel') job.cancel();
    else cluster.killTaskManager(job.slots[0].taskManagerId);
    return { kept: folders().length, savepointKept: existsSync(savepoint), discarded: job.checkpointTracker!.latestCompleted()!.discarded };
  }

  it('are deleted unless the retention policy keeps them (Flink\'s CheckpointProperties); savepoints always stay', () => {
    expect(run('NO_EXTERNALIZED_CHECKPOINTS', 'cancel')).toEqual({ kept: 0, savepointKept: true, discarded: true });
    expect(run('NO_EXTERNALIZED_CHECKPOINTS', 'fail')).toEqual({ kept: 0, savepointKept: true, discarded: true });
    expect(run('DELETE_ON_CANCELLATION', 'cancel')).toEqual({ kept: 0, savepointKept: true, discarded: true });
    expect(run('DELETE_ON_CANCELLATION', 'fail')).toEqual({ kept: 2, savepointKept: true, discarded: false });
    expect(run('RETAIN_ON_CANCELLATION', 'cancel')).toEqual({ kept: 2, savepointKept: true, discarded: false });
  });
});
