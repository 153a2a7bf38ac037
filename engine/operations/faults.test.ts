import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { HistoryStore } from '../history/history-store.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import type { OperationClock, OperationSettings } from './driver-context.ts';
import { newTriggerId, Operations } from './operations.ts';
import { startOperationsKit, type OperationsKit } from './testing/operations-kit.ts';

/**
 * Faults a real cluster cannot be made to produce on demand, injected by a scripted Flink (fault injection only; the
 * happy paths run against the local engine and the real Flink): the cluster gone mid-operation, a trigger whose
 * answer never comes, the JobManager forgetting a trigger, a savepoint that expires. Each ends in one clear outcome.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REAL = JSON.parse(readFileSync(path.join(HERE, '../local/checkpoint/testdata/real-2.2.1/async-operations.json'), 'utf8')) as Record<string, { status: number; body: unknown }>;
const JOB = 'f'.repeat(32);
const dirs = tempDirs('flink-ops-faults-');

let server: HostileServer | undefined;
let store: HistoryStore | undefined;
let kit: OperationsKit | undefined;
afterEach(async () => {
  await server?.close();
  await store?.close();
  await kit?.close();
  server = store = kit = undefined;
  dirs.removeAll();
});

/** A virtual clock: sleeping only moves time, so minutes of waiting take no time. */
function virtualClock(): OperationClock & { t: number } {
  const clock = { t: 1_000_000, now: () => clock.t, sleep: async (ms: number) => void (clock.t += ms) };
  return clock;
}

interface Script {
  /** POST /jobs/:id/savepoints */
  trigger?: (req: IncomingMessage, res: ServerResponse, body: { triggerId: string }) => void;
  /** GET /jobs/:id/savepoints/:triggerid */
  status?: (res: ServerResponse, triggerId: string) => void;
  /** GET /jobs/:id/checkpoints: the history (none by default) */
  checkpointHistory?: () => unknown[];
}

/** Just enough Flink for the operations to read the job and its cluster, plus the scripted savepoint endpoints. */
async function scriptedFlink(script: Script): Promise<HostileServer> {
  return startHostileServer((req, res) => {
    const url = req.url ?? '';
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      if (url === '/config') return json(res, 200, { 'flink-version': '2.2.1', features: { 'web-submit': false } });
      if (url === '/overview') return json(res, 200, { taskmanagers: 1, 'slots-total': 4, 'slots-available': 2, 'jobs-running': 1, 'jobs-finished': 0, 'jobs-cancelled': 0, 'jobs-failed': 0 });
      if (url === '/jobmanager/config' || url === `/jobs/${JOB}/jobmanager/config`) return json(res, 200, [{ key: 'execution.checkpointing.savepoint-dir', value: 's3://bucket/savepoints' }]);
      if (url === `/jobs/${JOB}`) {
        return json(res, 200, { jid: JOB, name: 'orders', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 1, vertices: [{ id: 'v'.repeat(32), name: 'Source', parallelism: 2, status: 'RUNNING' }] });
      }
      if (url === `/jobs/${JOB}/status`) return json(res, 200, { status: 'RUNNING' });
      if (url === `/jobs/${JOB}/checkpoints`) {
        const history = script.checkpointHistory?.() ?? [];
        return json(res, 200, { counts: { restored: 0, total: history.length, in_progress: 0, completed: history.length, failed: 0 }, history });
      }
      if (url === `/jobs/${JOB}/savepoints` && req.method === 'POST' && script.trigger) return script.trigger(req, res, JSON.parse(raw) as { triggerId: string });
      const status = /^\/jobs\/[0-9a-f]{32}\/savepoints\/([0-9a-f]{32})$/.exec(url);
      if (status && script.status) return script.status(res, status[1]);
      json(res, 404, { errors: [`Not found: ${url}`] });
    });
  });
}

function operationsOn(url: string, clock: OperationClock, settings: Partial<OperationSettings> = {}, timeoutMs = 2_000): Operations {
  store = HistoryStore.open(dirs.make());
  const cluster = { id: 'prod', name: 'prod', url, client: new FlinkRestClient({ baseUrl: url, timeoutMs }), metricsFetchIntervalMs: async () => 10_000 };
  return new Operations({ history: store, origin: 'app', cluster: () => cluster, clusterOfEntry: () => cluster, clock, settings });
}

