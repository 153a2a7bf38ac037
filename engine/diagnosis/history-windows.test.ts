import { afterAll, describe, expect, it, vi } from 'vitest';
import { HistoryStore } from '../history/history-store.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { HistoryWindows } from './history-windows.ts';
import { readJobWindow } from './read-window.ts';
import { jobWindowStats } from '../analysis/window-stats.ts';
import { diagnoseWindow } from '../analysis/diagnose-job.ts';
import { recordLocalEngine } from '../analysis/testing/local-engine-window.ts';
import { storeWithHotJob } from './testing/hot-job-store.ts';

const dirs = tempDirs('flink-ops-diagnosis-');
afterAll(() => dirs.removeAll());
const JOB = 'f'.repeat(32);


describe('readJobWindow', () => {
  it('reads only the ends of a long window and gives exactly the figures of every sample (recorded hot-tenant: backpressure starting mid-window)', async () => {
    const samples = await recordLocalEngine({ scenario: 'hot-tenant', seconds: 180 });
    const store = HistoryStore.open(dirs.make(), { now: () => samples[samples.length - 1].t });
    for (const sample of samples) await store.samples.append(sample);
    const from = samples[0].t;
    const to = samples[samples.length - 1].t;
    const read = vi.spyOn(store.samples, 'vertexWindow');
    const samplesRead = () => read.mock.results.reduce((sum, r) => sum + (r.value as unknown[]).length, 0);
    const fromStore = readJobWindow(store, 'local', samples[0].jobId, from, to);
    expect(fromStore).toEqual(jobWindowStats(samples));
    expect(samplesRead()).toBe(3 * 5); // 3 vertices × (3 first + 2 last samples), not 3 × 18
    expect(diagnoseWindow(fromStore, to - from).finding.kind).toBe('skew');
    // With a subtask that restarted inside the window, that vertex is read whole, with the same result.
    samples[10].vertices[2].subtasks!.attempt[5] = 1;
    for (const s of samples.slice(11)) s.vertices[2].subtasks!.attempt[5] = 1;
    for (const sample of samples.slice(10)) await store.samples.append(sample);
    read.mockClear();
    expect(readJobWindow(store, 'local', samples[0].jobId, from, to)).toEqual(jobWindowStats(samples));
    expect(samplesRead()).toBe(3 * 5 + 18);
    await store.close();
  }, 60_000);

  it('gives, vertex by vertex from the store, the same figures as the whole window in memory', async () => {
    const { store, t0 } = await storeWithHotJob(dirs.make());
    const fromStore = readJobWindow(store, 'c', JOB, t0 + 60_000, t0 + 120_000);
    const inMemory = jobWindowStats(store.samples.window('c', JOB, t0 + 60_000, t0 + 120_000));
    expect(fromStore).toEqual(inMemory);
    expect(fromStore.samples).toBe(7);
    await store.close();
  });
});

describe('HistoryWindows', () => {
  it('diagnoses the last N of a job, ending at its newest sample, and reuses the window until a new sample lands', async () => {
    const { store, t0 } = await storeWithHotJob(dirs.make());
    const service = new HistoryWindows(store);
    const d = service.diagnose('c', JOB, 60_000);
    expect(d.window).toEqual({ requestedMs: 60_000, from: t0 + 60_000, to: t0 + 120_000, samples: 7, spanMs: 60_000, source: 'jobmanager' });
    expect(d.finding).toMatchObject({ kind: 'skew', vertexName: 'keyed', subtasks: [expect.objectContaining({ subtask: 3 })] });
    const heatmap = service.heatmap('c', JOB, 60_000, 'busyTimeMsPerSecond', 'mean');
    expect(heatmap.rows.map((r) => r.values.length)).toEqual([2, 8, 2]);
    expect(heatmap.rows[1].values[3]).toBe(1000);
    expect(heatmap.max).toBe(1000);
    // Until a new sample lands, the same figures are served again without reading the store.
    const read = vi.spyOn(store.samples, 'vertexWindow');
    expect(service.diagnose('c', JOB, 60_000)).toBe(d);
    expect(service.heatmap('c', JOB, 60_000, 'busyTimeMsPerSecond', 'mean')).toBe(heatmap);
    expect(read).not.toHaveBeenCalled();
    const next = structuredClone(store.samples.latest('c', JOB)!);
    await store.samples.append({ ...next, t: next.t + 10_000 });
    expect(service.diagnose('c', JOB, 60_000)).not.toBe(d);
    expect(read).toHaveBeenCalled();
    await store.close();
  });

  it('answers for a job without samples with "not enough data", not an error', async () => {
    const store = HistoryStore.open(dirs.make());
    const d = new HistoryWindows(store).diagnose('c', JOB, 60_000);
    expect(d).toMatchObject({ clusterId: 'c', jobId: JOB, finding: { kind: 'not-enough-data' }, window: { samples: 0, from: null } });
    await store.close();
  });

  it('refuses a bad window, metric or aggregate with a message that names the fix', async () => {
    const store = HistoryStore.open(dirs.make());
    const service = new HistoryWindows(store);
    expect(() => service.diagnose('c', JOB, 5)).toThrow(/window must be a whole number of ms from 10000 \(10 s\)/);
    expect(() => service.diagnose('c', JOB, '60s')).toThrow(/got 60s/);
    expect(() => service.heatmap('c', JOB, 60_000, 'cpu', 'mean')).toThrow(/Unknown metric "cpu": use one of recordsInPerSecond/);
    expect(() => service.heatmap('c', JOB, 60_000, 'busyTimeMsPerSecond', 'p99')).toThrow(/"p99" is not "mean" or "max"/);
    await store.close();
  });
});
