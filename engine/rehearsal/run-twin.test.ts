import { describe, expect, it } from 'vitest';
import { assignKeyToParallelOperator } from '../analysis/key-groups/key-group-range-assignment.ts';
import { REHEARSAL_LIMITS, RehearsalLimitError } from './rehearsal-limits.ts';
import { RehearsalCancelledError, runTwin, type TwinRunInput } from './run-twin.ts';
import { twinTraffic } from './twin-traffic.ts';

/** The twin on the local engine: hot-tenant's tenant-cost as production shows it, run for short simulated times. */
const records = Array.from({ length: 32 }, () => 12);
records[12] = 250;
const traffic = twinTraffic({ maxParallelism: 128, recordsInPerSecond: records, demandScale: 1.6, key: 'acme' });
const input = (over: Partial<TwinRunInput> = {}): TwinRunInput => ({
  shape: { job: 'gatewaymeter', parallelism: 32, maxParallelism: 128, recordsPerSecond: traffic.recordsPerSecond, capacityRecordsPerSecond: 250, costPerRecordMs: 1 },
  warmUpMs: 20_000,
  measuredMs: 10_000,
  limits: REHEARSAL_LIMITS,
  deadline: Date.now() + 60_000,
  heapAtStart: process.memoryUsage().heapUsed,
  ...over,
});

/** Aborts after `turns` turns of the event loop: the run yields once per simulated second. */
function abortAfter(turns: number): AbortSignal {
  const controller = new AbortController();
  const turn = (left: number) => (left === 0 ? controller.abort() : setImmediate(() => turn(left - 1)));
  turn(turns);
  return controller.signal;
}

describe('runTwin', () => {
  it('saturates the hot key\'s subtask and back-pressures upstream, as production', async () => {
    const run = await runTwin(input());
    expect(run.hotSubtask).toBe(12);
    expect(run.busy.max).toBeGreaterThan(950);
    expect(run.upstreamBackPressuredTimeMsPerSecond).toBeGreaterThan(500);
    expect(run.throughputRecordsPerSecond).toBeGreaterThan(570);
    expect(run.throughputRecordsPerSecond).toBeLessThan(680);
    expect(run.simulatedMs).toBe(30_000);
  }, 30_000);

  it('the salted job with 3 buckets: acme split over its buckets, throughput at the demand', async () => {
    const run = await runTwin(input({ shape: { ...input().shape, job: 'gatewaymeter-salted' }, saltBuckets: 3 }));
    expect(run).toMatchObject({ job: 'gatewaymeter-salted', saltBuckets: 3 });
    expect(run.throughputRecordsPerSecond).toBeGreaterThan(950);
    expect(run.busy.max).toBeLessThan(900);
    // Stage A's subtasks of acme#0..2 carry a third of acme each (~127 records/s); acme#3 exists only with more buckets.
    const busyOf = (key: string) => run.subtasks[assignKeyToParallelOperator(key, 128, 32)].busyTimeMsPerSecond!;
    for (const key of ['acme#0', 'acme#1', 'acme#2']) expect(busyOf(key), key).toBeGreaterThan(120);
    expect(busyOf('acme#3')).toBeLessThan(60);
  }, 30_000);

  it('stops when cancelled, between two simulated seconds', async () => {
    const started = Date.now();
    await expect(runTwin(input({ measuredMs: 300_000, signal: abortAfter(5) }))).rejects.toThrow(RehearsalCancelledError);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('stops at its wall-clock and its memory limit', async () => {
    await expect(runTwin(input({ deadline: Date.now() - 1 }))).rejects.toThrow(new RehearsalLimitError('The rehearsal stopped at its wall-clock limit (120 s): measure fewer simulated seconds, or a smaller parallelism.'));
    await expect(runTwin(input({ limits: { ...REHEARSAL_LIMITS, maxHeapGrowthBytes: 1 }, heapAtStart: 0 }))).rejects.toThrow(/^The rehearsal stopped at its memory limit/);
  }, 30_000);
});
