import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, createClient, type ClusterConnection } from '../clusters/cluster-connections.ts';
import { HistoryStore } from '../history/history-store.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { ManualClock } from '../local/time/clock.ts';
import { fetchJobGraph, type FetchedJobGraph } from './job-graph.ts';
import { JobWatcher, WARM_UP_MS, nextSampleDelay } from './job-watcher.ts';

const dirs = tempDirs('flink-ops-watcher-');
const T0 = Date.UTC(2026, 10, 30, 3, 0, 0);
let handle: LocalEngineHandle;
let jobId: string;
let store: HistoryStore;

const connectionTo = (url: string): ClusterConnection =>
  connect(createClient({ name: 'local', url, auth: { kind: 'none' }, timeoutMs: 5_000 }, undefined));

beforeAll(async () => {
  // The seed scenario on a manual clock: deterministic figures, and time moves only when the test says.
  handle = await startLocalEngine({
    port: 0,
    time: 'manual',
    clock: new ManualClock(T0),
    scenario: 'hot-tenant',
    restartStrategy: 'fixed-delay',
    restartAttempts: 5,
    restartDelayMs: 1_000,
  });
  jobId = [...handle.engine.cluster.jobs.keys()][0];
  handle.engine.advance(60_000); // past the shift at 30 s: acme's subtask saturates
}, 60_000);

afterAll(async () => {
  await handle?.close();
  dirs.removeAll();
});

afterEach(async () => {
  await store?.close();
});

