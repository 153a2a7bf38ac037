import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineOverWatchedHotTenant, type EngineOverWatchedHotTenant } from '../app/testing/engine-over-watched-hot-tenant.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';

/** The advice service as the UI calls it, over the history of hot-tenant the app watched (cluster id `local-engine`). */
const dirs = tempDirs('flink-ops-advice-service-');
let kit: EngineOverWatchedHotTenant;

beforeAll(async () => {
  kit = await engineOverWatchedHotTenant(dirs);
}, 90_000);

afterAll(async () => {
  await kit?.close();
  dirs.removeAll();
});

describe('AdviceService', () => {
  it('advises salting for acme from the diagnosis and the history, as plain JSON', async () => {
    const advice = await kit.engine.advice.advise('local-engine', kit.jobId, { key: 'acme', keyRecordsPerSecond: 400, format: 'salt-{i}-{key}' });
    expect(JSON.parse(JSON.stringify(advice))).toEqual(advice);
    expect(advice).toMatchObject({ jobId: kit.jobId, hotSubtask: 12, basis: { vertex: 'diagnosis', rate: 'option', load: 'history' } });
    expect(advice.vertexName).toMatch(/^tenant-cost/);
    expect(advice.salting).toMatchObject({ verdict: 'salt', buckets: 3, subtask: 12 });
    expect(advice.salting.saltedKeys.map((k) => k.key)).toEqual(['salt-0-acme', 'salt-1-acme', 'salt-2-acme']);
    expect(advice.warnings).toEqual([]);
    // The vertex named by the operator: the diagnosis still names its hot subtask.
    const named = await kit.engine.advice.advise('local-engine', kit.jobId, { key: 'acme', vertexId: advice.vertexName });
    expect(named).toMatchObject({ vertexId: advice.vertexId, hotSubtask: 12, basis: { vertex: 'option', rate: 'estimated' }, salting: { keyRateIsLowerBound: true } });
  }, 60_000);

  it('refuses what it cannot advise on with one sentence', async () => {
    await expect(kit.engine.advice.advise('local-engine', kit.jobId, {})).rejects.toThrow(/^Give the hot key/);
    await expect(kit.engine.advice.advise('local-engine', kit.jobId, { key: 'acme', vertexId: 'nope' })).rejects.toThrow(/^The job has no vertex "nope"\. Its vertices: /);
    const { vertices } = (await (await fetch(`${kit.local.url}/jobs/${kit.jobId}`)).json()) as { vertices: Array<{ id: string; name: string }> };
    const source = vertices.find((v) => v.name.startsWith('Source:'))!;
    await expect(kit.engine.advice.advise('local-engine', kit.jobId, { key: 'acme', vertexId: source.id })).rejects.toThrow(`${source.name} is not keyed (no keyBy edge into it): salting splits a key of a keyed vertex.`);
    await expect(kit.engine.advice.advise('local-engine', kit.jobId, { key: 'acme', buckets: 1 })).rejects.toThrow(/Salt buckets must be a whole number from 2 to 1024/);
    await expect(kit.engine.advice.advise('local-engine', kit.jobId, { key: 'acme', keyRecordsPerSecond: -3 })).rejects.toThrow(/above 0/);
    // A key that is not the hot subtask's: said, not hidden.
    const other = await kit.engine.advice.advise('local-engine', kit.jobId, { key: 'globex', keyRecordsPerSecond: 400 });
    expect(other.warnings[0]).toMatch(/^globex lands on subtask \d+ \(key group \d+\), not on the hot subtask 12/);
  }, 60_000);
});
