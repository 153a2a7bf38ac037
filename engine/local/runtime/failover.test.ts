import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment } from '../api/datastream.ts';
import type { KeyedProcessFunction } from '../api/functions.ts';
import { CollectSink, SequenceSource } from '../api/sources.ts';
import { forBoundedOutOfOrderness } from '../api/watermarks.ts';
import { CHECKPOINTING_DEFAULTS } from '../checkpoint/checkpoint-stats-rest.ts';
import type { ValueState } from '../state/keyed-state.ts';
import { validateAgainstSpec } from '../rest-spec/validate-against-spec.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';
import { LocalCluster } from './cluster.ts';
import { call, tempDirs } from '../testing/engine-test-kit.ts';

/** TaskManager kills and task failures through the restart strategy; rescaling through resource requirements. */
const T0 = 1_767_225_600_000;
const temp = tempDirs('le-fo-');
const tempDir = temp.make;
afterAll(temp.removeAll);


async function engineWith(options: Parameters<typeof startLocalEngine>[0]): Promise<LocalEngineHandle> {
  return startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(T0), checkpointDir: tempDir(), checkpointIntervalMs: 2000, rate: 2000, ...options });
}

describe('killing a TaskManager', () => {
  it('while the job restarts, a savepoint fails with Flink\'s message; a checkpoint that cannot be read back fails the job', async () => {
    const handle = await engineWith({ restartStrategy: 'fixed-delay', restartAttempts: 5, restartDelayMs: 2000 });
    try {
      const [job] = handle.engine.cluster.jobs.values();
      handle.engine.advance(5_000);
      handle.engine.cluster.killTaskManager(job.slots[0].taskManagerId);
      const trigger = await call(handle, 'POST', `/jobs/${job.jobId}/savepoints`, {});
      const status = await call(handle, 'GET', `/jobs/${job.jobId}/savepoints/${(trigger.body as { 'request-id': string })['request-id']}`);
      const cause = (status.body as { operation: { 'failure-cause': { class: string; 'stack-trace': string } } }).operation['failure-cause'];
      expect(cause.class).toBe('org.apache.flink.runtime.checkpoint.CheckpointException');
      expect(cause['stack-trace']).toMatch(/is not being executed at the moment\. Aborting checkpoint\. Failure reason: Not all required tasks are currently running\./);
      // The retained checkpoint disappears from disk: the restart cannot restore, the job FAILED.
      rmSync(job.checkpoints.latestCompleted(job.jobId)!.path, { recursive: true, force: true });
      handle.engine.advance(2_100);
      expect(job.status).toBe('FAILED');
      expect(job.failure?.message).toMatch(/^Could not restore the job: Cannot find checkpoint or savepoint file\/directory/);
    } finally {
      await handle.close();
    }
  });

  it('with restart strategy none: the job FAILED and the loss is in its exception history', async () => {
    const handle = await engineWith({ restartStrategy: 'none' });
    try {
      const [job] = handle.engine.cluster.jobs.values();
      handle.engine.advance(5_000);
      const victim = handle.engine.cluster.taskManagers.find((tm) => tm.slots.includes(job.jobId))!;
      const killed = await call(handle, 'POST', `/local-engine/v1/taskmanagers/${victim.id}/kill`);
      expect(killed).toEqual({ status: 200, body: { killed: victim.id, failedJobs: [job.jobId], restartsAt: T0 + 5_000 + 10_000 } });
      expect(job.status).toBe('FAILED');
      const exceptions = await call(handle, 'GET', `/jobs/${job.jobId}/exceptions`);
      expect(validateAgainstSpec('GET', '/jobs/:jobid/exceptions', 200, exceptions.body)).toEqual([]);
      const [entry] = (exceptions.body as { exceptionHistory: { entries: Array<Record<string, unknown>> } }).exceptionHistory.entries;
      expect(entry).toMatchObject({
        exceptionName: 'org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException',
        timestamp: T0 + 5_000,
        concurrentExceptions: [],
      });
      expect(entry.stacktrace).toMatch(new RegExp(`^org\\.apache\\.flink\\.runtime\\.resourcemanager\\.exceptions\\.ResourceManagerException: TaskManager with id ${victim.id} is no longer reachable\\.`));
      expect(entry).not.toHaveProperty('taskName');
      expect(job.failure?.message).toBe('Recovery is suppressed by NoRestartBackoffTimeStrategy');
      expect(job.tasks.filter((t) => t.identity.taskManagerId === victim.id).every((t) => t.state === 'FAILED')).toBe(true);
      expect(job.tasks.filter((t) => t.identity.taskManagerId !== victim.id).every((t) => t.state === 'CANCELED')).toBe(true);
      expect(handle.engine.cluster.taskManagers.map((tm) => tm.id)).not.toContain(victim.id);
      expect((await call(handle, 'POST', '/local-engine/v1/taskmanagers/0123456789abcdef0123456789abcdef/kill')).status).toBe(404);
    } finally {
      await handle.close();
    }
  });

  it('with fixed-delay: RESTARTING, then RUNNING again from the latest checkpoint with a new attempt; numRestarts counts it', async () => {
    const handle = await engineWith({ restartStrategy: 'fixed-delay', restartAttempts: 2, restartDelayMs: 1500, taskManagerRestartDelayMs: 3000 });
    try {
      const [job] = handle.engine.cluster.jobs.values();
      handle.engine.advance(5_000);
      const latest = job.checkpointTracker!.latestCompleted()!;
      const victim = handle.engine.cluster.taskManagers.find((tm) => tm.slots.includes(job.jobId))!;
      await call(handle, 'POST', `/local-engine/v1/taskmanagers/${victim.id}/kill`);
      expect(job.status).toBe('RESTARTING');
      handle.engine.advance(1_000);
      expect(job.status).toBe('RESTARTING');
      handle.engine.advance(600);
      expect(job.status).toBe('RUNNING');
      expect(job.attempt).toBe(1);
      expect(job.tasks.every((t) => t.identity.attempt === 1 && t.state === 'RUNNING')).toBe(true);
      expect(job.checkpointTracker!.latestRestored()).toMatchObject({ checkpointId: latest.checkpointId, isSavepoint: false, restoreTimestamp: T0 + 6_500 });
      const metrics = await call(handle, 'GET', `/jobs/${job.jobId}/metrics?get=numRestarts`);
      expect(metrics.body).toEqual([{ id: 'numRestarts', value: '1' }]);
      const vertex = job.vertices[1];
      const subtask = await call(handle, 'GET', `/jobs/${job.jobId}/vertices/${vertex.jobVertex.id}/subtasks/0`);
      expect(subtask.body).toMatchObject({ attempt: 1, status: 'RUNNING' });
      // The lost TaskManager comes back as a new process (new resource ID).
      expect(handle.engine.cluster.taskManagers).toHaveLength(3);
      handle.engine.advance(2_000);
      const tms = (await call(handle, 'GET', '/taskmanagers')).body as { taskmanagers: Array<{ id: string }> };
      expect(tms.taskmanagers).toHaveLength(4);
      expect(tms.taskmanagers.map((t) => t.id)).not.toContain(victim.id);
      // Checkpoints go on, numbered after the restored one.
      handle.engine.advance(4_000);
      expect(job.checkpointTracker!.latestCompleted()!.checkpointId).toBeGreaterThan(latest.checkpointId);
      // Two restarts allowed: the third failure is final.
      for (let i = 0; i < 2; i++) {
        const tm = handle.engine.cluster.taskManagers.find((t) => t.slots.includes(job.jobId))!;
        handle.engine.cluster.killTaskManager(tm.id);
        handle.engine.cluster.advanceUntil(() => job.status !== 'RESTARTING', 30_000);
      }
      expect(job.status).toBe('FAILED');
      expect(job.numRestarts).toBe(2);
      expect(job.failure?.message).toBe('Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2, backoffTimeMS=1500)');
      expect(job.exceptionHistory).toHaveLength(3);
    } finally {
      await handle.close();
    }
  });
});

