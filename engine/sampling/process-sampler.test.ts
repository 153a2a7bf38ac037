import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { json, startHostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { HistoryStore } from '../history/history-store.ts';
import { processMetricsHistory } from '../history/views/process-history.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { ManualClock } from '../local/time/clock.ts';
import { ProcessSampler } from './process-sampler.ts';

/**
 * The processes' memory and GC over time, sampled from the local engine as from any cluster: the figures its REST
 * serves at that moment, one round per interval whatever the number of job samples, and a TaskManager that leaves
 * between the list and its metrics skipped.
 */
const T0 = 1_767_225_600_000;
const MB = 1024 * 1024;
const dirs = tempDirs('flink-ops-process-sampler-');
let handle: LocalEngineHandle;
let client: FlinkRestClient;
let store: HistoryStore;
beforeAll(async () => {
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(T0), scenario: 'hot-tenant' });
  handle.engine.advance(45_000);
  client = new FlinkRestClient({ baseUrl: handle.url });
  store = HistoryStore.open(dirs.make(), { now: () => T0 });
}, 90_000);
afterAll(async () => {
  await store.close();
  await handle.close();
  dirs.removeAll();
});

type Metrics = Array<{ id: string; value: string }>;
const get = async (path: string): Promise<Map<string, number>> =>
  new Map(((await (await fetch(`${handle.url}${path}`)).json()) as Metrics).map((m) => [m.id, Number(m.value)]));
const GC = 'Status.JVM.GarbageCollector.All.Count,Status.JVM.GarbageCollector.All.Time';

describe('the process sampler on the local engine', () => {
  it('stores the JobManager\'s and every TaskManager\'s figures as the engine serves them at that moment', async () => {
    const sampler = new ProcessSampler({ history: store, now: () => T0 });
    const tms = handle.engine.cluster.taskManagers;
    const before = await get(`/taskmanagers/${tms[0].id}/metrics?get=${GC}`);
    const samples = await sampler.sampleNow('local', client);
    const after = await get(`/taskmanagers/${tms[0].id}/metrics?get=${GC}`);
    expect(samples.map((s) => s.processId)).toEqual(['jobmanager', ...tms.map((tm) => tm.id).sort()]);
    for (const tm of tms) {
      const s = samples.find((x) => x.processId === tm.id)!;
      expect(s).toMatchObject({ t: T0, heapMax: 384 * MB * tm.slots.length + 128 * MB, managedUsed: 0, managedTotal: 512 * MB * tm.slots.length, networkSegmentsTotal: 2048 * tm.slots.length });
      expect(s.heapUsed).toBeGreaterThan(0);
      expect(s.networkSegmentsUsed).toBeLessThanOrEqual(s.networkSegmentsTotal!);
    }
    // The process's collections (V8's), which only grow: between the engine's answers just before and just after.
    const first = samples.find((s) => s.processId === tms[0].id)!;
    expect(first.gcCount).toBeGreaterThanOrEqual(before.get('Status.JVM.GarbageCollector.All.Count')!);
    expect(first.gcCount).toBeLessThanOrEqual(after.get('Status.JVM.GarbageCollector.All.Count')!);
    expect(first.gcTimeMs).toBeGreaterThanOrEqual(before.get('Status.JVM.GarbageCollector.All.Time')!);
    expect(first.gcTimeMs).toBeLessThanOrEqual(after.get('Status.JVM.GarbageCollector.All.Time')!);
    const jm = samples.find((s) => s.processId === 'jobmanager')!;
    expect(jm.heapMax).toBeGreaterThan(jm.heapUsed!);
    expect([jm.managedTotal, jm.networkSegmentsTotal]).toEqual([null, null]);
    expect(store.processes.list('local', tms[0].id)).toEqual([first]);
  });

  it('takes one round per interval however many job samples come, and the history draws it with rates between rounds', async () => {
    let now = T0 + 60_000;
    const sampler = new ProcessSampler({ history: store, intervalMs: 30_000, now: () => now });
    const before = client.stats.requests;
    for (let i = 0; i < 5; i++) sampler.onJobSample('engine', client);
    await sampler.stop();
    const processes = 1 + handle.engine.cluster.taskManagers.length;
    // The list, then each process's names (once) and values.
    expect(client.stats.requests - before).toBe(1 + 2 * processes);
    now += 10_000;
    sampler.onJobSample('engine', client);
    await sampler.stop();
    expect(client.stats.requests - before).toBe(1 + 2 * processes);
    now += 25_000;
    handle.engine.advance(35_000);
    sampler.onJobSample('engine', client);
    await sampler.stop();
    expect(client.stats.requests - before, 'the second round asks the values only').toBe(2 + 3 * processes);
    const tm = handle.engine.cluster.taskManagers[0].id;
    const view = processMetricsHistory(store, 'engine', tm, T0, now, true);
    expect(view.samples).toBe(2);
    expect(view.points.map((p) => p.t)).toEqual([T0 + 60_000, T0 + 95_000]);
    expect(view.latest?.gcTimeMsPerSecond).not.toBeNull();
    expect(view.latest?.gcTimeMsPerSecond).toBeGreaterThanOrEqual(0);
  });
});

describe('the process sampler against a cluster whose TaskManager leaves', () => {
  it('skips the TaskManager that answers 404 or not in time and keeps the others', async () => {
    const server = await startHostileServer((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const tms = ['tm-gone', 'tm-here', 'tm-stalled'].map((id) => ({ id, slotsNumber: 1, freeSlots: 1 }));
      if (url.pathname === '/taskmanagers') return json(res, 200, { taskmanagers: tms });
      if (url.pathname.startsWith('/taskmanagers/tm-gone/')) return json(res, 404, { errors: ['Could not find TaskExecutor tm-gone.'] });
      if (url.pathname.startsWith('/taskmanagers/tm-stalled/')) return; // never answers
      if (url.pathname === '/taskmanagers/tm-here/metrics' || url.pathname === '/jobmanager/metrics') {
        const ids = ['Status.JVM.Memory.Heap.Used', 'Status.JVM.GarbageCollector.G1_Young_Generation.Count', 'Status.JVM.GarbageCollector.G1_Young_Generation.Time', 'Status.JVM.GarbageCollector.G1_Old_Generation.Count', 'Status.JVM.GarbageCollector.G1_Old_Generation.Time'];
        const get = url.searchParams.get('get');
        return json(res, 200, get === null ? ids.map((id) => ({ id })) : get.split(',').map((id) => ({ id, value: id.endsWith('Count') ? '3' : id.endsWith('Time') ? '40' : '1000' })));
      }
      json(res, 404, { errors: ['Not found'] });
    });
    try {
      const sampler = new ProcessSampler({ history: store, now: () => T0 });
      const samples = await sampler.sampleNow('hostile', new FlinkRestClient({ baseUrl: server.url, timeoutMs: 500 }));
      expect(samples.map((s) => s.processId)).toEqual(['jobmanager', 'tm-here']);
      // Without Flink's `All` (before 1.20), the collectors' sum.
      expect(samples[1]).toMatchObject({ heapUsed: 1000, gcCount: 6, gcTimeMs: 80, heapMax: null });
    } finally {
      await server.close();
    }
  });
});
