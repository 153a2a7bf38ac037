import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../app/create-engine.ts';
import { openClusterStore } from '../cli/data-dir.ts';
import { MemorySecretStore } from '../clusters/secret-store.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { storeWithHotJob } from './testing/hot-job-store.ts';

const dirs = tempDirs('flink-ops-diagnosis-service-');
afterAll(() => dirs.removeAll());
const JOB = 'f'.repeat(32);

describe('DiagnosisService', () => {
  it('diagnoses, draws the heatmap and looks keys up as plain JSON', async () => {
    const dir = dirs.make();
    const { store } = await storeWithHotJob(dirs.make());
    const engine = createEngine({
      clusterStore: openClusterStore(dir),
      secretStore: new MemorySecretStore(),
      history: store,
      mode: 'web',
      version: 'test',
      builtInClusters: [{ id: 'c', name: 'c', url: 'http://127.0.0.1:1', auth: { kind: 'none' }, timeoutMs: 1000 }],
    });
    try {
      const d = await engine.diagnosis.diagnose('c', JOB, 60_000);
      expect(JSON.parse(JSON.stringify(d))).toEqual(d);
      const heatmap = await engine.diagnosis.skewHeatmap('c', JOB, 60_000, 'recordsInPerSecond', 'max');
      expect(heatmap.rows[1].hot).toEqual([3]);
      expect(await engine.diagnosis.locateKey({ key: 'acme', keyType: 'string', maxParallelism: 128, parallelism: 32, rescaleTo: [64] })).toMatchObject({ subtask: 12, keyGroup: 50, rescale: [{ parallelism: 64, subtask: 25 }] });
      await expect(engine.diagnosis.locateKey({ key: '1.5', keyType: 'int', maxParallelism: 128, parallelism: 4 })).rejects.toThrow(/not a whole number/);
      await expect(engine.diagnosis.locateKey({ key: 'x', keyType: 'uuid' as 'string', maxParallelism: 128, parallelism: 4 })).rejects.toThrow(/string, int, long/);
      expect(await engine.diagnosis.keyGroupRanges(128, 3)).toEqual([
        { startKeyGroup: 0, endKeyGroup: 42 },
        { startKeyGroup: 43, endKeyGroup: 85 },
        { startKeyGroup: 86, endKeyGroup: 127 },
      ]);
      await expect(engine.diagnosis.keyGroupRanges(4, 8)).rejects.toThrow(/higher than its maximum parallelism/);
      await expect(engine.diagnosis.diagnose('nope', JOB, 60_000)).rejects.toThrow(/No saved cluster/);
      await expect(engine.diagnosis.diagnose('c', 'not-an-id', 60_000)).rejects.toThrow(/not a Flink job id/);
    } finally {
      await (engine as { close(): Promise<void> }).close();
      await store.close();
    }
  });
});