describe('faults during a savepoint', () => {
  it('the cluster becomes unreachable after accepting it: outcome unknown after the give-up time, with what to check', async () => {
    let triggered = 0;
    server = await scriptedFlink({
      trigger: (_req, res, body) => {
        triggered++;
        json(res, 202, { 'request-id': body.triggerId });
        // Then the JobManager goes away.
        setImmediate(() => void server!.close());
      },
    });
    const clock = virtualClock();
    const operations = operationsOn(server.url, clock, { unreachableGiveUpMs: 120_000 });
    const triggerId = newTriggerId();
    const outcome = await (await operations.start({ kind: 'savepoint', clusterId: 'prod', jobId: JOB, triggerId })).done;
    expect(triggered).toBe(1);
    expect(outcome.state).toBe('unknown');
    expect(outcome.failure).toMatch(new RegExp(`^Outcome unknown: the cluster at ${server.url} stopped answering about trigger ${triggerId} \\(Connection refused by .*\\) for 2 min\\. The savepoint may still complete: check the job's checkpoint history\\.$`));
    expect(outcome.requests.poll).toBeGreaterThan(5);
  }, 60_000);

  it('the savepoint expires on the cluster: failed, with the timeout in words', async () => {
    server = await scriptedFlink({
      trigger: (_req, res, body) => json(res, 202, { 'request-id': body.triggerId }),
      status: (res) =>
        json(res, 200, {
          status: { id: 'COMPLETED' },
          operation: {
            'failure-cause': {
              class: 'java.util.concurrent.CompletionException',
              'stack-trace':
                'java.util.concurrent.CompletionException: org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before completing.\n\tat java.base/java.util.concurrent.CompletableFuture.encodeThrowable(CompletableFuture.java:332)\nCaused by: org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before completing.\n\t... 3 more',
            },
          },
        }),
    });
    const outcome = await (await operationsOn(server.url, virtualClock()).start({ kind: 'savepoint', clusterId: 'prod', jobId: JOB, triggerId: newTriggerId() })).done;
    expect(outcome).toMatchObject({ state: 'failed', failureDetail: 'Checkpoint expired before completing.' });
    expect(outcome.failure).toMatch(/^The savepoint timed out before every task acknowledged it \(execution.checkpointing.timeout\)/);
  }, 60_000);

  it('the trigger\'s answer never comes although the JobManager registered it: asked with the same id, never sent twice', async () => {
    const registered = new Map<string, number>();
    let posts = 0;
    server = await scriptedFlink({
      trigger: (_req, _res, body) => {
        posts++;
        registered.set(body.triggerId, 0); // ...and never answers
      },
      status: (res, id) => {
        const polls = registered.get(id);
        if (polls === undefined) return json(res, 404, REAL.unknownSavepointTrigger.body);
        registered.set(id, polls + 1);
        json(res, 200, polls < 2 ? REAL.savepointInProgress.body : REAL.savepointCompleted.body);
      },
    });
    const outcome = await (await operationsOn(server.url, virtualClock(), {}, 500).start({ kind: 'savepoint', clusterId: 'prod', jobId: JOB, triggerId: newTriggerId() })).done;
    expect(posts).toBe(1);
    expect(outcome).toMatchObject({ state: 'succeeded', resultPath: 'file:/work/main/.cache/flink/2.2.1/savepoints/savepoint-ee3324-a4be710cc718' });
  }, 60_000);

  it('the trigger is answered with a server error and the JobManager never registered it: not started, nothing done', async () => {
    let posts = 0;
    server = await scriptedFlink({
      trigger: (_req, res) => {
        posts++;
        json(res, 503, { errors: ['Service temporarily unavailable due to an ongoing leader election. Please refresh.'] });
      },
      status: (res) => json(res, 404, REAL.unknownSavepointTrigger.body),
    });
    const clock = virtualClock();
    const outcome = await (await operationsOn(server.url, clock).start({ kind: 'savepoint', clusterId: 'prod', jobId: JOB, triggerId: newTriggerId() })).done;
    expect(posts).toBe(1);
    expect(outcome.state).toBe('not-started');
    expect(outcome.failure).toMatch(/^Not started: the request never reached the cluster/);
  }, 60_000);

  it('the JobManager forgets an accepted trigger (a restart): outcome unknown, never a success', async () => {
    let polls = 0;
    server = await scriptedFlink({
      trigger: (_req, res, body) => json(res, 202, { 'request-id': body.triggerId }),
      status: (res) => (++polls < 3 ? json(res, 200, REAL.savepointInProgress.body) : json(res, 404, REAL.unknownSavepointTrigger.body)),
    });
    const triggerId = newTriggerId();
    const outcome = await (await operationsOn(server.url, virtualClock()).start({ kind: 'savepoint', clusterId: 'prod', jobId: JOB, triggerId })).done;
    expect(outcome.state).toBe('unknown');
    expect(outcome.failure).toMatch(new RegExp(`^Outcome unknown: the JobManager no longer knows trigger ${triggerId}`));
    expect(outcome.resultPath).toBeNull();
  }, 60_000);

  it("a trigger the JobManager forgot is not matched with the savepoint another operation just took", async () => {
    const first = newTriggerId();
    const theirs = REAL.savepointCompleted.body as { operation: { location: string } };
    const clock = virtualClock();
    server = await scriptedFlink({
      trigger: (_req, res, body) => json(res, 202, { 'request-id': body.triggerId }),
      status: (res, triggerId) => (triggerId === first ? json(res, 200, theirs) : json(res, 404, REAL.unknownSavepointTrigger.body)),
      // The first operation's savepoint, completed a moment ago: within the 2 s of clock skew tolerated.
      checkpointHistory: () => [
        { id: 7, status: 'COMPLETED', is_savepoint: true, savepointFormat: 'CANONICAL', trigger_timestamp: clock.t - 1_000, latest_ack_timestamp: clock.t - 500, external_path: theirs.operation.location },
      ],
    });
    const operations = operationsOn(server.url, clock);
    const done = await (await operations.start({ kind: 'savepoint', clusterId: 'prod', jobId: JOB, triggerId: first })).done;
    expect(done).toMatchObject({ state: 'succeeded', resultPath: theirs.operation.location });
    const second = await (await operations.start({ kind: 'savepoint', clusterId: 'prod', jobId: JOB, triggerId: newTriggerId() })).done;
    expect(second.state).toBe('unknown');
    expect(second.failure).toMatch(/^Outcome unknown: the JobManager no longer knows trigger/);
    expect(second.failure).not.toContain(theirs.operation.location);
  }, 60_000);

  it('the job is not on the cluster: the failure Flink reports is put in words', async () => {
    server = await scriptedFlink({
      trigger: (_req, res, body) => json(res, 202, { 'request-id': body.triggerId }),
      status: (res) => json(res, 200, REAL.savepointFailed.body),
    });
    const outcome = await (await operationsOn(server.url, virtualClock()).start({ kind: 'savepoint', clusterId: 'prod', jobId: JOB, triggerId: newTriggerId() })).done;
    expect(outcome.state).toBe('failed');
    expect(outcome.failure).toBe('The job is not running on the cluster (it ended, or the cluster never had it): there is nothing to take a savepoint of.');
    expect(outcome.failureDetail).toBe('Could not find Flink job (9cc7ea0f3256fd828b84880e3b954ba2)');
  }, 60_000);

  it('a rescale through a savepoint where the cluster takes no jar submissions says what to do instead', async () => {
    server = await scriptedFlink({});
    const operations = operationsOn(server.url, virtualClock());
    await expect(operations.start({ kind: 'rescale', clusterId: 'prod', jobId: JOB, triggerId: newTriggerId(), parallelism: 2 })).rejects.toThrow(
      /A rescale through a savepoint resubmits the job from a jar\. This cluster does not accept jar submissions over REST .*on Kubernetes, set the FlinkDeployment's job\.initialSavepointPath/,
    );
  }, 60_000);
});

