import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { ManualClock } from '../local/time/clock.ts';
import { fetchVertexSubtasks } from '../sampling/vertex-subtasks.ts';
import { fetchConfiguration } from './fetch-configuration.ts';
import { fetchProcessFigures } from './fetch-process-figures.ts';
import { fetchVertexInspection } from './fetch-vertex-inspection.ts';

/** The inspect views on the local engine: it serves each in Flink's shape from its own runtime, as the console reads a cluster. */
const T0 = 1_767_225_600_000;
let handle: LocalEngineHandle;
let client: FlinkRestClient;
beforeAll(async () => {
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(T0), scenario: 'hot-tenant' });
  handle.engine.advance(45_000);
  client = new FlinkRestClient({ baseUrl: handle.url });
}, 90_000);
afterAll(() => handle.close());

const theJob = () => [...handle.engine.cluster.jobs.values()][0];

describe('the local engine\'s inspect views', () => {
  it('names the subtask its runtime holds at the lowest watermark, with the lag to its clock', async () => {
    const job = theJob();
    const vertex = job.vertices.find((v) => v.tasks.some((t) => t.io.currentInputWatermark > 0))!;
    expect(vertex, 'a vertex with event time').toBeDefined();
    const view = await fetchVertexInspection(client, 'local', job.jobId, vertex.jobVertex.id);
    const lowest = Math.min(...vertex.tasks.map((t) => t.io.currentInputWatermark));
    expect(view.watermarks.low?.watermark).toBe(lowest);
    expect(vertex.tasks[view.watermarks.low!.index].io.currentInputWatermark).toBe(lowest);
    expect(view.watermarks.low?.lagMs).toBe(view.now - lowest);
    expect(view.now).toBe(T0 + 45_000);
  });

  it('serves its record counters as accumulators that add up to the vertex\'s records, labelled as its own', async () => {
    const job = theJob();
    const vertex = job.vertices[1];
    const [view, table] = await Promise.all([
      fetchVertexInspection(client, 'local', job.jobId, vertex.jobVertex.id),
      fetchVertexSubtasks(client, 'local', job.jobId, vertex.jobVertex.id),
    ]);
    const recordsIn = table.subtasks.reduce((sum, s) => sum + s.recordsIn!, 0);
    expect(view.accumulators.vertex).toContainEqual({ name: 'local-engine.numRecordsIn', type: 'LongCounter', value: String(recordsIn) });
    expect(view.accumulators.subtasks.map((s) => s.accumulators.find((a) => a.name === 'local-engine.numRecordsIn')?.value)).toEqual(table.subtasks.map((s) => String(s.recordsIn)));
    expect(view.taskManagers.reduce((sum, tm) => sum + Object.values(tm.statusCounts).reduce((a, b) => a + b, 0), 0)).toBe(vertex.tasks.length);
  });

  it('shows each subtask\'s way to RUNNING on the timeline', async () => {
    const job = theJob();
    const view = await fetchVertexInspection(client, 'local', job.jobId, job.vertices[0].jobVertex.id);
    for (const row of view.timeline.subtasks) {
      expect(row.phases.at(-1)).toMatchObject({ state: 'RUNNING', end: null });
      expect(row.phases.map((p) => p.start)).toEqual([...row.phases.map((p) => p.start)].sort((a, b) => a - b));
    }
    expect(view.timeline.lastRunning).not.toBeNull();
  });

  it('serves its configuration, its checkpoint configuration and its environment (Node.js, said so)', async () => {
    const view = await fetchConfiguration(client, 'local', theJob().jobId);
    expect(view.jobManager.length).toBeGreaterThan(0);
    expect(view.job?.parallelism).toBeGreaterThan(0);
    // The hot-tenant job checkpoints nothing: 404, as Flink answers, so no checkpoint configuration.
    expect(theJob().options.checkpointing).toBeUndefined();
    expect(view.checkpoints).toBeNull();
    expect(view.environment?.jvmVersion).toMatch(/^Node\.js /);
  });

  it('serves a TaskManager\'s memory and the JobManager\'s heap', async () => {
    const tm = handle.engine.cluster.taskManagers[0];
    const figures = await fetchProcessFigures(client, 'local', tm.id, 'note');
    expect(figures.heap.used).toBeGreaterThan(0);
    expect(figures.network.segmentsTotal).toBe(2048 * tm.slots.length);
    expect(figures.managed.max).toBe(512 * 1024 * 1024 * tm.slots.length);
    const jobManager = await fetchProcessFigures(client, 'local', 'jobmanager', null);
    expect(jobManager.heap.used).toBeGreaterThan(0);
    expect(jobManager.requestCount).toBe(2);
  });
});
