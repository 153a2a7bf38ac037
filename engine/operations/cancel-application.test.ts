import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { applicationEndpoints } from '../flink-rest/application-endpoints.ts';
import { FlinkRestClient, type RequestOptions } from '../flink-rest/client.ts';
import type { EndpointSpec } from '../flink-rest/endpoints.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { HistoryStore } from '../history/history-store.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import type { OperationClock } from './driver-context.ts';
import { newTriggerId, Operations, type OperationsCluster } from './operations.ts';

/**
 * Cancel of a Flink 2.3 application against a scripted JobManager that answers with the bodies recorded from 2.3.0
 * (e2e/flink/recorded/2.3.0): Flink's 202, 404, 408 and 409 (which a real cluster gives only in races), a console
 * that dies mid-request and is resumed, and a cluster before 2.3. The real cancel runs in e2e/flink.
 */

const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/flink/recorded/2.3.0');
const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(RECORDED, file), 'utf8')) as Record<string, unknown>;
const DETAIL = read('applications-detail.json');
const APP = DETAIL.id as string;
const UNKNOWN_500 = read('applications-detail-unknown-500.json');
const dirs = tempDirs('flink-ops-cancel-app-');

let server: HostileServer | undefined;
let store: HistoryStore | undefined;
afterEach(async () => {
  await server?.close();
  await store?.close();
  server = store = undefined;
  dirs.removeAll();
});