/** A keyed counter that throws once when it sees `failAt`. */
function countingJob(name: string, failAt: number, sink: CollectSink<string>) {
  let failed = false;
  const counter: KeyedProcessFunction<number, number, string> & { state?: ValueState<number> } = {
    open(ctx) {
      this.state = ctx.getState<number>({ name: 'count' });
    },
    processElement(value, ctx, out) {
      if (value === failAt && !failed) {
        failed = true;
        throw new Error(`Simulated failure at record ${value}`);
      }
      const n = (this.state!.value() ?? 0) + 1;
      this.state!.update(n);
      out.collect(`${ctx.currentKey}:${n}`);
    },
  };
  const env = new StreamExecutionEnvironment({ parallelism: 2, maxParallelism: 128 });
  env
    .fromSource(new SequenceSource({ ratePerSubtask: 100, countPerSubtask: 500, record: (i, split) => i * 2 + split }), forBoundedOutOfOrderness(0), 'numbers')
    .uid(`${name}-numbers`)
    .keyBy((x: number) => x % 5)
    .process(counter, undefined, 'count')
    .uid(`${name}-count`)
    .sinkTo(sink, 'collect');
  return env.getStreamGraph(name);
}

describe('a task failure', () => {
  it('restarts the job from its latest checkpoint: keyed state and source positions rewind together (exactly-once state)', () => {
    const sink = new CollectSink<string>();
    const cluster = new LocalCluster({ clock: new ManualClock(T0) });
    const job = cluster.submitJob(countingJob('counting', 601, sink), {
      checkpointing: { ...CHECKPOINTING_DEFAULTS, intervalMs: 1000 },
      checkpointStorage: { checkpointDirectory: tempDir() },
      restartStrategy: { type: 'fixed-delay', attempts: 3, delayMs: 500 },
    });
    expect(cluster.advanceUntil(() => job.isTerminal, 60_000)).toBe(true);
    expect(job.status).toBe('FINISHED');
    expect(job.numRestarts).toBe(1);
    const entry = job.exceptionHistory[0];
    expect(entry).toMatchObject({ exceptionName: 'java.lang.RuntimeException', taskName: 'count -> Sink: collect (2/2)#0' });
    expect(entry.stacktrace).toMatch(/^java\.lang\.RuntimeException: Simulated failure at record 601/);
    // 1000 records over 5 keys: each key's count ends at exactly 200, whatever was replayed.
    const last = new Map<string, number>();
    for (const { value } of sink.values) {
      const [key, n] = value.split(':');
      last.set(key, Math.max(last.get(key) ?? 0, Number(n)));
    }
    expect(Object.fromEntries(last)).toEqual({ 0: 200, 1: 200, 2: 200, 3: 200, 4: 200 });
    expect(job.checkpointTracker!.counts.restored).toBe(1);
  });
});