describe('a parallelism above the slots available', () => {
  it('adaptive: the plan warns; the job runs at what the cluster has, and the outcome says so', async () => {
    kit = await startOperationsKit({}, { watchTimeoutMs: 60_000 });
    kit.handle.engine.advance(15_000);
    const plan = await kit.operations.planRescale('local', kit.jobId, { parallelism: 40 });
    expect(plan.warnings).toContain(
      'Parallelism 40 needs 40 slots; the cluster has 32 for this job (28 free + the 4 it holds). The adaptive scheduler runs the job at what it can get and scales up when slots free up.',
    );
    const outcome = await (await kit.operations.start({ kind: 'rescale', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), parallelism: 40 })).done;
    expect(outcome.state).toBe('failed');
    expect(outcome.failure).toMatch(/^After 1 min the job runs at 32\/32\/32 \(RUNNING\), not the requested parallelism 40\. The cluster has 0 free slots of 32\. The requirements stay set/);
  }, 60_000);

  it('through a savepoint: refused before anything stops', async () => {
    kit = await startOperationsKit();
    kit.handle.engine.advance(15_000);
    await expect(kit.operations.start({ kind: 'rescale', clusterId: 'local', jobId: kit.jobId, triggerId: newTriggerId(), parallelism: 40, route: 'savepoint' })).rejects.toThrow(
      'Parallelism 40 needs 40 slots; the cluster has 32 for this job (28 free + the 4 it holds). The resubmitted job could not run: add TaskManagers first.',
    );
    expect(kit.handle.engine.cluster.jobs.get(kit.jobId)!.status).toBe('RUNNING');
  }, 60_000);
});
