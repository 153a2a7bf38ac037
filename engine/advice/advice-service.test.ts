import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../app/create-engine.ts';
import { openClusterStore } from '../cli/data-dir.ts';
import { watchedHotTenant } from '../cli/testing/watched-hot-tenant.ts';
import { MemorySecretStore } from '../clusters/secret-store.ts';
import { HistoryStore } from '../history/history-store.ts';
import type { LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';

/** The advice service as the UI calls it, over the history of hot-tenant the app watched (cluster id `local-engine`). */
const dirs = tempDirs('flink-ops-advice-service-');
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

describe('AdviceService', () => {
  it('advises salting for acme from the diagnosis and the history, as plain JSON', async () => {
    const advice = await engine.advice.advise('local-engine', jobId, { key: 'acme', keyRecordsPerSecond: 400, format: 'salt-{i}-{key}' });
    expect(JSON.parse(JSON.stringify(advice))).toEqual(advice);
    expect(advice).toMatchObject({ jobId, hotSubtask: 12, basis: { vertex: 'diagnosis', rate: 'option', load: 'history' } });
    expect(advice.vertexName).toMatch(/^tenant-cost/);
    expect(advice.salting).toMatchObject({ verdict: 'salt', buckets: 3, subtask: 12 });
    expect(advice.salting.saltedKeys.map((k) => k.key)).toEqual(['salt-0-acme', 'salt-1-acme', 'salt-2-acme']);
    expect(advice.warnings).toEqual([]);
    // The vertex named by the operator: the diagnosis still names its hot subtask.
    const named = await engine.advice.advise('local-engine', jobId, { key: 'acme', vertexId: advice.vertexName });
    expect(named).toMatchObject({ vertexId: advice.vertexId, hotSubtask: 12, basis: { vertex: 'option', rate: 'estimated' }, salting: { keyRateIsLowerBound: true } });
  }, 60_000);

  it('refuses what it cannot advise on with one sentence', async () => {
    await expect(engine.advice.advise('local-engine', jobId, {})).rejects.toThrow(/^Give the hot key/);
    await expect(engine.advice.advise('local-engine', jobId, { key: 'acme', vertexId: 'nope' })).rejects.toThrow(/^The job has no vertex "nope"\. Its vertices: /);
    const { vertices } = (await (await fetch(`${local.url}/jobs/${jobId}`)).json()) as { vertices: Array<{ id: string; name: string }> };
    const source = vertices.find((v) => v.name.startsWith('Source:'))!;
    await expect(engine.advice.advise('local-engine', jobId, { key: 'acme', vertexId: source.id })).rejects.toThrow(`${source.name} is not keyed (no keyBy edge into it): salting splits a key of a keyed vertex.`);
    await expect(engine.advice.advise('local-engine', jobId, { key: 'acme', buckets: 1 })).rejects.toThrow(/Salt buckets must be a whole number from 2 to 1024/);
    await expect(engine.advice.advise('local-engine', jobId, { key: 'acme', keyRecordsPerSecond: -3 })).rejects.toThrow(/above 0/);
    // A key that is not the hot subtask's: said, not hidden.
    const other = await engine.advice.advise('local-engine', jobId, { key: 'globex', keyRecordsPerSecond: 400 });
    expect(other.warnings[0]).toMatch(/^globex lands on subtask \d+ \(key group \d+\), not on the hot subtask 12/);
  }, 60_000);
});
