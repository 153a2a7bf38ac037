import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import * as schemas from '../../flink-rest/rescale-schemas.ts';
import { outcomeFromRescaleRecord, toRescaleRecord } from '../../operations/rescale-record.ts';
import { LocalEngineError } from '../engine.ts';
import { startLocalEngine, type LocalEngineHandle, type StartLocalEngineOptions } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';

/**
 * The local engine's rescale history (Flink 2.3, `web.adaptive-scheduler.rescale-history.size` > 0): its bodies have
 * the field names, in order, of a real 2.3.0's (e2e/flink/recorded/2.3.0/rescales-*.json), a rescale through
 * `PUT /jobs/:id/resource-requirements` ends COMPLETED with each vertex before/after, one the slots cannot serve
 * IGNORED, and without the history every path answers 404 as Flink.
 */
const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../e2e/flink/recorded/2.3.0');
const recorded = (file: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(RECORDED, file), 'utf8')) as Record<string, unknown>;
const fields = (body: unknown): string[] => Object.keys(body as object);
const first = (record: unknown): unknown => Object.values(record as object)[0];
const HISTORY_ON = { 'web.adaptive-scheduler.rescale-history.size': '20' };
const PATHS = ['overview', 'history', 'summary', 'config', 'details/0123456789abcdef0123456789abcdef'];

let handle: LocalEngineHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function start(options: Partial<StartLocalEngineOptions> = {}) {
  // 4 TaskManagers × 2 slots, the job at parallelism 4, no checkpoints: a rescale restarts at once.
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), flinkVersion: '2.3.0', rate: 200, ...options });
  handle.engine.advance(5_000);
  const url = handle.url;
  const jobId = [...handle.engine.cluster.jobs.keys()][0];
  const get = async (p: string): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`${url}/jobs/${jobId}/rescales/${p}`);
    return { status: response.status, body: await response.json() };
  };
  const rescaleTo = async (upperBound: number): Promise<void> => {
    const current = (await (await fetch(`${url}/jobs/${jobId}/resource-requirements`)).json()) as Record<string, unknown>;
    const body = Object.fromEntries(Object.keys(current).map((id) => [id, { parallelism: { lowerBound: 1, upperBound } }]));
    const response = await fetch(`${url}/jobs/${jobId}/resource-requirements`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    handle!.engine.advance(1_000);
  };
  return { get, rescaleTo, jobId };
}

