import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../app/create-engine.ts';
import { openClusterStore } from '../cli/data-dir.ts';
import { watchedHotTenant } from '../cli/testing/watched-hot-tenant.ts';
import { MemorySecretStore } from '../clusters/secret-store.ts';
import { HistoryStore } from '../history/history-store.ts';
import type { LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';

/** The rehearsal service as the UI calls it, over the history of hot-tenant the app watched (cluster id `local-engine`). */
const dirs = tempDirs('flink-ops-rehearsal-service-');
let local: LocalEngineHandle;
let history: HistoryStore;
let engine: Engine;
let jobId: string;

beforeAll(async () => {
  const watched = await watchedHotTenant(dirs);
  local = watched.engine;
  jobId = [...local.engine.cluster.jobs.values()][0].jobId;
  history = HistoryStore.open(path.join(watched.dataDir, 'history'));
  engine = createEngine({
    clusterStore: openClusterStore(dirs.make()),
    secretStore: new MemorySecretStore(),
    history,
    mode: 'web',
    version: 'test',
    builtInClusters: [{ id: 'local-engine', name: 'local engine', url: local.url, auth: { kind: 'none' }, timeoutMs: 10_000 }],
  });
}, 90_000);

afterAll(async () => {
  await engine?.close();
  await history?.close();
  await local?.close();
  dirs.removeAll();
});

describe('RehearsalService', () => {
  it('rehearses salting for acme from the diagnosis and the history, as plain JSON', async () => {
    const r = await engine.rehearsal.rehearse('local-engine', jobId, { key: 'acme', salt: 8, measuredSeconds: 10 });
    expect(r.twinScale).toBe(1);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    expect(r).toMatchObject({ jobId, key: 'acme', observed: { load: 'history', hotSubtask: 12 }, baseline: { hotSubtask: 12 }, match: { matches: true }, proposed: { job: 'gatewaymeter-salted', saltBuckets: 8 } });
    // Its prediction is kept in the history, for the operation that carries it out.
    expect(history.rehearsals.list('local-engine', jobId)[0]).toMatchObject({ proposal: { kind: 'salt', buckets: 8 }, vertexId: r.vertexId, predicted: { busyMaxOverMean: r.proposed!.busy.maxOverMean } });
    expect(r.limits.maxWallMs).toBe(120_000);
  }, 60_000);

  it("with a sample's key shares: acme takes its share of the demand on its own key group", async () => {
    const r = await engine.rehearsal.rehearse('local-engine', jobId, { key: 'acme', keyShares: [{ key: 'acme', share: 0.4 }], parallelism: 32, measuredSeconds: 10 });
    expect(r).toMatchObject({ key: 'acme', baseline: { hotSubtask: 12 }, match: { matches: true } });
  }, 60_000);

  it('replays a busier input scaled down: the same busy, the rates scaled back', async () => {
    const r = await engine.rehearsal.rehearse('local-engine', jobId, { key: 'acme', parallelism: 32, inputRecordsPerSecond: 20_000, measuredSeconds: 10 });
    expect(r.twinScale).toBeCloseTo(0.25, 9);
    expect(r.notes.join(' ')).toContain("The twin ran at 25% of production's rate");
    // acme's subtask still caps the job at ~250 records/s a subtask (at production's scale): the throughput is ~625.
    expect(r.baseline.hotSubtask).toBe(12);
    expect(r.baseline.throughputRecordsPerSecond).toBeGreaterThan(570);
    expect(r.baseline.throughputRecordsPerSecond).toBeLessThan(680);
  }, 60_000);

  it('cancels a running rehearsal, and runs one at a time per job', async () => {
    const running = engine.rehearsal.rehearse('local-engine', jobId, { key: 'acme', salt: 8, measuredSeconds: 300 });
    await expect(engine.rehearsal.rehearse('local-engine', jobId, { key: 'acme', salt: 8 })).rejects.toThrow('A rehearsal of this job is already running: wait for it, or cancel it.');
    expect(await engine.rehearsal.cancel('local-engine', jobId)).toBe(true);
    await expect(running).rejects.toMatchObject({ info: { kind: 'cancelled', message: 'The rehearsal was cancelled.' } });
    expect(await engine.rehearsal.cancel('local-engine', jobId)).toBe(false);
  }, 60_000);

  it('refuses what it cannot rehearse with one sentence', async () => {
    await expect(engine.rehearsal.rehearse('local-engine', jobId, { key: 'acme' })).rejects.toThrow(/^Rehearse one proposal/);
    await expect(engine.rehearsal.rehearse('local-engine', jobId, { salt: 1 })).rejects.toThrow('Salt buckets must be a whole number from 2 to 1024, not 1.');
    await expect(engine.rehearsal.rehearse('local-engine', jobId, { salt: 8, parallelism: 64 })).rejects.toThrow(/^Rehearse one proposal/);
    await expect(engine.rehearsal.rehearse('local-engine', jobId, { salt: 8, keyShares: [{ key: 'acme', share: 0.7 }, { key: 'globex', share: 0.4 }] })).rejects.toThrow(/^Key shares are keys with a share/);
  }, 60_000);
});
