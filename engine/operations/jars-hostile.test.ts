import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPlanGraph } from '../cli/jar-commands.ts';
import { printableLines } from '../cli/terminal-text.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { HistoryStore } from '../history/history-store.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import type { OperationClock } from './driver-context.ts';
import { deleteJar, listJars, uploadJar } from './jar-files.ts';
import { newTriggerId, Operations } from './operations.ts';

/**
 * The jar and disposal endpoints against clusters that misbehave (fault injection only; the happy paths run on the
 * local engine and a real Flink): lost answers, forgotten triggers, answers that are not Flink's. A disposal is a
 * success only on Flink's COMPLETED without a failure, or when a resent request finds the savepoint already gone.
 */

const dirs = tempDirs('flink-ops-jars-hostile-');
let server: HostileServer | undefined;
let store: HistoryStore | undefined;
afterEach(async () => {
  await server?.close();
  await store?.close();
  server = store = undefined;
  dirs.removeAll();
});

const SP = 'file:/savepoints/savepoint-abcdef-0123456789ab';
const NOT_FOUND = `java.io.FileNotFoundException: Cannot find checkpoint or savepoint file/directory '${SP}' on file system 'file'.`;

function virtualClock(): OperationClock {
  const clock = { t: 1_000_000, now: () => clock.t, sleep: async (ms: number) => void (clock.t += ms) };
  return clock;
}

async function flink(handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void): Promise<HostileServer> {
  server = await startHostileServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks)));
  });
  return server;
}

function operationsOn(url: string): Operations {
  store = HistoryStore.open(dirs.make());
  const cluster = { id: 'prod', name: 'prod', url, client: new FlinkRestClient({ baseUrl: url, timeoutMs: 2_000 }), metricsFetchIntervalMs: async () => 10_000 };
  return new Operations({ history: store, origin: 'app', cluster: () => cluster, clusterOfEntry: () => cluster, clock: virtualClock(), settings: { unreachableGiveUpMs: 30_000 } });
}

function dispose(ops: Operations) {
  return ops.start({ kind: 'dispose-savepoint', clusterId: 'prod', triggerId: newTriggerId(), savepointPath: SP });
}

describe('savepoint disposal on a misbehaving cluster', () => {
  it('a trigger whose answer is lost (500 after doing it) is sent again; the savepoint then gone is the first one\'s success', async () => {
    let triggers = 0;
    const s = await flink((req, res) => {
      if (req.method === 'POST' && req.url === '/savepoint-disposal') {
        triggers++;
        return triggers === 1 ? json(res, 500, { errors: ['Internal server error.'] }) : json(res, 200, { 'request-id': 'b'.repeat(32) });
      }
      if (req.url === `/savepoint-disposal/${'b'.repeat(32)}`) return json(res, 200, { status: { id: 'COMPLETED' }, operation: { 'failure-cause': { class: 'java.io.FileNotFoundException', 'stack-trace': NOT_FOUND } } });
      json(res, 404, { errors: ['Not found'] });
    });
    const done = await (await dispose(operationsOn(s.url))).done;
    expect(triggers).toBe(2);
    expect(done).toMatchObject({ state: 'succeeded', resultPath: SP, requests: { trigger: 2 }, progress: expect.stringMatching(/earlier disposal request/) });
  });

  it('the first request finding nothing is a failure, not a success', async () => {
    const s = await flink((req, res) => {
      if (req.method === 'POST') return json(res, 200, { 'request-id': 'c'.repeat(32) });
      json(res, 200, { status: { id: 'COMPLETED' }, operation: { 'failure-cause': { class: 'java.io.FileNotFoundException', 'stack-trace': NOT_FOUND } } });
    });
    const done = await (await dispose(operationsOn(s.url))).done;
    expect(done).toMatchObject({ state: 'failed', failure: expect.stringMatching(/^Nothing disposed: Flink finds no savepoint at/) });
  });

  it('a trigger the JobManager forgets (404 on its status) is sent again, once', async () => {
    let triggers = 0;
    const s = await flink((req, res) => {
      if (req.method === 'POST') return json(res, 200, { 'request-id': (++triggers === 1 ? 'd' : 'e').repeat(32) });
      if (req.url === `/savepoint-disposal/${'d'.repeat(32)}`) return json(res, 404, { errors: ['Operation not found under key'] });
      json(res, 200, { status: { id: 'COMPLETED' }, operation: {} });
    });
    const done = await (await dispose(operationsOn(s.url))).done;
    expect(triggers).toBe(2);
    expect(done).toMatchObject({ state: 'succeeded', params: { disposalTriggerId: 'e'.repeat(32) } });
  });

  it('a status that is not Flink\'s, or a cluster gone silent: outcome unknown, never a success', async () => {
    const s = await flink((req, res) => {
      if (req.method === 'POST') return json(res, 200, { 'request-id': 'f'.repeat(32) });
      json(res, 200, { status: { id: 'DONE' } });
    });
    const done = await (await dispose(operationsOn(s.url))).done;
    expect(done.state).toBe('unknown');
    expect(done.failure).toMatch(/may or may not be deleted; the console still lists it/);
    const silent = await flink((_req, res) => json(res, 503, { errors: ['Service Unavailable'] }));
    expect((await (await dispose(operationsOn(silent.url))).done).state).toBe('unknown');
  });

  it('a refused trigger (400) fails at once with Flink\'s words', async () => {
    const s = await flink((_req, res) => json(res, 400, { errors: ['Request did not match expected format SavepointDisposalRequest.'] }));
    const done = await (await dispose(operationsOn(s.url))).done;
    expect(done).toMatchObject({ state: 'failed', requests: { trigger: 1 }, failure: expect.stringMatching(/refused to dispose/) });
  });
});