function virtualClock(): OperationClock {
  let t = 1_000_000;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

interface Flink {
  /** The application's state as GET /applications/:id answers it, read at each request. */
  state: string;
  cancels: number;
  /** The answer to POST /applications/:id/cancel (after it is counted). */
  cancel: (res: ServerResponse, flink: Flink) => void;
  version?: '2.3.0' | '2.2.1';
}

async function scripted(flink: Flink): Promise<HostileServer> {
  return startHostileServer((req, res) => {
    const url = req.url ?? '';
    req.resume();
    req.on('end', () => {
      if (flink.version === '2.2.1' && url.startsWith('/applications')) return json(res, 404, { errors: [`Not found: ${url}`] });
      if (url === '/applications/overview') return json(res, 200, { applications: [{ ...DETAIL, status: flink.state, jobs: { RUNNING: 1 } }] });
      if (url === `/applications/${APP}`) return json(res, 200, { ...DETAIL, status: flink.state });
      if (url === `/applications/${APP}/cancel` && req.method === 'POST') {
        flink.cancels++;
        return flink.cancel(res, flink);
      }
      if (url.startsWith('/applications/')) return json(res, 500, UNKNOWN_500);
      json(res, 404, { errors: [`Not found: ${url}`] });
    });
  });
}

function cluster(url: string, client = new FlinkRestClient({ baseUrl: url, timeoutMs: 2_000 })): OperationsCluster {
  return { id: 'prod', name: 'prod', url, client, metricsFetchIntervalMs: async () => 10_000 };
}

function operationsOn(c: OperationsCluster, clock = virtualClock()): Operations {
  store ??= HistoryStore.open(dirs.make());
  return new Operations({ history: store, origin: 'app', cluster: () => c, clusterOfEntry: () => c, clock });
}

/** Flink takes the cancel: the application is CANCELING, then CANCELED a poll later. */
const accepted = (res: ServerResponse, flink: Flink) => {
  flink.state = 'CANCELING';
  res.statusCode = 202;
  res.end();
  setTimeout(() => (flink.state = 'CANCELED'), 0);
};

const startCancel = (operations: Operations) => operations.start({ kind: 'cancel-application', clusterId: 'prod', applicationId: APP, triggerId: newTriggerId() });

describe('cancel of an application', () => {
  it('202: journaled with the jobs it ends, then CANCELED; the same trigger id again sends nothing', async () => {
    const flink: Flink = { state: 'RUNNING', cancels: 0, cancel: accepted };
    server = await scripted(flink);
    const operations = operationsOn(cluster(server.url));
    const triggerId = newTriggerId();
    const { entry, done } = await operations.start({ kind: 'cancel-application', clusterId: 'prod', applicationId: APP, triggerId });
    expect(entry).toMatchObject({ kind: 'cancel-application', jobName: DETAIL.name, jobId: APP, params: { applicationId: APP, applicationJobs: [{ id: APP, name: 'gatewaymeter-test', state: 'RUNNING' }] } });
    expect(await done).toMatchObject({ state: 'succeeded', requests: { trigger: 1 } });
    await (await operations.start({ kind: 'cancel-application', clusterId: 'prod', applicationId: APP, triggerId })).done;
    expect(flink.cancels).toBe(1);
  });

  it('409: the application ended on its own meanwhile, in words; nothing was cancelled', async () => {
    const message = 'Application cancellation failed because the application has already reached another terminal state (FINISHED).';
    server = await scripted({ state: 'RUNNING', cancels: 0, cancel: (res) => json(res, 409, { errors: [`org.apache.flink.runtime.rest.handler.RestHandlerException: ${message}\n\tat x.y(Z.java:1)`] }) });
    const outcome = await (await startCancel(operationsOn(cluster(server.url)))).done;
    expect(outcome).toMatchObject({ state: 'not-started', failure: 'Not started: the application had already ended FINISHED on its own (409). Nothing was cancelled.' });
  });

  it('404: Flink does not know the application (ended and archived), in words', async () => {
    const body = read('applications-cancel-unknown-404.json');
    server = await scripted({ state: 'RUNNING', cancels: 0, cancel: (res) => json(res, 404, body) });
    const outcome = await (await startCancel(operationsOn(cluster(server.url)))).done;
    expect(outcome.state).toBe('not-started');
    expect(outcome.failure).toBe(`Not started: Flink does not know application ${APP} (404): it has ended and been archived, or never ran here. Nothing was cancelled.`);
    expect(outcome.failureDetail).toMatch(/Application could not be found\./);
  });

  it('408: Flink timed out cancelling; the console watches the application to CANCELED', async () => {
    server = await scripted({
      state: 'RUNNING',
      cancels: 0,
      cancel: (res, flink) => {
        flink.state = 'CANCELING';
        json(res, 408, { errors: ['org.apache.flink.runtime.rest.handler.RestHandlerException: Application cancellation timed out.'] });
        setTimeout(() => (flink.state = 'CANCELED'), 0);
      },
    });
    expect(await (await startCancel(operationsOn(cluster(server.url)))).done).toMatchObject({ state: 'succeeded', requests: { trigger: 1 } });
  });

  it('an application that has ended is refused before anything is sent', async () => {
    const flink: Flink = { state: 'FAILED', cancels: 0, cancel: accepted };
    server = await scripted(flink);
    const { entry } = await startCancel(operationsOn(cluster(server.url)));
    expect(entry).toMatchObject({ state: 'failed', failure: 'Not sent: the application is FAILED, so there is nothing to cancel.' });
    expect(flink.cancels).toBe(0);
  });

  it('a cluster before Flink 2.3: no applications, said so, nothing journaled', async () => {
    server = await scripted({ state: 'RUNNING', cancels: 0, cancel: accepted, version: '2.2.1' });
    const operations = operationsOn(cluster(server.url));
    await expect(startCancel(operations)).rejects.toMatchObject({ info: { kind: 'invalid-input', message: expect.stringMatching(/^This cluster has no applications \(Flink < 2\.3\)/) } });
    expect(operations.journal.list({})).toEqual([]);
  });

  it('an open cancel of the application refuses a second one (another trigger id): one cancel is sent', async () => {
    const flink: Flink = { state: 'RUNNING', cancels: 0, cancel: (res, f) => ((f.state = 'CANCELING'), res.writeHead(202).end()) };
    server = await scripted(flink);
    const operations = operationsOn(cluster(server.url));
    const { done } = await startCancel(operations);
    await expect(startCancel(operations)).rejects.toMatchObject({ info: { message: expect.stringMatching(/^A cancel of the application of this job is in flight/) } });
    flink.state = 'CANCELED';
    expect((await done).state).toBe('succeeded');
    expect(flink.cancels).toBe(1);
  });

  it('the console dies after Flink took the cancel: the next one resolves it from the application\'s state and never sends it again', async () => {
    const flink: Flink = { state: 'RUNNING', cancels: 0, cancel: accepted };
    server = await scripted(flink);
    class Killed extends Error {}
    class DyingClient extends FlinkRestClient {
      override async request<R>(spec: EndpointSpec<R>, params?: Record<string, string>, query?: Record<string, string>, options?: RequestOptions): Promise<R> {
        const answer = await super.request(spec, params, query, options);
        if (spec === (applicationEndpoints.cancelApplication as unknown)) throw new Killed('killed before the answer was recorded');
        return answer;
      }
    }
    const clock = virtualClock();
    const { done } = await startCancel(operationsOn(cluster(server.url, new DyingClient({ baseUrl: server.url })), clock));
    await expect(done).rejects.toBeInstanceOf(Killed);
    const [resumed] = await operationsOn(cluster(server.url), clock).resumeOrphans();
    // The dead process never recorded its request (trigger 0); the cluster saw exactly one.
    expect(resumed).toMatchObject({ state: 'succeeded', phase: 'watch', requests: { trigger: 0 } });
    expect(flink.cancels).toBe(1);
  });
});