describe('rescaling through resource requirements (adaptive scheduler)', () => {
  it('GET shows 1..parallelism per vertex; PUT validates, answers 200, and rescales at the next checkpoint', async () => {
    const handle = await engineWith({ taskManagers: 4, slotsPerTaskManager: 4 });
    try {
      const [job] = handle.engine.cluster.jobs.values();
      handle.engine.advance(3_000);
      const get = await call(handle, 'GET', `/jobs/${job.jobId}/resource-requirements`);
      expect(validateAgainstSpec('GET', '/jobs/:jobid/resource-requirements', 200, get.body)).toEqual([]);
      const ids = job.jobGraph.vertices.map((v) => v.id);
      expect(get.body).toEqual(Object.fromEntries(ids.map((id) => [id, { parallelism: { lowerBound: 1, upperBound: 4 } }])));
      const bounds = (upper: number[]) => Object.fromEntries(ids.map((id, i) => [id, { parallelism: { lowerBound: 1, upperBound: upper[i] } }]));
      const refused = [
        [{ [ids[0]]: { parallelism: { lowerBound: 1, upperBound: 2 } } }, /give bounds for every vertex of the job; missing/],
        [{ ...bounds([2, 2, 2]), '0123456789abcdef0123456789abcdef': { parallelism: { lowerBound: 1, upperBound: 2 } } }, /has no vertex 0123456789abcdef0123456789abcdef/],
        [bounds([2, 200, 2]), /the upper bound \(200\) is higher than its max parallelism \(128\)/],
        [{ ...bounds([2, 2, 2]), [ids[1]]: { parallelism: { lowerBound: 3, upperBound: 2 } } }, /the lower bound \(3\) must be at least 1 and at most the upper bound \(2\)/],
        [[1, 2], /Request did not match expected format JobResourceRequirementsBody/],
      ] as const;
      for (const [body, message] of refused) {
        const r = await call(handle, 'PUT', `/jobs/${job.jobId}/resource-requirements`, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect((r.body as { errors: string[] }).errors[0]).toMatch(message);
      }
      const put = await call(handle, 'PUT', `/jobs/${job.jobId}/resource-requirements`, bounds([2, 6, 3]));
      expect(put).toEqual({ status: 200, body: {} });
      // FLIP-461: the rescale waits for the next completed checkpoint and restarts from it.
      expect(job.jobGraph.vertices.map((v) => v.parallelism)).toEqual([4, 4, 4]);
      const before = job.checkpointTracker!.counts.completed;
      handle.engine.cluster.advanceUntil(() => job.numRescales === 1, 10_000);
      expect(job.checkpointTracker!.counts.completed).toBe(before + 1);
      expect(job.checkpointTracker!.latestRestored()!.checkpointId).toBe(job.checkpointTracker!.latestCompleted()!.checkpointId);
      expect(job.status).toBe('RUNNING');
      expect(job.vertices.map((v) => v.tasks.length)).toEqual([2, 6, 3]);
      expect(job.numRestarts).toBe(0);
      const after = await call(handle, 'GET', `/jobs/${job.jobId}/resource-requirements`);
      expect(after.body).toEqual(bounds([2, 6, 3]));
      const details = await call(handle, 'GET', `/jobs/${job.jobId}`);
      expect((details.body as { vertices: Array<{ parallelism: number }> }).vertices.map((v) => v.parallelism)).toEqual([2, 6, 3]);
      // Checkpoints continue at the new parallelism.
      handle.engine.advance(4_000);
      expect(job.checkpointTracker!.latestCompleted()!.numSubtasks).toBe(11);
    } finally {
      await handle.close();
    }
  });
});
