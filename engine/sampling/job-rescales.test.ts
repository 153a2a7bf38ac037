import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../contracts/operations.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { flinkBasics, json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { newEntry } from '../operations/journal.ts';
import { fetchJobRescales, whyNoHistory } from './job-rescales.ts';

/** The Rescales view assembled from bodies recorded from a real Flink 2.3.0 (adaptive scheduler, history size 20). */
const RECORDED = path.join(import.meta.dirname, '../../e2e/flink/recorded/2.3.0');
const body = (name: string): unknown => JSON.parse(readFileSync(path.join(RECORDED, name), 'utf8'));
const JOB = 'a'.repeat(32);
const COMPLETED = '7da912eee0d47692b2644b3c42b4283f';
const IGNORED = 'c42b33d5ba03ac0a3e09fc0e871a85e4';
const DETAILS: Record<string, string> = { [COMPLETED]: 'rescales-details-completed.json', [IGNORED]: 'rescales-details-ignored.json' };

let server: HostileServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** The recorded 2.3.0 bodies; only the two recorded rescales have details, the others answer 404 (dropped meanwhile). */
async function recordedCluster(requests: string[]): Promise<FlinkRestClient> {
  server = await startHostileServer((req, res) => {
    requests.push(req.url!);
    const rescales = `/jobs/${JOB}/rescales`;
    if (req.url === `${rescales}/history`) return json(res, 200, body('rescales-history.json'));
    if (req.url === `${rescales}/summary`) return json(res, 200, body('rescales-summary.json'));
    if (req.url === `${rescales}/config`) return json(res, 200, body('rescales-config.json'));
    const uuid = req.url!.startsWith(`${rescales}/details/`) ? req.url!.slice(`${rescales}/details/`.length) : null;
    if (uuid && DETAILS[uuid]) return json(res, 200, body(DETAILS[uuid]));
    if (flinkBasics(req, res)) return;
    json(res, 404, { errors: ['Not found'] });
  });
  return new FlinkRestClient({ baseUrl: server.url, timeoutMs: 5000 });
}

function rescaleEntry(id: string, rescaleUuid: string): JournalEntry {
  const of = { clusterId: 'c1', clusterName: 'c1', clusterUrl: 'http://jm', jobId: JOB, jobName: 'job', origin: 'app' as const, parentId: null };
  const record = { rescaleUuid, triggerCause: 'UPDATE_REQUIREMENT', terminalState: 'COMPLETED', terminatedReason: 'SUCCEEDED', words: 'completed', startedAt: 1, endedAt: 2, vertices: [], slots: [], exception: null };
  return { ...newEntry(id, 1, of), kind: 'rescale', params: {}, outcomeSource: 'rescale-history', rescaleRecord: record } as JournalEntry;
}

describe('a job\'s rescales from Flink 2.3.0\'s rescale history', () => {
  it('the history newest first, the newest in detail, the summary without "NaN", the configuration, and the console\'s own rescales linked', async () => {
    const requests: string[] = [];
    const client = await recordedCluster(requests);
    const view = await fetchJobRescales(client, 'c1', JOB, [rescaleEntry('ours', COMPLETED), rescaleEntry('gone', 'f'.repeat(32))]);
    if (!view.available) throw new Error(view.why);

    expect(view.rescales.map((r) => r.rescaleUuid)[0]).toBe(IGNORED);
    expect(view.rescales).toHaveLength(9);
    expect(view.requestCount).toBe(3 + 9);
    expect(requests.filter((r) => r.includes('/details/'))).toHaveLength(9);

    const ignored = view.rescales[0];
    expect(ignored).toMatchObject({ terminalState: 'IGNORED', words: 'not enough slots to change the parallelism', detailed: true, journalEntryId: null });
    expect(ignored.durationMs).toBe(1796174846199 - 1796174818070);
    expect(ignored.vertices.map((v) => [v.before, v.after, v.desired])).toEqual([[2, null, 3], [2, null, 3], [2, null, 3]]);

    const ours = view.rescales.find((r) => r.rescaleUuid === COMPLETED)!;
    expect(ours).toMatchObject({ terminalState: 'COMPLETED', detailed: true, journalEntryId: 'ours' });
    expect(ours.vertices.map((v) => [v.vertexName, v.before, v.after])).toContainEqual(['throttle', 1, 2]);
    expect(ours.slots).toEqual([{ slotSharingGroup: 'default', desired: 2, minimal: 1, before: 1, after: 2 }]);

    const undetailed = view.rescales.filter((r) => !r.detailed);
    expect(undetailed).toHaveLength(7);
    expect(undetailed.every((r) => r.vertices.length === 0 && r.journalEntryId === null)).toBe(true);
    expect(view.unmatchedJournalEntryIds).toEqual(['gone']);

    expect(view.summary.counts).toEqual({ completed: 6, ignored: 3, failed: 0, inProgress: 0 });
    expect(view.summary.durations.completed).toMatchObject({ min: 207, max: 60163, p50: 13043 });
    // No failed rescale: Flink's 0 ms and "NaN" are no figure at all.
    expect(Object.values(view.summary.durations.failed).every((v) => v === null)).toBe(true);
    expect(view.config).toMatchObject({ historySize: 20, cooldownMs: 30000, resourceStabilizationMs: 60000, maxTriggerDelayMs: 30000 });
  });

  it('asks for the details of a rescale that ended only once: a polling page costs three requests more', async () => {
    const requests: string[] = [];
    const client = await recordedCluster(requests);
    const ended = new Map();
    const first = await fetchJobRescales(client, 'c1', JOB, [], ended);
    const detailsAsked = requests.filter((r) => r.includes('/details/')).length;
    requests.length = 0;
    const second = await fetchJobRescales(client, 'c1', JOB, [], ended);
    expect(second.available && second.requestCount).toBe(3 + detailsAsked - ended.size);
    expect(requests.filter((r) => r.includes('/details/')).length).toBe(detailsAsked - ended.size);
    expect(ended.size).toBe(2);
    expect(second).toEqual({ ...first, fetchedAt: second.fetchedAt, requestCount: second.requestCount });
  });

  it('reads only the newest ten in detail', async () => {
    const requests: string[] = [];
    const long = [...(body('rescales-history.json') as Array<{ rescaleUuid: string }>)];
    while (long.length < 14) long.push({ ...long[long.length - 1], rescaleUuid: String(long.length).padStart(32, '0') });
    server = await startHostileServer((req, res) => {
      requests.push(req.url!);
      if (req.url!.endsWith('/history')) return json(res, 200, long);
      if (req.url!.endsWith('/summary')) return json(res, 200, body('rescales-summary.json'));
      if (req.url!.endsWith('/config')) return json(res, 200, body('rescales-config.json'));
      json(res, 404, { errors: ['Not found'] });
    });
    const view = await fetchJobRescales(new FlinkRestClient({ baseUrl: server.url, timeoutMs: 5000 }), 'c1', JOB, []);
    expect(view.available && view.rescales.length).toBe(14);
    expect(requests.filter((r) => r.includes('/details/'))).toHaveLength(10);
  });

  it('no history (404): why, and how to turn it on', async () => {
    server = await startHostileServer((req, res) => {
      if (req.url === `/jobs/${JOB}`) return json(res, 200, { ...(body('job-detail.json') as object), jid: JOB });
      if (flinkBasics(req, res)) return;
      json(res, 404, { errors: ['Rescale history is not available.'] });
    });
    const view = await fetchJobRescales(new FlinkRestClient({ baseUrl: server.url, timeoutMs: 5000 }), 'c1', JOB, []);
    expect(view).toMatchObject({ available: false, requestCount: 3 });
    if (view.available) return;
    // The server claims 2.2.1 (flinkBasics).
    expect(view.why).toMatch(/^Flink 2\.2\.1 keeps no rescale history: .*from Flink 2\.3 on\./);
    expect(view.why).toContain('`web.adaptive-scheduler.rescale-history.size` above 0');
  });

  it('says which of the reasons holds', () => {
    expect(whyNoHistory('1.20.5', null)).toMatch(/^Flink 1\.20\.5 keeps no rescale history/);
    expect(whyNoHistory('2.3.0', 'Default')).toMatch(/^This job runs the Default scheduler: only the adaptive scheduler records/);
    expect(whyNoHistory('2.3.0', 'Adaptive')).toMatch(/`web\.adaptive-scheduler\.rescale-history\.size` is 0/);
    expect(whyNoHistory(null, null)).toMatch(/`jobmanager\.scheduler: adaptive`/);
  });
});
