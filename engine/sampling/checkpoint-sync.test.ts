import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createClient, type ClusterConnection } from '../clusters/cluster-connections.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { checkpointSubtaskRows } from '../history/checkpoint-subtasks.ts';
import { HistoryStore } from '../history/history-store.ts';
import { syntheticSample } from '../history/testing/sample-fixtures.ts';
import { realBody } from '../local/checkpoint/testdata/shape.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { ManualClock } from '../local/time/clock.ts';
import { CheckpointSync } from './checkpoint-sync.ts';
import { JobWatcher } from './job-watcher.ts';

const dirs = tempDirs('flink-ops-checkpoint-sync-');
const T0 = Date.UTC(2026, 10, 30, 3, 0, 0);
let handle: LocalEngineHandle;
let jobId: string;

beforeAll(async () => {
  // hot-tenant with checkpoints every 10 s, as `npm start` runs it, on a clock the test moves.
  handle = await startLocalEngine({
    port: 0,
    time: 'manual',
    clock: new ManualClock(T0),
    scenario: 'hot-tenant',
    checkpointDir: dirs.make(),
    restartStrategy: 'fixed-delay',
    restartAttempts: 3,
    restartDelayMs: 1_000,
  });
  jobId = [...handle.engine.cluster.jobs.keys()][0];
  handle.engine.advance(25_000); // checkpoints 1 and 2 completed
}, 60_000);

afterAll(async () => {
  await handle?.close();
  dirs.removeAll();
});

