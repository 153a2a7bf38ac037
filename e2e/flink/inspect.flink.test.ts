import { describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../../engine/flink-rest/client.ts';
import { fetchConfiguration } from '../../engine/inspect/fetch-configuration.ts';
import { fetchProcessFigures } from '../../engine/inspect/fetch-process-figures.ts';
import { fetchVertexInspection } from '../../engine/inspect/fetch-vertex-inspection.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';
import { eventually } from './eventually.ts';

/**
 * The inspect views against Flink's own REST at the same moment, on the running test job: Flink's answers read just
 * before and just after the console's bracket what the console shows (watermarks only rise, GC counts only grow).
 */
const cluster = readFlinkCluster();
const client = new FlinkRestClient({ baseUrl: cluster.restUrl, timeoutMs: 10_000 });
const get = <T>(url: string): Promise<T> => getFromFlink<T>(cluster, url);

type Watermarks = Array<{ id: string; value: string }>;
const lowest = (w: Watermarks) => w.map((m) => ({ index: Number(m.id.split('.')[0]), value: Number(m.value) })).filter((m) => m.value > -9e18).sort((a, b) => a.value - b.value || a.index - b.index)[0];

async function vertexOf(name: string): Promise<string> {
  const job = await get<{ vertices: Array<{ id: string; name: string }> }>(`/jobs/${cluster.jobId}`);
  return job.vertices.find((v) => v.name === name)!.id;
}

describe(`inspect views on Flink ${cluster.version}`, () => {
  it('names the subtask Flink holds at the lowest watermark, with its lag to the JobManager\'s clock', async () => {
    const vertexId = await vertexOf('throttle');
    const base = `/jobs/${cluster.jobId}/vertices/${vertexId}`;
    // Flink's metric store may answer without watermarks right after a fetch (seen on 1.20): wait until it has them.
    const before = await eventually(async () => {
      const w = await get<Watermarks>(`${base}/watermarks`);
      return lowest(w) ? w : undefined;
    }, 'the throttle\'s watermarks in Flink\'s answer', 60_000);
    const timesBefore = await get<{ now: number }>(`${base}/subtasktimes`);
    const view = await fetchVertexInspection(client, 'flink', cluster.jobId, vertexId);
    const after = await get<Watermarks>(`${base}/watermarks`);
    const timesAfter = await get<{ now: number }>(`${base}/subtasktimes`);
    expect(view.requestCount).toBe(5);
    const [low0, low1] = [lowest(before), lowest(after)];
    expect(low0, 'the throttle has event time by now').toBeDefined();
    expect(view.watermarks.low).not.toBeNull();
    expect(view.watermarks.low!.watermark!).toBeGreaterThanOrEqual(low0.value);
    expect(view.watermarks.low!.watermark!).toBeLessThanOrEqual(low1.value);
    // The hot tenant saturates one throttle subtask: it stays the lowest, refresh after refresh.
    if (low0.index === low1.index) expect(view.watermarks.low!.index).toBe(low0.index);
    expect(view.now).toBeGreaterThanOrEqual(timesBefore.now);
    expect(view.now).toBeLessThanOrEqual(timesAfter.now);
    expect(view.watermarks.low!.lagMs).toBe(view.now - view.watermarks.low!.watermark!);
    // Every subtask of the test job runs: the timeline ends in RUNNING for each.
    for (const row of view.timeline.subtasks) expect(row.phases.at(-1)?.state).toBe('RUNNING');
  });

  it('shows Flink\'s accumulators and the vertex\'s TaskManagers as Flink sends them', async () => {
    const vertexId = await vertexOf('tenant-cost -> sink: Writer');
    const base = `/jobs/${cluster.jobId}/vertices/${vertexId}`;
    const [view, accumulators, perSubtask, taskManagers] = await Promise.all([
      fetchVertexInspection(client, 'flink', cluster.jobId, vertexId),
      get<{ 'user-accumulators': Array<{ name: string; type: string; value: string }> }>(`${base}/accumulators`),
      get<{ subtasks: Array<{ subtask: number; 'user-accumulators': unknown[] }> }>(`${base}/subtasks/accumulators`),
      get<{ taskmanagers: Array<{ 'taskmanager-id'?: string; 'status-counts': Record<string, number> }> }>(`${base}/taskmanagers`),
    ]);
    expect(view.accumulators.vertex).toEqual([...accumulators['user-accumulators']].sort((a, b) => a.name.localeCompare(b.name)));
    expect(view.accumulators.subtasks.map((s) => [s.index, s.accumulators.length])).toEqual(
      [...perSubtask.subtasks].sort((a, b) => a.subtask - b.subtask).map((s) => [s.subtask, s['user-accumulators'].length]),
    );
    expect(view.taskManagers.map((tm) => tm.taskManagerId).sort()).toEqual(taskManagers.taskmanagers.map((tm) => tm['taskmanager-id'] ?? null).sort());
    const running = taskManagers.taskmanagers.reduce((sum, tm) => sum + (tm['status-counts'].RUNNING ?? 0), 0);
    expect(view.taskManagers.reduce((sum, tm) => sum + (tm.statusCounts.RUNNING ?? 0), 0)).toBe(running);
  });

  it('shows the configuration as Flink sends it, every redacted value marked so', async () => {
    const [view, raw, job] = await Promise.all([
      fetchConfiguration(client, 'flink', cluster.jobId),
      get<Array<{ key: string; value: string }>>('/jobmanager/config'),
      get<{ 'execution-config': { 'job-parallelism': number; 'user-config': Record<string, string> } }>(`/jobs/${cluster.jobId}/config`),
    ]);
    expect(new Map(view.jobManager.map((e) => [e.key, e.value]))).toEqual(new Map(raw.map((e) => [e.key, e.value])));
    expect(view.jobManager.filter((e) => e.redacted).map((e) => e.key).sort()).toEqual(raw.filter((e) => e.value === '******').map((e) => e.key).sort());
    expect(view.job?.parallelism).toBe(job['execution-config']['job-parallelism']);
    expect(view.job?.userConfig.map((e) => e.key)).toEqual(Object.keys(job['execution-config']['user-config']).sort());
    expect(view.checkpoints?.find((e) => e.key === 'interval')?.value).toBe('10000');
    expect(view.environment?.jvmVersion).toMatch(/\d/);
  });

  it('shows a TaskManager\'s memory as Flink\'s TaskManager details, and the JobManager\'s', async () => {
    const { taskmanagers } = await get<{ taskmanagers: Array<{ id: string }> }>('/taskmanagers');
    const id = taskmanagers[0].id;
    type Details = { memoryConfiguration: Record<string, number>; metrics: { heapMax: number; nettyShuffleMemorySegmentsTotal?: number; memorySegmentsTotal?: number; garbageCollectors: Array<{ name: string; count: number }> } };
    const before = await get<Details>(`/taskmanagers/${encodeURIComponent(id)}`);
    const figures = await fetchProcessFigures(client, 'flink', id, null);
    const after = await get<Details>(`/taskmanagers/${encodeURIComponent(id)}`);
    expect(figures.memoryConfiguration).toEqual(before.memoryConfiguration);
    expect(figures.heap.max).toBe(before.metrics.heapMax);
    expect(figures.heap.used).toBeGreaterThan(0);
    expect(figures.heap.used!).toBeLessThanOrEqual(figures.heap.max!);
    expect(figures.network.segmentsTotal).toBe(before.metrics.nettyShuffleMemorySegmentsTotal ?? before.metrics.memorySegmentsTotal);
    expect(figures.managed.max).toBe(before.memoryConfiguration.managedMemory);
    const all = (d: Details) => d.metrics.garbageCollectors.find((gc) => gc.name === 'All')?.count ?? d.metrics.garbageCollectors.reduce((s, gc) => s + gc.count, 0);
    const consoleAll = figures.garbageCollectors.find((gc) => gc.name === 'All')?.count ?? figures.garbageCollectors.reduce((s, gc) => s + gc.count, 0);
    expect(consoleAll).toBeGreaterThanOrEqual(all(before));
    expect(consoleAll).toBeLessThanOrEqual(all(after));
    const jobManager = await fetchProcessFigures(client, 'flink', 'jobmanager', null);
    expect(jobManager.heap.used).toBeGreaterThan(0);
    expect(jobManager.garbageCollectors.length).toBeGreaterThan(0);
  });
});
