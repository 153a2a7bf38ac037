import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../../flink-rest/client.ts';
import { fetchTaskManagers } from '../../sampling/taskmanagers.ts';
import { fetchVertexSubtasks } from '../../sampling/vertex-subtasks.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';

/** The local engine's TaskManagers as the console reads them: the same endpoints as its subtasks, real figures. */
let handle: LocalEngineHandle;
let client: FlinkRestClient;
beforeAll(async () => {
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), scenario: 'hot-tenant', build: { version: '9.9.9', builtAt: '2026-11-30T10:00:00.000Z' } });
  handle.engine.advance(45_000);
  client = new FlinkRestClient({ baseUrl: handle.url });
}, 90_000);
afterAll(() => handle.close());

describe('the local engine\'s /taskmanagers', () => {
  it('names each TaskManager by the endpoint its subtasks show, each on its own ports', async () => {
    const taskManagers = await fetchTaskManagers(client);
    expect(new Set(taskManagers.map((tm) => tm.address)).size).toBe(taskManagers.length);
    expect(new Set(taskManagers.map((tm) => tm.endpoint)).size).toBe(taskManagers.length);
    const [job] = handle.engine.cluster.jobs.values();
    for (const vertex of job.vertices) {
      const table = await fetchVertexSubtasks(client, 'c', job.jobId, vertex.jobVertex.id);
      for (const row of table.subtasks) {
        const tm = taskManagers.find((t) => t.id === row.taskManagerId);
        expect(tm, `TaskManager ${row.taskManagerId} of subtask ${row.index}`).toBeDefined();
        expect(row.endpoint).toBe(tm!.endpoint);
      }
    }
  });

  it('reports heap, managed memory, CPU load and the network buffers its tasks hold, under Flink\'s metric names', async () => {
    const taskManagers = await fetchTaskManagers(client);
    for (const tm of taskManagers) {
      const m = tm.metrics!;
      expect(m.heapUsed).toBeGreaterThan(0);
      expect(m.heapMax).toBeGreaterThan(m.heapUsed!);
      expect(m.managedMemoryUsed).toBe(0); // the heap state backend, as on Flink
      expect(m.managedMemoryTotal).toBe(512 * 1024 * 1024 * tm.slotsTotal);
      expect(m.cpuLoad).toBeGreaterThanOrEqual(0);
      expect(m.cpuLoad).toBeLessThanOrEqual(1);
      expect(m.networkBuffersTotal).toBe(2048 * tm.slotsTotal);
      expect(m.networkBuffersUsed).toBeLessThanOrEqual(m.networkBuffersTotal!);
    }
    // Under the hot-tenant backpressure, buffers queue up somewhere.
    expect(taskManagers.reduce((sum, tm) => sum + tm.metrics!.networkBuffersUsed!, 0)).toBeGreaterThan(0);
  });

  it('reports the process\'s garbage collections (V8\'s) as a JVM\'s collectors, and the JobManager\'s counts', async () => {
    // Young objects by the million: V8 scavenges, and the observer hears of it before the next turn of the loop.
    let keep = 0;
    for (let i = 0; i < 2_000_000; i++) keep += [i, i + 1].length;
    expect(keep).toBe(4_000_000);
    await new Promise((resolve) => setImmediate(resolve));
    const tm = handle.engine.cluster.taskManagers[0];
    const names = ((await (await fetch(`${handle.url}/taskmanagers/${tm.id}/metrics`)).json()) as Array<{ id: string }>).map((m) => m.id);
    const collectors = names.filter((id) => /^Status\.JVM\.GarbageCollector\.V8_\w+\.Count$/.test(id));
    expect(collectors.length).toBeGreaterThan(0);
    const values = new Map(
      ((await (await fetch(`${handle.url}/taskmanagers/${tm.id}/metrics?get=Status.JVM.GarbageCollector.All.Count,${collectors.join(',')}`)).json()) as Array<{ id: string; value: string }>).map((m) => [m.id, Number(m.value)]),
    );
    const all = values.get('Status.JVM.GarbageCollector.All.Count')!;
    expect(all).toBeGreaterThan(0);
    // One answer is read at one instant: All is the collectors' sum.
    expect(collectors.reduce((sum, id) => sum + values.get(id)!, 0)).toBe(all);
    const details = (await (await fetch(`${handle.url}/taskmanagers/${tm.id}`)).json()) as { metrics: { garbageCollectors: Array<{ name: string; count: number }> } };
    expect(details.metrics.garbageCollectors.map((c) => c.name)).toEqual(collectors.map((id) => id.split('.')[3]));
    const jm = new Map(
      ((await (await fetch(`${handle.url}/jobmanager/metrics?get=numRegisteredTaskManagers,numRunningJobs,Status.JVM.Memory.Heap.Max,Status.JVM.GarbageCollector.All.Count`)).json()) as Array<{ id: string; value: string }>).map((m) => [m.id, Number(m.value)]),
    );
    expect(jm.get('numRegisteredTaskManagers')).toBe(handle.engine.cluster.taskManagers.length);
    expect(jm.get('numRunningJobs')).toBe(1);
    expect(jm.get('Status.JVM.Memory.Heap.Max')).toBeGreaterThan(0);
    expect(jm.get('Status.JVM.GarbageCollector.All.Count')).toBeGreaterThanOrEqual(all);
  });

  it('GET /config: the build that runs, not the epoch', async () => {
    const config = (await (await fetch(`${handle.url}/config`)).json()) as { 'flink-revision': string };
    expect(config['flink-revision']).toBe('flink-ops-local-engine 9.9.9 @ 2026-11-30T10:00:00.000Z');
  });
});