describe('the checkpoint history of a watched job', () => {
  it('keeps every checkpoint, fetches a settled one\'s details once, and fills the samples\' state sizes from the last completed one', async () => {
    const store = HistoryStore.open(dirs.make(), { now: () => handle.engine.now() });
    const connection: ClusterConnection = connect(createClient({ name: 'local', url: handle.url, auth: { kind: 'none' }, timeoutMs: 5_000 }, undefined));
    const watcher = new JobWatcher({ history: store, connection: () => connection, now: () => handle.engine.now() });
    const detailRequests = async (): Promise<number> => {
      const before = connection.client.stats.requests;
      const sample = (await watcher.sampleNow('local', jobId))!;
      expect(sample.requests).toBeLessThanOrEqual(2 * sample.vertices.length + 2);
      return connection.client.stats.requests - before - sample.requests;
    };
    const V = 3;

    // Two settled checkpoints: the newest gets its details in this sample (1 + V requests), the other in the next.
    expect(await detailRequests()).toBe(1 + V);
    expect(store.checkpoints.list('local', jobId).map((c) => [c.id, c.status, c.vertices?.length ?? 0])).toEqual([
      [1, 'COMPLETED', 0],
      [2, 'COMPLETED', V],
    ]);
    expect(await detailRequests()).toBe(1 + V);
    expect(await detailRequests()).toBe(0); // nothing new: nothing fetched again
    handle.engine.advance(10_000);
    expect(await detailRequests()).toBe(1 + V); // checkpoint 3 settled
    expect(await detailRequests()).toBe(0);

    const third = store.checkpoints.get('local', jobId, 3)!;
    expect(third.vertices!.map((v) => v.numAcknowledgedSubtasks)).toEqual([4, 4, 32]);
    const assemble = third.vertices![1];
    const rows = checkpointSubtaskRows(store.checkpoints.subtasks('local', jobId, third.triggerTimestamp, 3, assemble.vertexId)!);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.status === 'completed' && r.stateBytes! > 0 && r.ackTimestamp! >= third.triggerTimestamp)).toBe(true);
    expect(rows.reduce((sum, r) => sum + r.stateBytes!, 0)).toBe(assemble.stateBytes);

    // The latest sample carries each subtask's state size in checkpoint 3.
    const latest = store.samples.latest('local', jobId)!;
    expect(Array.from(latest.vertices[1].subtasks!.checkpointedBytes)).toEqual(rows.map((r) => r.stateBytes));
    expect(store.checkpoints.overview('local', jobId)?.counts).toMatchObject({ completed: 3, failed: 0 });

    // A TaskManager lost: the job restarts from checkpoint 3; the history keeps what came before, and says so.
    const tm = handle.engine.cluster.taskManagers[0].id;
    const kill = await fetch(`${handle.url}/local-engine/v1/taskmanagers/${tm}/kill`, { method: 'POST' });
    expect(kill.status).toBe(200);
    handle.engine.advance(15_000);
    await watcher.sampleNow('local', jobId);
    handle.engine.advance(12_000);
    await watcher.sampleNow('local', jobId);
    const ids = store.checkpoints.list('local', jobId).map((c) => c.id);
    expect(ids.slice(0, 3)).toEqual([1, 2, 3]);
    expect(ids.length).toBeGreaterThan(3);
    expect(store.checkpoints.overview('local', jobId)?.restored).toMatchObject({ id: 3, isSavepoint: false });
    expect(store.events.list('local', jobId).filter((e) => e.kind === 'checkpoint-restored').map((e) => e.message)).toEqual([
      expect.stringMatching(/^The job restored checkpoint 3 at .* from file:/),
    ]);
    await store.close();
  }, 60_000);

  it('fetches the details of a settled checkpoint a page opens at once, outside the sampler\'s budget, and only once', async () => {
    const store = HistoryStore.open(dirs.make());
    const client = new FlinkRestClient({ baseUrl: handle.url });
    const sync = new CheckpointSync(store, 'local', jobId);
    handle.engine.advance(10_000);
    const statistics = await client.request(endpoints.jobCheckpoints, { jobid: jobId });
    await sync.sync(client, statistics, syntheticSample({ t: handle.engine.now(), jobId }), { detailsBudget: 0 });
    const settled = store.checkpoints.list('local', jobId).filter((c) => c.status === 'COMPLETED').at(-1)!;
    expect(settled.vertices).toBeUndefined();
    const before = client.stats.requests;
    expect(await sync.fetchOpened(client, settled.triggerTimestamp, settled.id, handle.engine.now())).toBe(true);
    expect(client.stats.requests - before).toBe(1 + 3);
    expect(store.checkpoints.find('local', jobId, settled.triggerTimestamp, settled.id)!.vertices).toHaveLength(3);
    expect(await sync.fetchOpened(client, settled.triggerTimestamp, settled.id, handle.engine.now())).toBe(false);
    expect(client.stats.requests - before).toBe(1 + 3);
    await store.close();
  });

  it('keeps both runs when a JobManager failover resets the statistics, and marks an in-progress checkpoint that vanished as unknown', async () => {
    const store = HistoryStore.open(dirs.make());
    const sync = new CheckpointSync(store, 'c1', 'a'.repeat(32), { detailsPerSample: 0 });
    const client = new FlinkRestClient({ baseUrl: 'http://127.0.0.1:1' }); // never asked: no details this time
    const read = (file: string) => endpoints.jobCheckpoints.response.parse(realBody(file));

    await sync.sync(client, read('checkpoints-with-savepoints.json'), syntheticSample({ t: 1_000 }));
    // Real Flink 2.2.1 after the JobManager lost the job's statistics: ids count from 1 again.
    await sync.sync(client, read('checkpoints-after-failover.json'), syntheticSample({ t: 2_000 }));

    const history = store.checkpoints.list('c1', 'a'.repeat(32)).map((c) => `${c.id}:${c.status}${c.isSavepoint ? ':savepoint' : ''}`);
    expect(history).toEqual(['1:COMPLETED', '2:COMPLETED', '3:COMPLETED', '4:COMPLETED:savepoint', '5:COMPLETED:savepoint', '6:COMPLETED', '7:UNKNOWN', '1:FAILED', '2:IN_PROGRESS']);
    expect(store.checkpoints.get('c1', 'a'.repeat(32), 7)?.failureMessage).toMatch(/outcome is unknown/);
    expect(client.stats.requests).toBe(0);

    // The job gone from the cluster: the checkpoint still running will never report a result.
    await sync.jobGone(3_000);
    expect(store.checkpoints.list('c1', 'a'.repeat(32)).filter((c) => c.status === 'IN_PROGRESS')).toEqual([]);
    expect(store.checkpoints.list('c1', 'a'.repeat(32)).at(-1)).toMatchObject({ id: 2, status: 'UNKNOWN', failureMessage: expect.stringMatching(/left the cluster/) });
    await store.close();
  });
});
