import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTriggerId, type Operations } from '../../engine/operations/operations.ts';
import { readFlinkCluster } from '../support/flinkCluster.ts';
import { openRealOperations, type RealOperations } from './real-operations.ts';
import { cancelQuietly, runTestJob, waitRunning } from './testJobs.ts';

/**
 * An in-place rescale's outcome from Flink's own rescale history (2.3 with `web.adaptive-scheduler.rescale-history.size`
 * > 0, as test-flink.sh starts it): COMPLETED with each vertex before/after and the UUID in the journal; then, within
 * the adaptive scheduler's cooldown and with no free slot, a rescale to more slots than exist: IGNORED, the reason in
 * words. Where the cluster keeps no history (older Flink, the default scheduler), the outcome is observed, and says so.
 */
const cluster = readFlinkCluster();
let real: RealOperations;
let operations: Operations;
/** For a rescale the cluster cannot complete and that no history ends: the watch gives up after 30 s, not 5 min. */
let shortWatch: RealOperations;
let jobId: string;
let hasHistory: boolean;

beforeAll(async () => {
  real = openRealOperations(cluster, 'test-rescale-history');
  operations = real.operations;
  shortWatch = openRealOperations(cluster, 'test-rescale-history-short', { watchTimeoutMs: 30_000 });
  jobId = await runTestJob(cluster, 1);
  hasHistory = (await fetch(`${cluster.restUrl}/jobs/${jobId}/rescales/config`)).status === 200;
}, 240_000);

afterAll(async () => {
  if (jobId) await cancelQuietly(cluster, jobId);
  await real?.close();
  await shortWatch?.close();
});

describe(`rescale outcomes from Flink's rescale history on a real Flink ${cluster.version}`, () => {
  it('rescale in place to parallelism 2: the outcome and its source; with history COMPLETED, the UUID in the journal', async () => {
    expect(hasHistory).toBe(cluster.version.startsWith('2.3') && cluster.scheduler !== 'default');
    const start = await operations.start({ kind: 'rescale', clusterId: 'real', jobId, triggerId: newTriggerId(), parallelism: 2 });
    const outcome = await start.done;
    if (outcome.newJobId) jobId = outcome.newJobId; // through a savepoint on the default scheduler
    expect(outcome.state, outcome.failure ?? '').toBe('succeeded');
    const journaled = operations.journal.get(outcome.id);
    if (hasHistory) {
      expect(journaled).toMatchObject({ outcomeSource: 'rescale-history', rescaleRecord: { terminalState: 'COMPLETED', terminatedReason: 'SUCCEEDED', triggerCause: 'UPDATE_REQUIREMENT' } });
      const record = journaled!.rescaleRecord!;
      expect(record.rescaleUuid).toMatch(/^[0-9a-f]{32}$/);
      expect(record.vertices.map((v) => [v.before, v.after])).toEqual(record.vertices.map(() => [1, 2]));
      // The same UUID is Flink's.
      const details = (await (await fetch(`${cluster.restUrl}/jobs/${jobId}/rescales/details/${record.rescaleUuid}`)).json()) as { terminalState: string };
      expect(details.terminalState).toBe('COMPLETED');
    } else {
      // In place without a history the outcome is observed; through a savepoint (the default scheduler) no record applies.
      if (!outcome.newJobId) expect(journaled).toMatchObject({ outcomeSource: 'observed' });
      expect(journaled?.rescaleRecord ?? null).toBeNull();
    }
  }, 400_000);

  it('a rescale to more slots than exist: with history IGNORED with the reason in words; without, refused (through a savepoint) or short, and the outcome says so', async () => {
    await waitRunning(cluster, jobId, 2);
    const overview = (await (await fetch(`${cluster.restUrl}/overview`)).json()) as { 'slots-total': number; 'slots-available': number };
    const request = { kind: 'rescale', clusterId: 'real', jobId, triggerId: newTriggerId(), parallelism: overview['slots-total'] + 2 } as const;
    if (cluster.scheduler === 'default') {
      // Through a savepoint, a parallelism the cluster cannot run is refused before anything is sent.
      await expect(operations.start(request)).rejects.toThrow(/^Parallelism \d+ needs \d+ slots; the cluster has \d+ for this job/);
    } else if (hasHistory) {
      const outcome = await (await operations.start(request)).done;
      expect(outcome.state).toBe('failed');
      expect(outcome).toMatchObject({ outcomeSource: 'rescale-history', rescaleRecord: { terminalState: 'IGNORED', terminatedReason: 'NO_RESOURCES_OR_PARALLELISMS_CHANGE' } });
      expect(outcome.failure).toMatch(/^Flink ignored the rescale \([0-9a-f]{32}\): not enough slots to change the parallelism\. The job wants \d+ slots and holds 2\. The cluster has \d+ free slots? of \d+\./);
    } else {
      const outcome = await (await shortWatch.operations.start(request)).done;
      expect(outcome).toMatchObject({ state: 'failed', outcomeSource: 'observed' });
      expect(outcome.failure).toMatch(/the job runs at .*not the requested/);
    }
  }, 400_000);
});