describe('jar endpoints on a misbehaving cluster', () => {
  it('an upload answer without a file name is refused naming the field; nothing is listed as uploaded', async () => {
    const s = await flink((req, res, body) => {
      if (req.url === '/jars/upload') {
        // What was sent is Flink's multipart shape: one part, field `jarfile`, the file's name.
        expect(String(req.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
        expect(body.toString('latin1')).toMatch(/name="jarfile"; filename="job\.jar"/);
        return json(res, 200, { status: 'success' });
      }
      json(res, 200, { files: [] });
    });
    const error = await uploadJar(new FlinkRestClient({ baseUrl: s.url }), 'job.jar', Buffer.from('PK')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).info.message).toMatch(/filename/);
  });

  it('a jar list of another shape is refused naming the field; a 404 says the cluster has no jar endpoints', async () => {
    const s = await flink((req, res) => (req.url === '/config' ? json(res, 200, { features: { 'web-submit': true } }) : json(res, 200, { files: [{ id: 7 }] })));
    await expect(listJars(new FlinkRestClient({ baseUrl: s.url }))).rejects.toThrow(/files\.0\.id/);
    const none = await flink((_req, res) => json(res, 404, { errors: ['Not found'] }));
    expect((await listJars(new FlinkRestClient({ baseUrl: none.url }))).unavailable).toMatch(/no jar endpoints/);
  });

  it('a path as a jar id is refused before anything is sent', async () => {
    let requests = 0;
    const s = await flink((_req, res) => (requests++, json(res, 200, {})));
    await expect(deleteJar(new FlinkRestClient({ baseUrl: s.url }), '../../etc/passwd')).rejects.toThrow(/is not a jar id/);
    expect(requests).toBe(0);
  });

  it('escape sequences in a plan\'s vertex descriptions are printed harmless', () => {
    const text = printableLines(
      formatPlanGraph({
        planned: [],
        stopped: null,
        changes: [],
        jobParallelism: null,
        graph: { nodes: [{ id: 'a', description: 'Source: \u001b]8;;http://evil\u0007click\u001b[2J', parallelism: 2, inputs: [] }] },
      }),
    );
    expect(text.includes('\u001b') || text.includes('\u0007')).toBe(false);
    expect(text).toContain('parallelism 2');
  });
});
