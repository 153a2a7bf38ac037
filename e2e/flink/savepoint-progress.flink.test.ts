import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SavepointProgress } from '../../engine/contracts/operations.ts';
import { newTriggerId, type Operations } from '../../engine/operations/operations.ts';
import { readFlinkCluster } from '../support/flinkCluster.ts';
import { openRealOperations, type RealOperations } from './real-operations.ts';

/**
 * A savepoint of the cluster's back-pressured test job (its checkpoints take seconds): the operation follows its
 * savepoint's acknowledged subtasks, as Flink reports them, before it completes. A savepoint does not stop the job.
 */
const cluster = readFlinkCluster();
let real: RealOperations;
let work: string;
let operations: Operations;

beforeAll(() => {
  real = openRealOperations(cluster, 'test-savepoint-progress');
  ({ work, operations } = real);
});

afterAll(async () => {
  await real?.close();
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
