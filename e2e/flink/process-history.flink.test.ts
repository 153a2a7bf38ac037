import { afterAll, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../../engine/flink-rest/client.ts';
import { HistoryStore } from '../../engine/history/history-store.ts';
import { processMetricsHistory } from '../../engine/history/views/process-history.ts';
import { tempDirs } from '../../engine/local/testing/engine-test-kit.ts';
import { ProcessSampler } from '../../engine/sampling/process-sampler.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';

/**
 * The JobManager's and TaskManagers' memory and GC over time against Flink's own metrics at the same moment: Flink
 * answers every metrics request from its MetricStore, refreshed at most every `metrics.fetcher.update-interval`, so a
 * figure the console stored is the one Flink answered just before or just after it (a refresh may fall between), and
 * a GC count lies between the two. What the history's view draws is what was stored.
 */
const cluster = readFlinkCluster();
const client = new FlinkRestClient({ baseUrl: cluster.restUrl, timeoutMs: 10_000 });
const dirs = tempDirs('flink-ops-process-history-');
const store = HistoryStore.open(dirs.make());
afterAll(async () => {
  await store.close();
  dirs.removeAll();
});

const FIGURES = {
  heapUsed: 'Status.JVM.Memory.Heap.Used',
  heapCommitted: 'Status.JVM.Memory.Heap.Committed',
  heapMax: 'Status.JVM.Memory.Heap.Max',
  nonHeapUsed: 'Status.JVM.Memory.NonHeap.Used',
  directUsed: 'Status.JVM.Memory.Direct.MemoryUsed',
  directMax: 'Status.JVM.Memory.Direct.TotalCapacity',
  managedUsed: 'Status.Flink.Memory.Managed.Used',
  managedTotal: 'Status.Flink.Memory.Managed.Total',
  networkSegmentsUsed: 'Status.Shuffle.Netty.UsedMemorySegments',
  networkSegmentsTotal: 'Status.Shuffle.Netty.TotalMemorySegments',
} as const;
const GC = { gcCount: 'Status.JVM.GarbageCollector.All.Count', gcTimeMs: 'Status.JVM.GarbageCollector.All.Time' } as const;

async function flinkFigures(processId: string): Promise<Map<string, number>> {
  const path = processId === 'jobmanager' ? '/jobmanager/metrics' : `/taskmanagers/${encodeURIComponent(processId)}/metrics`;
  const answer = await getFromFlink<Array<{ id: string; value: string }>>(cluster, `${path}?get=${[...Object.values(FIGURES), ...Object.values(GC)].join(',')}`);
  return new Map(answer.map((m) => [m.id, Number(m.value)]));
}

describe(`the processes over time on Flink ${cluster.version}`, () => {
  it('stores the JobManager\'s and each TaskManager\'s memory, network buffers and GC as Flink\'s metrics say them at that moment', async () => {
    const { taskmanagers } = await getFromFlink<{ taskmanagers: Array<{ id: string }> }>(cluster, '/taskmanagers');
    const processes = ['jobmanager', ...taskmanagers.map((tm) => tm.id).sort()];
    const before = await Promise.all(processes.map(flinkFigures));
    const samples = await new ProcessSampler({ history: store }).sampleNow('flink', client);
    const after = await Promise.all(processes.map(flinkFigures));
    expect(samples.map((s) => s.processId)).toEqual(processes);

    processes.forEach((processId, i) => {
      const sample = samples[i];
      for (const [figure, name] of Object.entries(FIGURES) as Array<[keyof typeof FIGURES, string]>) {
        // Flink's -1 (no limit) and a metric the process lacks (the JobManager's managed memory) are no figure.
        const answers = [before[i].get(name), after[i].get(name)].map((v) => (v === undefined || v < 0 ? null : v));
        expect(answers, `${processId} ${name}: the console's ${sample[figure]}`).toContain(sample[figure]);
      }
      for (const [figure, name] of Object.entries(GC) as Array<[keyof typeof GC, string]>) {
        expect(sample[figure], `${processId} ${name}`).toBeGreaterThanOrEqual(before[i].get(name)!);
        expect(sample[figure], `${processId} ${name}`).toBeLessThanOrEqual(after[i].get(name)!);
      }
    });
    const tm = samples[1];
    expect(tm.heapUsed).toBeGreaterThan(0);
    expect(tm.heapUsed!).toBeLessThanOrEqual(tm.heapMax!);
    expect(tm.managedTotal).toBeGreaterThan(0);
    expect(tm.networkSegmentsTotal).toBeGreaterThan(0);
    expect(samples[0]).toMatchObject({ managedTotal: null, networkSegmentsTotal: null });

    // The view the charts draw: the stored figures, the newest one named as such.
    for (const sample of samples) {
      const view = processMetricsHistory(store, 'flink', sample.processId, sample.t - 60_000, sample.t, true);
      const { clusterId: _c, processId: _p, ...figures } = sample;
      expect(view.latest).toEqual({ ...figures, gcTimeMsPerSecond: null, gcPerMinute: null });
      expect(view.points).toEqual([view.latest]);
    }
  });
});
