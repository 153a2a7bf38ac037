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

  it('GET /config: the build that runs, not the epoch', async () => {
    const config = (await (await fetch(`${handle.url}/config`)).json()) as { 'flink-revision': string };
    expect(config['flink-revision']).toBe('flink-ops-local-engine 9.9.9 @ 2026-11-30T10:00:00.000Z');
  });
});
