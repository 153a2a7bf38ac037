import { afterEach, describe, expect, it } from 'vitest';
import type { SavepointProgress } from '../contracts/operations.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { newTriggerId } from './operations.ts';
import { startOperationsKit, type OperationsKit } from './testing/operations-kit.ts';

/**
 * What Flink is doing while a savepoint or stop runs, on the local engine under backpressure (hot-tenant: 30 s in,
 * acme saturates its tenant-cost subtask and barriers queue behind its backlog, so savepoints take seconds).
 */

let kit: OperationsKit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

/** The journal entry as the UI would read it at each of the driver's sleeps. */
function recorder(): { seen: Array<{ state: string; progress: string | null; checkpoint: SavepointProgress | null | undefined }>; hook: (ms: number) => void; follow(id: string): void } {
  let id: string | null = null;
  const seen: Array<{ state: string; progress: string | null; checkpoint: SavepointProgress | null | undefined }> = [];
  return {
    seen,
    follow: (triggerId) => (id = triggerId),
    hook: () => {
      const entry = id ? kit?.operations.journal.get(id) : undefined;
      if (entry) seen.push({ state: entry.state, progress: entry.progress, checkpoint: entry.checkpoint });
    },
  };
}

async function inFlightCheckpoint(k: OperationsKit): Promise<boolean> {
  const body = await k.client.request(endpoints.jobCheckpoints, { jobid: k.jobId });
  return (body.history ?? []).some((e) => e.status === 'IN_PROGRESS' && !e.is_savepoint);
}

describe('a savepoint under backpressure', () => {
  it('journals its savepoint\'s acknowledged subtasks, per vertex, while it runs; the confirmation\'s figures say how long checkpoints took', async () => {
    const rec = recorder();
    kit = await startOperationsKit({ scenario: 'hot-tenant', rate: undefined }, {}, rec.hook);
    kit.handle.engine.advance(70_000);
    const context = await kit.operations.operationsContext('local', kit.jobId);
    expect(context.recentCheckpoints).not.toBeNull();
    expect(context.recentCheckpoints!.maxMs!).toBeGreaterThan(1_000);
    expect(context.recentCheckpoints!.sentence).toMatch(/^Recent checkpoints took .+ \(p50 .+, last \d+\): this savepoint will likely take about as long, under backpressure longer\./);

    const triggerId = newTriggerId();
    rec.follow(triggerId);
    const done = await (await kit.operations.start({ kind: 'savepoint', clusterId: 'local', jobId: kit.jobId, triggerId })).done;
    expect(done.state).toBe('succeeded');
    const during = rec.seen.filter((s) => s.state === 'in-progress' && s.checkpoint);
    expect(during.length).toBeGreaterThan(0);
    const p = during[during.length - 1].checkpoint!;
    expect(p.total).toBe(40);
    expect(p.acknowledged).toBeLessThan(p.total);
    expect(p.vertices!.find((v) => v.name.startsWith('tenant-cost'))).toMatchObject({ total: 32 });
    expect(p.vertices!.reduce((n, v) => n + v.total, 0)).toBe(40);
    expect(during[during.length - 1].progress).toMatch(new RegExp(`^Savepoint ${p.checkpointId} in progress: \\d+ of 40 subtasks acknowledged; waiting on tenant-cost`));
    // Settled: no progress left behind, and this savepoint abandoned nothing.
    expect(done).toMatchObject({ checkpoint: null, checkpointNote: null });
  }, 120_000);

  it('a stop abandons the periodic checkpoint in flight: its result says so, in Flink\'s words', async () => {
    kit = await startOperationsKit({ scenario: 'hot-tenant', rate: undefined });
    kit.handle.engine.advance(70_000);
    for (let i = 0; i < 200 && !(await inFlightCheckpoint(kit)); i++) kit.handle.engine.advance(100);
    expect(await inFlightCheckpoint(kit)).toBe(true);
    const done = await (await kit.operations.start({ kind: 'stop', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), drain: false })).done;
    expect(done.state).toBe('succeeded');
    expect(done.checkpointNote).toMatch(/^Checkpoint \d+, in flight when the stop began, was abandoned by it \(Flink marks it FAILED: "Checkpoint Coordinator is suspending\."\): expected, not a fault\.$/);
  }, 120_000);
});