describe('with the rescale history on', () => {
  it('serves the bodies of a real 2.3.0: field names and order of history, details, overview, summary and config', async () => {
    const { get, rescaleTo } = await start({ flinkConfiguration: HISTORY_ON });
    await rescaleTo(6);
    const history = (await get('history')).body as Array<{ rescaleUuid: string }>;
    expect(fields(history[0])).toEqual(fields((recorded('rescales-history.json') as unknown as unknown[])[0]));
    const details = (await get(`details/${history[0].rescaleUuid}`)).body as Record<string, unknown>;
    const real = recorded('rescales-details-completed.json');
    expect(fields(details)).toEqual(fields(real));
    expect(fields(first(details.vertices))).toEqual(fields(first(real.vertices)));
    expect(fields(first(details.slots))).toEqual(fields(first(real.slots)));
    expect(fields((details.schedulerStates as unknown[])[0])).toEqual(fields((real.schedulerStates as unknown[])[0]));
    const overview = (await get('overview')).body as { latest: Record<string, unknown> };
    const realOverview = recorded('rescales-overview.json') as { latest: Record<string, unknown> };
    expect(fields(overview)).toEqual(fields(realOverview));
    expect(fields(overview.latest)).toEqual(fields(realOverview.latest));
    expect(fields(overview.latest.completed)).toEqual(fields(realOverview.latest.completed));
    const summary = (await get('summary')).body as Record<string, unknown>;
    const realSummary = recorded('rescales-summary.json');
    expect(fields(summary)).toEqual(fields(realSummary));
    for (const key of fields(realSummary).slice(1)) expect(fields(summary[key]), key).toEqual(fields(realSummary[key]));
    // No rescale failed: its percentiles are "NaN", as Flink's Jackson writes them.
    expect(summary.failedRescalesDurationStatsInMillis).toEqual({ min: 0, max: 0, avg: 0, p50: 'NaN', p90: 'NaN', p95: 'NaN', p99: 'NaN', p999: 'NaN' });
    const config = (await get('config')).body;
    expect(fields(config)).toEqual(fields(recorded('rescales-config.json')));
    expect(config).toMatchObject({ rescaleHistoryMax: 20, executingCooldownTimeoutInMillis: 0 });
    // And the console's schemas read every one of them.
    expect(schemas.JobRescalesHistory.safeParse(history).success).toBe(true);
    expect(schemas.JobRescaleDetails.safeParse(details).success).toBe(true);
    expect(schemas.JobRescalesOverview.safeParse(overview).success).toBe(true);
    expect(schemas.JobRescalesSummary.safeParse(summary).success).toBe(true);
    expect(schemas.JobRescaleConfig.safeParse(config).success).toBe(true);
  });

  it('a rescale through PUT resource-requirements ends COMPLETED with each vertex before and after; the list leaves them out', async () => {
    const { get, rescaleTo } = await start({ flinkConfiguration: HISTORY_ON });
    await rescaleTo(6);
    const history = (await get('history')).body as Array<Record<string, unknown>>;
    // Newest first: the rescale, then the first deployment (as a real 2.3.0 records it).
    expect(history.map((r) => [r.triggerCause, r.terminalState, r.terminatedReason])).toEqual([
      ['UPDATE_REQUIREMENT', 'COMPLETED', 'SUCCEEDED'],
      ['INITIAL_SCHEDULE', 'COMPLETED', 'SUCCEEDED'],
    ]);
    expect(history[0]).toMatchObject({ vertices: {}, slots: {}, schedulerStates: [] });
    const details = schemas.JobRescaleDetails.parse((await get(`details/${history[0].rescaleUuid as string}`)).body);
    const record = toRescaleRecord(details);
    expect(record.terminalState).toBe('COMPLETED');
    expect(record.vertices.length).toBeGreaterThan(1);
    expect(record.vertices.every((v) => v.before === 4 && v.after === 6 && v.desired === 6)).toBe(true);
    expect(record.slots).toEqual([{ slotSharingGroup: 'default', desired: 6, minimal: 1, before: 4, after: 6 }]);
    expect(details.schedulerStates!.map((s) => s.state)).toEqual(['Executing', 'Restarting', 'CreatingExecutionGraph', 'Executing']);
    expect(details.endTimestampInMillis).toBeGreaterThanOrEqual(details.startTimestampInMillis!);
    expect(outcomeFromRescaleRecord(details, Object.fromEntries(record.vertices.map((v) => [v.vertexId, 6])), null).state).toBe('succeeded');
    expect((await get('overview')).body).toMatchObject({ rescalesCounts: { completed: 2, ignored: 0, inProgress: 0, failed: 0 } });
  });

  it('more than the slots there are: IGNORED for NO_RESOURCES_OR_PARALLELISMS_CHANGE, the vertices wanted and held', async () => {
    const { get, rescaleTo } = await start({ flinkConfiguration: HISTORY_ON });
    await rescaleTo(8); // every slot of the 4 × 2
    await rescaleTo(12);
    const [latest] = (await get('history')).body as Array<{ rescaleUuid: string }>;
    const details = schemas.JobRescaleDetails.parse((await get(`details/${latest.rescaleUuid}`)).body);
    expect(details).toMatchObject({ terminalState: 'IGNORED', terminatedReason: 'NO_RESOURCES_OR_PARALLELISMS_CHANGE', triggerCause: 'UPDATE_REQUIREMENT', schedulerStates: [] });
    const record = toRescaleRecord(details);
    expect(record.vertices.every((v) => v.desired === 12 && v.before === 8 && v.after === null)).toBe(true);
    const outcome = outcomeFromRescaleRecord(details, Object.fromEntries(record.vertices.map((v) => [v.vertexId, 12])), { available: 0, total: 8 });
    expect(outcome.state).toBe('failed');
    expect(outcome.words).toMatch(/not enough slots to change the parallelism\. The job wants 12 slots and holds 8\. The cluster has 0 free slots of 8/);
  });

  it('a rescale waiting for its checkpoint when the job is canceled: IGNORED, JOB_CANCELED', async () => {
    const checkpointDir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-rescales-'));
    onTestFinished(() => rmSync(checkpointDir, { recursive: true, force: true }));
    const { get, rescaleTo, jobId } = await start({ flinkConfiguration: HISTORY_ON, checkpointDir, checkpointIntervalMs: 60_000 });
    await rescaleTo(6); // waits for the next checkpoint, up to 3 minutes
    expect((await get('overview')).body).toMatchObject({ rescalesCounts: { inProgress: 1 } });
    handle!.engine.cluster.jobs.get(jobId)!.cancel();
    const [latest] = (await get('history')).body as Array<Record<string, unknown>>;
    expect(latest).toMatchObject({ triggerCause: 'UPDATE_REQUIREMENT', terminalState: 'IGNORED', terminatedReason: 'JOB_CANCELED' });
  });

  it('refuses a size that is not a whole number', async () => {
    await expect(start({ flinkConfiguration: { 'web.adaptive-scheduler.rescale-history.size': 'many' } })).rejects.toThrow(LocalEngineError);
  });
});

describe('without the rescale history, every rescales path answers 404 as Flink', () => {
  it.each([
    ['2.3.0 with the default size (0)', {}],
    ['2.3.0 with size 0', { flinkConfiguration: { 'web.adaptive-scheduler.rescale-history.size': '0' } }],
    ['an engine claiming 2.2.1, whatever the size', { flinkVersion: '2.2.1' as const, flinkConfiguration: HISTORY_ON }],
  ])('%s', async (_, options) => {
    const { get } = await start(options);
    for (const p of PATHS) {
      const { status, body } = await get(p);
      expect(status, p).toBe(404);
      expect(body, p).toEqual({ errors: [expect.any(String)] });
    }
  });
});
