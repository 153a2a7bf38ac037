import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rescaleEndpoints } from './rescale-endpoints.ts';

/** The rescale history endpoints' schemas against bodies recorded from a real Flink 2.3.0 (adaptive scheduler). */
const RECORDED = path.join(import.meta.dirname, '../../e2e/flink/recorded/2.3.0');
const body = (name: string): unknown => JSON.parse(readFileSync(path.join(RECORDED, name), 'utf8'));

describe('rescale history schemas against Flink 2.3.0', () => {
  it('details of a COMPLETED rescale: each vertex before/after, the slots, the scheduler states', () => {
    const details = rescaleEndpoints.details.response.parse(body('rescales-details-completed.json'));
    expect(details).toMatchObject({ terminalState: 'COMPLETED', terminatedReason: 'SUCCEEDED', triggerCause: 'UPDATE_REQUIREMENT' });
    expect(Object.values(details.vertices!).map((v) => [v.preRescaleParallelism, v.postRescaleParallelism])).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(Object.values(details.slots!)[0]).toMatchObject({ desiredSlots: 2, preRescaleSlots: 1, postRescaleSlots: 2 });
    expect(details.schedulerStates!.map((s) => s.state)).toContain('Restarting');
  });

  it('details of an IGNORED rescale: no slots for it, the post-rescale parallelism null', () => {
    const details = rescaleEndpoints.details.response.parse(body('rescales-details-ignored.json'));
    expect(details).toMatchObject({ terminalState: 'IGNORED', terminatedReason: 'NO_RESOURCES_OR_PARALLELISMS_CHANGE' });
    expect(Object.values(details.vertices!).every((v) => v.postRescaleParallelism === null)).toBe(true);
  });

  it('history, overview, summary ("NaN" percentiles read as null) and config', () => {
    const history = rescaleEndpoints.history.response.parse(body('rescales-history.json'));
    expect(history.length).toBeGreaterThan(1);
    expect(history.every((r) => /^[0-9a-f]{32}$/.test(r.rescaleUuid))).toBe(true);
    const overview = rescaleEndpoints.overview.response.parse(body('rescales-overview.json'));
    expect(overview.rescalesCounts.completed).toBeGreaterThan(0);
    expect(overview.latest?.ignored?.terminalState).toBe('IGNORED');
    const summary = rescaleEndpoints.summary.response.parse(body('rescales-summary.json'));
    expect(summary.failedRescalesDurationStatsInMillis).toMatchObject({ p50: null, p99: null });
    expect(summary.completedRescalesDurationStatsInMillis?.p50).toEqual(expect.any(Number));
    const config = rescaleEndpoints.config.response.parse(body('rescales-config.json'));
    expect(config).toMatchObject({ rescaleHistoryMax: 20, executingCooldownTimeoutInMillis: 30000, executingResourceStabilizationTimeoutInMillis: 60000 });
  });
});
