import { describe, expect, it } from 'vitest';
import { compareTotals } from '../local/oracle/compare-totals.ts';
import { readUpsertLog } from '../local/oracle/upsert-log.ts';
import { DEFAULT_PROOF_CONFIG, expectedTotalsFor } from '../local/testing/exactly-once-harness.ts';
import { newTriggerId } from './operations.ts';
import { KIT_START_TIME, startOperationsKit } from './testing/operations-kit.ts';

/**
 * The console's own stop-with-savepoint and resubmit keep the job exactly-once: a bounded GatewayMeter run of the
 * `exactly-once` scenario is stopped twice by the operations (as the app and the CLI do it) and resubmitted through
 * `/jars/:jarid/run` with the program the console proposes, at parallelism 3, then 8; the per-tenant, per-minute
 * totals of its upsert log equal the independent oracle.
 */
describe('stop-with-savepoint and resubmit through the operations, vs the oracle', () => {
  it('at parallelism 3 and then 8, the per-tenant totals are exact', async () => {
    const config = { ...DEFAULT_PROOF_CONFIG, events: 120_000, rate: 1000, startTime: KIT_START_TIME };
    const expected = expectedTotalsFor(config);
    const kit = await startOperationsKit((dirs) => ({ events: config.events, rate: config.rate, seed: config.seed, sinkDir: dirs.sink }));
    try {
      const span = (config.events / config.rate) * 1000;
      let jobId = kit.jobId;
      const runs: Array<{ jobId: string; parallelism: number[]; savepoint: string }> = [];
      for (const [i, parallelism] of [3, 8].entries()) {
        const stopAt = config.startTime + Math.round((span * (i + 1)) / 3);
        kit.handle.engine.advance(stopAt - kit.handle.engine.now());
        const stop = await (await kit.operations.start({ kind: 'stop', clusterId: 'local', jobId, triggerId: newTriggerId(), drain: false })).done;
        expect(stop.state).toBe('succeeded');
        const context = await kit.operations.operationsContext('local', jobId);
        expect(context.resubmitDefaults.program?.programArgs).toEqual(expect.arrayContaining(['--events', String(config.events), '--sink-dir', kit.dirs.sink]));
        const resubmit = await (
          await kit.operations.start({ kind: 'resubmit', clusterId: 'local', jobId, triggerId: newTriggerId(), program: context.resubmitDefaults.program!, savepointPath: stop.resultPath!, parallelism })
        ).done;
        expect(resubmit.state).toBe('succeeded');
        const job = kit.handle.engine.cluster.jobs.get(resubmit.newJobId!)!;
        runs.push({ jobId: job.jobId, parallelism: job.jobGraph.vertices.map((v) => v.parallelism), savepoint: stop.resultPath! });
        jobId = job.jobId;
      }
      expect(runs.map((r) => Math.max(...r.parallelism))).toEqual([3, 8]);
      const last = kit.handle.engine.cluster.jobs.get(jobId)!;
      expect(kit.handle.engine.cluster.advanceUntil(() => last.isTerminal, 3_600_000)).toBe(true);
      expect(last.status).toBe('FINISHED');
      const comparison = compareTotals(expected, readUpsertLog(kit.dirs.sink, 'gatewaymeter').rows);
      expect(comparison.ok, comparison.report()).toBe(true);
      expect(comparison.actual.requests).toBe(expected.stats.records);
      // The journal links the runs: the last one lists both savepoints, each with the run it came from.
      const { listSavepoints } = await import('./savepoint-listing.ts');
      const listed = await listSavepoints({ journal: kit.operations.journal, history: kit.history, client: kit.client, clusterId: 'local', jobId });
      expect(listed.filter((s) => s.source === 'journal').map((s) => [s.path, s.jobId])).toEqual([
        [runs[1].savepoint, runs[0].jobId],
        [runs[0].savepoint, kit.jobId],
      ]);
    } finally {
      await kit.close();
    }
  }, 120_000);
});
