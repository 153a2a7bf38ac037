import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createClient } from '../clusters/cluster-connections.ts';
import { HistoryStore } from '../history/history-store.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { ManualClock } from '../local/time/clock.ts';
import { JobWatcher } from '../sampling/job-watcher.ts';
import { jobState } from './job-state.ts';
import { syncCheckpointsForView } from './sync-checkpoints-for-view.ts';

/**
 * The State view against the local engine (hot-tenant, checkpoints every 10 s): the sampler alone keeps the history a
 * minute behind the JobManager; the view's sync brings it to the newest completed checkpoint, sizes as the engine says.
 */
const dirs = tempDirs('flink-ops-state-sync-');
let handle: LocalEngineHandle;
let jobId: string;
let store: HistoryStore;

beforeAll(async () => {
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(Date.now() - 10 * 60_000), scenario: 'hot-tenant', checkpointDir: dirs.make() });
  jobId = [...handle.engine.cluster.jobs.keys()][0];
  store = HistoryStore.open(dirs.make(), { now: () => handle.engine.now() });
}, 60_000);

afterAll(async () => {
  await store?.close();
  await handle?.close();
  dirs.removeAll();
});

describe('the State view\'s checkpoint sync', () => {
  it('brings the history to the newest completed checkpoint, each subtask\'s state size as the engine reports it', async () => {
    const client = createClient({ name: 'local', url: handle.url, auth: { kind: 'none' }, timeoutMs: 5_000 }, undefined);
    const watcher = new JobWatcher({ history: store, connection: () => connect(client), now: () => handle.engine.now() });
    await watcher.sampleNow('local', jobId);
    handle.engine.advance(45_000); // four checkpoints complete; the sampler has not read them

    await syncCheckpointsForView(client, store, 'local', jobId, handle.engine.now());
    const state = await jobState(store, client, 'local', jobId, 10 * 60_000);

    // The engine's own REST at the same moment (its clock stands still between the two).
    const statistics = (await (await fetch(`${handle.url}/jobs/${jobId}/checkpoints`)).json()) as { latest: { completed: { id: number } } };
    const newest = statistics.latest.completed.id;
    const tenantCost = state.vertices.find((v) => v.name.startsWith('tenant-cost'))!;
    expect(tenantCost.series.at(-1)?.checkpointId).toBe(newest);
    expect(tenantCost.series.filter((p) => p.subtaskBytes !== null).length).toBeGreaterThanOrEqual(3);
    const detail = (await (await fetch(`${handle.url}/jobs/${jobId}/checkpoints/details/${newest}/subtasks/${tenantCost.vertexId}`)).json()) as { subtasks: Array<{ index: number; state_size: number }> };
    expect(tenantCost.subtasks.map((s) => s.stateBytes)).toEqual([...detail.subtasks].sort((a, b) => a.index - b.index).map((s) => s.state_size));
    expect(tenantCost.subtasks.some((s) => (s.stateBytes ?? 0) > 0)).toBe(true);
  }, 60_000);

  it('says so when the job does not checkpoint, and leaves the history as it was for a job the cluster no longer has', async () => {
    const plain = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(Date.now() - 10 * 60_000), scenario: 'hot-tenant' });
    try {
      const plainJob = [...plain.engine.cluster.jobs.keys()][0];
      const client = createClient({ name: 'plain', url: plain.url, auth: { kind: 'none' }, timeoutMs: 5_000 }, undefined);
      await expect(syncCheckpointsForView(client, store, 'plain', plainJob, plain.engine.now())).rejects.toThrow(/Checkpointing has not been enabled/);
      const before = store.checkpoints.list('local', jobId).length;
      await expect(syncCheckpointsForView(client, store, 'local', 'f'.repeat(32), plain.engine.now())).resolves.toBeUndefined();
      expect(store.checkpoints.list('local', jobId)).toHaveLength(before);
    } finally {
      await plain.close();
    }
  }, 60_000);
});
