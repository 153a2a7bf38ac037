import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SavepointProgress } from '../../engine/contracts/engine-api.ts';
import { FlinkRestClient } from '../../engine/flink-rest/client.ts';
import { HistoryStore } from '../../engine/history/history-store.ts';
import { newTriggerId, Operations, type OperationsCluster } from '../../engine/operations/operations.ts';
import { readFlinkCluster } from '../support/flinkCluster.ts';
import { ROOT } from '../support/paths.ts';

/**
 * A savepoint of the cluster's back-pressured test job (its checkpoints take seconds): the operation follows its
 * savepoint's acknowledged subtasks, as Flink reports them, before it completes. A savepoint does not stop the job.
 */
const cluster = readFlinkCluster();
const root = path.join(ROOT, '.cache/test-savepoint-progress', cluster.version);
let work: string;
let store: HistoryStore;
let operations: Operations;

beforeAll(() => {
  mkdirSync(root, { recursive: true });
  work = mkdtempSync(path.join(root, 'run-'));
  store = HistoryStore.open(path.join(work, 'history'));
  const client = new FlinkRestClient({ baseUrl: cluster.restUrl, timeoutMs: 30_000 });
  const c: OperationsCluster = { id: 'real', name: `Flink ${cluster.version}`, url: cluster.restUrl, client, metricsFetchIntervalMs: async () => 10_000 };
  operations = new Operations({ history: store, origin: 'cli', cluster: () => c, clusterOfEntry: () => c });
});

afterAll(async () => {
  operations?.close();
  await store?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`savepoint progress on a real Flink ${cluster.version}`, () => {
  it('the confirmation\'s figures come from the job\'s checkpoints; the running savepoint shows its acknowledged subtasks per vertex', async () => {
    const context = await operations.operationsContext('real', cluster.jobId);
    expect(context.recentCheckpoints?.sentence).toMatch(/^(Recent checkpoints took|The last checkpoint took) /);

    const triggerId = newTriggerId();
    const started = await operations.start({ kind: 'savepoint', clusterId: 'real', jobId: cluster.jobId, triggerId, targetDirectory: `file://${path.join(work, 'savepoints')}` });
    const seen: SavepointProgress[] = [];
    let settled = false;
    const done = started.done.finally(() => (settled = true));
    while (!settled) {
      const entry = operations.journal.get(triggerId);
      if (entry?.state === 'in-progress' && entry.checkpoint) seen.push(entry.checkpoint);
      await new Promise((resolve) => setTimeout(resolve, 200)); // reading our own journal, not waiting for Flink
    }
    const outcome = await done;
    expect(outcome.state, outcome.failure ?? '').toBe('succeeded');
    expect(seen.length).toBeGreaterThan(0);
    const p = seen[0];
    expect(p.total).toBeGreaterThan(0);
    expect(p.acknowledged).toBeLessThan(p.total);
    expect(p.vertices?.reduce((n, v) => n + v.total, 0)).toBe(p.total);
    expect(outcome.checkpoint).toBeNull();
  }, 180_000);
});