describe('sampling a job into the history', () => {
  it('takes 2V + 2 requests whatever the parallelism, and its rates show the saturated tenant-cost subtask', async () => {
    store = HistoryStore.open(dirs.make(), { now: () => handle.engine.now() });
    const watcher = new JobWatcher({ history: store, connection: () => connectionTo(handle.url), now: () => handle.engine.now() });
    await watcher.sampleNow('local', jobId);
    handle.engine.advance(10_000);
    const sample = (await watcher.sampleNow('local', jobId))!;

    expect(sample.requests).toBeLessThanOrEqual(2 * sample.vertices.length + 2);
    const tenantCost = sample.vertices.find((v) => v.name.includes('tenant-cost'))!;
    expect(tenantCost.parallelism).toBe(32);
    const busy = Array.from(tenantCost.subtasks!.rates.busyTimeMsPerSecond);
    const hottest = busy.indexOf(Math.max(...busy));
    expect(hottest).toBe(12); // acme's key group is owned by subtask 12 at parallelism 32 (see hot-tenant.yaml)
    expect(busy[12]).toBeGreaterThan(900);
    const others = busy.filter((_, i) => i !== 12).sort((a, b) => a - b);
    expect(others[others.length >> 1]).toBeLessThan(100);
    expect(Math.max(...Array.from(tenantCost.subtasks!.rates.recordsInPerSecond))).toBeGreaterThan(200);

    const stored = store.samples.window('local', jobId, -Infinity, Infinity);
    expect(stored.map((s) => s.t)).toEqual([T0 + 60_000, T0 + 70_000]);
    expect(stored[1].vertices.find((v) => v.id === tenantCost.id)!.subtasks!.rates.busyTimeMsPerSecond[12]).toBeCloseTo(busy[12], 3);
  });

  it('takes a watch\'s second sample soon after the first (the JobManager has fetched fresh metrics by then), then keeps the interval', async () => {
    store = HistoryStore.open(dirs.make());
    const watcher = new JobWatcher({ history: store, connection: () => connectionTo(handle.url) });
    const started = Date.now();
    await watcher.watch('local', jobId, { intervalMs: 120_000 });
    try {
      const deadline = started + 4 * WARM_UP_MS + 5_000;
      while (store.samples.window('local', jobId, -Infinity, Infinity).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const stored = store.samples.window('local', jobId, -Infinity, Infinity);
      expect(stored).toHaveLength(2);
      expect(stored[1].t - stored[0].t).toBeGreaterThanOrEqual(WARM_UP_MS);
      expect(stored[1].t - stored[0].t).toBeLessThan(120_000);
    } finally {
      await watcher.unwatch('local', jobId, 'test over');
    }
  });

  it('records an unreachable cluster as a gap and a failover as a restart, never as zeros', async () => {
    store = HistoryStore.open(dirs.make(), { now: () => handle.engine.now() });
    let connection = connectionTo(handle.url);
    const watcher = new JobWatcher({ history: store, connection: () => connection, now: () => handle.engine.now() });
    await watcher.sampleNow('local', jobId);

    connection = connectionTo('http://127.0.0.1:1'); // nothing listens there
    handle.engine.advance(10_000);
    await watcher.sampleNow('local', jobId);
    handle.engine.advance(10_000);
    await watcher.sampleNow('local', jobId);

    connection = connectionTo(handle.url);
    const tm = handle.engine.cluster.taskManagers[0].id;
    const kill = await fetch(`${handle.url}/local-engine/v1/taskmanagers/${tm}/kill`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(kill.status).toBe(200);
    handle.engine.advance(10_000);
    await watcher.sampleNow('local', jobId); // restarting: the job waits for the killed TaskManager's slots
    handle.engine.advance(15_000);
    await watcher.sampleNow('local', jobId); // running again, every subtask on a new attempt

    const kinds = store.events.list('local', jobId).map((e) => e.kind);
    expect(kinds).toEqual(['gap-started', 'gap-ended', 'job-state', 'job-state', 'job-restarted']);
    expect(store.events.list('local', jobId)[0].message).toMatch(/^No sample: Connection refused/);
    // Nothing stored for the 20 s without an answer: a gap, not zeros.
    const times = store.samples.heads('local', jobId, -Infinity, Infinity).map((h) => h.t);
    expect(times.map((t) => t - times[0])).toEqual([0, 30_000, 45_000]);
    const latest = store.samples.latest('local', jobId)!;
    expect(latest.jobState).toBe('RUNNING');
    expect(Math.min(...latest.vertices.flatMap((v) => Array.from(v.subtasks!.attempt)))).toBe(1);
  });

  it('reads narrow vertices from their figures per subtask, learns where their subtasks run from their details, and again after a failover', async () => {
    store = HistoryStore.open(dirs.make(), { now: () => handle.engine.now() });
    const connection = connectionTo(handle.url);
    // Which vertex's details are asked: each request as the client sends it.
    const asked: string[] = [];
    const request = connection.client.request.bind(connection.client);
    connection.client.request = ((spec, params, ...rest) => {
      asked.push(`${spec.path} ${params?.vertexid ?? ''}`);
      return request(spec, params, ...rest);
    }) as typeof connection.client.request;
    const watcher = new JobWatcher({ history: store, connection: () => connection, now: () => handle.engine.now() });
    const narrow = (await watcher.sampleNow('local', jobId, { planned: true }))!.vertices.filter((v) => v.parallelism === 4).map((v) => v.id);
    expect(narrow.length).toBe(2);
    const detailsOf = (ids: string[]) => asked.filter((e) => ids.some((id) => e === `/jobs/:jobid/vertices/:vertexid ${id}`)).length;
    // The first reading of every vertex is its details (where its subtasks run); then its figures, with the graph.
    expect(detailsOf(narrow)).toBe(2);
    for (let i = 0; i < 6; i++) {
      handle.engine.advance(10_000);
      await watcher.sampleNow('local', jobId, { planned: true });
    }
    expect(detailsOf(narrow)).toBe(2);
    const read = store.samples.window('local', jobId, -Infinity, Infinity).at(-1)!.vertices.filter((v) => narrow.includes(v.id) && v.subtasks);
    expect(read.length).toBeGreaterThan(0);
    for (const v of read) {
      expect(Array.from(v.subtasks!.taskManager).every((i) => i >= 0)).toBe(true);
      expect(Array.from(v.subtasks!.rates.busyTimeMsPerSecond).every(Number.isFinite)).toBe(true);
    }

    const tm = handle.engine.cluster.taskManagers[1].id;
    expect((await fetch(`${handle.url}/local-engine/v1/taskmanagers/${tm}/kill`, { method: 'POST', headers: { 'content-type': 'application/json' } })).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      handle.engine.advance(10_000);
      await watcher.sampleNow('local', jobId, { planned: true });
    }
    // Redeployed: their details again, and the attempts they tell.
    expect(detailsOf(narrow)).toBe(4);
    const after = store.samples.window('local', jobId, -Infinity, Infinity).filter((sample) => sample.jobState === 'RUNNING').at(-1)!;
    for (const v of after.vertices.filter((vertex) => narrow.includes(vertex.id) && vertex.subtasks)) expect(Math.min(...Array.from(v.subtasks!.attempt))).toBe(1);
  });

  it('asks the next page refresh for a vertex that moved after the refresh had chosen what to read per subtask', async () => {
    store = HistoryStore.open(dirs.make(), { now: () => handle.engine.now() });
    const connection = connectionTo(handle.url);
    const page: { latest?: FetchedJobGraph & { seenAt: number; periodMs: number } } = {};
    const watcher = new JobWatcher({ history: store, connection: () => connection, now: () => handle.engine.now(), pageGraphs: { recent: () => page.latest } });
    for (let i = 0; i < 3; i++) {
      await watcher.sampleNow('local', jobId, { planned: true });
      handle.engine.advance(10_000);
    }
    const narrow = store.samples.window('local', jobId, -Infinity, Infinity).at(-1)!.vertices.find((v) => v.parallelism === 4)!.id;
    // A page's refresh that read nothing per subtask, in which the narrow vertex's busy max jumped (the refresh chose
    // what to read before the jump): the sample cannot take its figures from this graph and leaves it to the next.
    const graph = await fetchJobGraph(connection.client, 'local', jobId);
    const jumped = {
      ...graph,
      vertices: graph.vertices.map((v) => (v.id === narrow && v.busyTimeMsPerSecond ? { ...v, busyTimeMsPerSecond: { ...v.busyTimeMsPerSecond, max: v.busyTimeMsPerSecond.max + 600 } } : v)),
    };
    page.latest = { ...jumped, seenAt: handle.engine.now(), periodMs: 10_000 };
    await watcher.sampleNow('local', jobId, { planned: true });
    expect(watcher.figuresWanted('local', jobId)).toContain(narrow);
  });

  it('ends the watch of a job the cluster no longer knows, and keeps the events', async () => {
    store = HistoryStore.open(dirs.make());
    const watcher = new JobWatcher({ history: store, connection: () => connectionTo(handle.url) });
    const gone = 'f'.repeat(32);
    await store.watches.put({ clusterId: 'local', jobId: gone, jobName: 'old', pinned: true, intervalMs: null, createdAt: 0, lastOpenedAt: 0 });
    await watcher.sampleNow('local', gone);
    expect(store.watches.list()).toEqual([]);
    expect(store.events.list('local', gone).map((e) => e.kind)).toEqual(['job-gone', 'watch-stopped']);
  });
});

describe('watching in the background', () => {
  it('samples at the cluster\'s metrics fetch interval, and resumes a persisted watch after a restart of the app', async () => {
    const fast = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(T0), flinkConfiguration: { 'metrics.fetcher.update-interval': '300 ms' } });
    const fastJob = [...fast.engine.cluster.jobs.keys()][0];
    const dir = dirs.make();
    try {
      store = HistoryStore.open(dir);
      const first = new JobWatcher({ history: store, connection: () => connectionTo(fast.url) });
      await first.watch('local', fastJob, { pinned: true, jobName: 'gatewaymeter' });
      await until(() => store.samples.heads('local', fastJob, -Infinity, Infinity).length >= 3);
      await first.stop();
      const afterStop = store.samples.heads('local', fastJob, -Infinity, Infinity).map((h) => h.t);
      const gaps = afterStop.slice(1).map((t, i) => t - afterStop[i]);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(300 - 5); // never faster than the fetch interval

      const restarted = new JobWatcher({ history: store, connection: () => connectionTo(fast.url) });
      restarted.start();
      await until(() => store.samples.heads('local', fastJob, -Infinity, Infinity).length >= afterStop.length + 2);
      await restarted.stop();
      expect(store.watches.list()).toEqual([expect.objectContaining({ jobId: fastJob, pinned: true })]);
    } finally {
      await fast.close();
    }
  });
});

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('Condition not met in time.');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the rest after a sample', () => {
  it('starts the next sample one interval after the last one started, or rests twice as long as a slow sample took', () => {
    expect(nextSampleDelay(10_000, 300)).toBe(9_700);
    expect(nextSampleDelay(10_000, 12_000)).toBe(24_000);
    expect(nextSampleDelay(10_000, 4_000)).toBe(8_000);
    // A sample of 30 s (200 vertices × 4,096 subtasks, ~500 MB) keeps the engine busy a third of the time at most.
    const sample = 30_000;
    expect(sample / (sample + nextSampleDelay(10_000, sample))).toBeLessThanOrEqual(1 / 3);
  });
});
