import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineOverWatchedHotTenant, type EngineOverWatchedHotTenant } from '../app/testing/engine-over-watched-hot-tenant.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';

/** The rehearsal service as the UI calls it, over the history of hot-tenant the app watched (cluster id `local-engine`). */
const dirs = tempDirs('flink-ops-rehearsal-service-');
let kit: EngineOverWatchedHotTenant;

beforeAll(async () => {
  kit = await engineOverWatchedHotTenant(dirs);
}, 90_000);

afterAll(async () => {
  await kit?.close();
  dirs.removeAll();
});

describe('RehearsalService', () => {
  it('rehearses salting for acme from the diagnosis and the history, as plain JSON', async () => {
    const r = await kit.engine.rehearsal.rehearse('local-engine', kit.jobId, { key: 'acme', salt: 8, measuredSeconds: 10 });
    expect(r.twinScale).toBe(1);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    expect(r).toMatchObject({ jobId: kit.jobId, key: 'acme', observed: { load: 'history', hotSubtask: 12 }, baseline: { hotSubtask: 12 }, match: { matches: true }, proposed: { job: 'gatewaymeter-salted', saltBuckets: 8 } });
    // Its prediction is kept in the history, for the operation that carries it out.
    expect(kit.history.rehearsals.list('local-engine', kit.jobId)[0]).toMatchObject({ proposal: { kind: 'salt', buckets: 8 }, vertexId: r.vertexId, predicted: { busyMaxOverMean: r.proposed!.busy.maxOverMean } });
    expect(r.limits.maxWallMs).toBe(120_000);
  }, 60_000);

  it("with a sample's key shares: acme takes its share of the demand on its own key group", async () => {
    const r = await kit.engine.rehearsal.rehearse('local-engine', kit.jobId, { key: 'acme', keyShares: [{ key: 'acme', share: 0.4 }], parallelism: 32, measuredSeconds: 10 });
    expect(r).toMatchObject({ key: 'acme', baseline: { hotSubtask: 12 }, match: { matches: true } });
  }, 60_000);

  it('replays a busier input scaled down: the same busy, the rates scaled back', async () => {
    const r = await kit.engine.rehearsal.rehearse('local-engine', kit.jobId, { key: 'acme', parallelism: 32, inputRecordsPerSecond: 20_000, measuredSeconds: 30 });
    expect(r.twinScale).toBeCloseTo(0.25, 9);
    expect(r.notes.join(' ')).toContain("The twin ran at 25% of production's rate");
    // acme's subtask still caps the job at ~250 records/s a subtask (at production's scale): the throughput is ~625.
    // 30 measured seconds: over 10 the twin's start still shows (660-690 as the history's last digits varied), over
    // 30 it gives 621-626.
    expect(r.baseline.hotSubtask).toBe(12);
    expect(r.baseline.throughputRecordsPerSecond).toBeGreaterThan(570);
    expect(r.baseline.throughputRecordsPerSecond).toBeLessThan(680);
  }, 60_000);

  it('cancels a running rehearsal, and runs one at a time per job', async () => {
    const running = kit.engine.rehearsal.rehearse('local-engine', kit.jobId, { key: 'acme', salt: 8, measuredSeconds: 300 });
    await expect(kit.engine.rehearsal.rehearse('local-engine', kit.jobId, { key: 'acme', salt: 8 })).rejects.toThrow('A rehearsal of this job is already running: wait for it, or cancel it.');
    expect(await kit.engine.rehearsal.cancel('local-engine', kit.jobId)).toBe(true);
    await expect(running).rejects.toMatchObject({ info: { kind: 'cancelled', message: 'The rehearsal was cancelled.' } });
    expect(await kit.engine.rehearsal.cancel('local-engine', kit.jobId)).toBe(false);
  }, 60_000);

  it('refuses what it cannot rehearse with one sentence', async () => {
    await expect(kit.engine.rehearsal.rehearse('local-engine', kit.jobId, { key: 'acme' })).rejects.toThrow(/^Rehearse one proposal/);
    await expect(kit.engine.rehearsal.rehearse('local-engine', kit.jobId, { salt: 1 })).rejects.toThrow('Salt buckets must be a whole number from 2 to 1024, not 1.');
    await expect(kit.engine.rehearsal.rehearse('local-engine', kit.jobId, { salt: 8, parallelism: 64 })).rejects.toThrow(/^Rehearse one proposal/);
    await expect(kit.engine.rehearsal.rehearse('local-engine', kit.jobId, { salt: 8, keyShares: [{ key: 'acme', share: 0.7 }, { key: 'globex', share: 0.4 }] })).rejects.toThrow(/^Key shares are keys with a share/);
  }, 60_000);
});
