import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKPOINTING_DEFAULTS } from './checkpoint/checkpoint-stats-rest.ts';
import { gatewayMeterJob } from './gatewaymeter/pipelines.ts';
import { NdjsonUpsertLog, ResultStore, TenantCostSink } from './gatewaymeter/sinks.ts';
import { compareTotals } from './oracle/compare-totals.ts';
import { computeExpectedTotals, type ExpectedTotals } from './oracle/gatewaymeter-oracle.ts';
import { readUpsertLog } from './oracle/upsert-log.ts';
import { LocalCluster } from './runtime/cluster.ts';
import { loadScenario } from './scenarios/scenario.ts';
import { ManualClock } from './time/clock.ts';
import { mulberry32 } from './time/random.ts';
import {
  DEFAULT_PROOF_CONFIG,
  expectedTotalsFor,
  proofAdaptiveRescale,
  proofPlain,
  proofSavepointRescales,
  proofTaskManagerKills,
  type ProofOutcome,
} from './testing/exactly-once-harness.ts';

/**
 * Exactly-once state, end to end: a bounded GatewayMeter run (400,000 events, seed 42, no late data) driven through
 * Flink's REST API on a manual clock; the `--sink-dir` upsert log's final answer (last line per tenant and minute)
 * equals the independent oracle to the nano-USD in every case. The full-size run (1,000,000 events) is
 * `npx tsx engine/bench/local-checkpoint-proof.ts`.
 */
const config = DEFAULT_PROOF_CONFIG;
let expected: ExpectedTotals;

beforeAll(() => {
  expected = expectedTotalsFor(config);
}, 60_000);

function expectExact(outcome: ProofOutcome): void {
  expect(outcome.specProblems, 'every REST response on the way matches the spec').toEqual([]);
  expect(outcome.comparison.ok, outcome.comparison.report()).toBe(true);
  expect(outcome.comparison.actual.requests).toBe(expected.stats.records);
  expect(outcome.jobs.at(-1)!.status).toBe('FINISHED');
}

describe('exactly-once per-tenant, per-minute totals equal the oracle', () => {
  it('has a stream worth checking', () => {
    expect(expected.stats.events).toBe(config.events);
    expect(expected.cells.size).toBeGreaterThan(30); // 8 tenants over several minutes
    expect(expected.stats.abandoned).toBeGreaterThan(0);
    expect(expected.stats.uncertain).toBe(0); // no late data: the comparison is exact
  });

  it('(a) in a plain run with periodic checkpoints', async () => {
    const outcome = await proofPlain(config, expected);
    expectExact(outcome);
    expect(outcome.jobs[0].checkpoints).toBeGreaterThan(10);
  }, 60_000);

  it('(b) with a TaskManager killed at 5 random moments (fixed-delay restarts from the latest checkpoint)', async () => {
    const outcome = await proofTaskManagerKills(config, expected, 5);
    expectExact(outcome);
    expect(outcome.jobs[0].numRestarts).toBe(5);
    expect(outcome.events.filter((e) => e.includes('killed'))).toHaveLength(5);
    expect(outcome.events.at(-1)).toBe('exception history: 5 entries');
  }, 60_000);

  it('(c) after stop-with-savepoint (no drain) and restores at parallelism 1, 3, 8 and 32', async () => {
    const outcome = await proofSavepointRescales(config, expected, [1, 3, 8, 32]);
    expectExact(outcome);
    expect(outcome.jobs.map((j) => j.parallelism[0])).toEqual([4, 1, 3, 8, 32]);
    expect(outcome.jobs.every((j) => j.status === 'FINISHED')).toBe(true);
  }, 60_000);

  it('(d) after adaptive rescales mid-run (PUT resource-requirements)', async () => {
    const outcome = await proofAdaptiveRescale(config, expected, [
      [2, 6, 3],
      [8, 5, 8],
    ]);
    expectExact(outcome);
    expect(outcome.jobs[0].numRescales).toBe(2);
    expect(outcome.jobs[0].parallelism).toEqual([8, 5, 8]);
  }, 60_000);
});

describe('exactly-once under back-pressure', () => {
  it('barriers queue behind buffered records and align; kills fail in-flight checkpoints; the totals stay exact', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'le-bp-'));
    try {
      const T0 = DEFAULT_PROOF_CONFIG.startTime;
      const generator = { ...loadScenario('exactly-once').traffic, rate: 2000, events: 60_000, seed: 9 };
      const cluster = new LocalCluster({ clock: new ManualClock(T0), taskManagers: 4, slotsPerTaskManager: 8, taskManagerRestartDelayMs: 3000, network: { segmentSize: 4096 } });
      const graph = gatewayMeterJob({ parallelism: 4, maxParallelism: 128, generator, sink: new TenantCostSink(new ResultStore(), new NdjsonUpsertLog(dir, 'gatewaymeter')) });
      const job = cluster.submitJob(graph, {
        // tenant-cost cannot keep up (about 300 records/s arrive): its input queues fill and back-pressure reaches the source.
        capacity: { 'tenant-cost': { maxRecordsPerSecond: 60 } },
        checkpointing: { ...CHECKPOINTING_DEFAULTS, intervalMs: 3000 },
        checkpointStorage: { checkpointDirectory: path.join(dir, 'checkpoints') },
        restartStrategy: { type: 'fixed-delay', attempts: 10, delayMs: 500 },
      });
      const random = mulberry32(3);
      for (let k = 0; k < 4; k++) {
        cluster.advance(6000 + Math.floor(random() * 6000));
        cluster.advanceUntil(() => job.status === 'RUNNING', 60_000);
        cluster.killTaskManager(job.slots[Math.floor(random() * job.slots.length)].taskManagerId);
      }
      expect(cluster.advanceUntil(() => job.isTerminal, 3_600_000)).toBe(true);
      expect(job.status).toBe('FINISHED');
      expect(job.numRestarts).toBe(4);
      let alignment = 0;
      let startDelay = 0;
      for (const c of job.checkpointTracker!.history()) {
        for (const t of c.tasks.values()) {
          alignment = Math.max(alignment, t.summary.alignmentDuration.max);
          startDelay = Math.max(startDelay, t.summary.startDelay.max);
        }
      }
      expect(alignment).toBeGreaterThan(100);
      expect(startDelay).toBeGreaterThan(1000);
      const expectedHere = computeExpectedTotals({ generator, sourceParallelism: 4, startTime: T0 });
      const comparison = compareTotals(expectedHere, readUpsertLog(dir).rows);
      expect(comparison.ok, comparison.report()).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
