import { afterAll, describe, expect, it, vi } from 'vitest';
import { jobWindowStats } from '../analysis/window-stats.ts';
import { recordLocalEngine } from '../analysis/testing/local-engine-window.ts';
import { HistoryStore } from '../history/history-store.ts';
import { rollupOf, type JobSample } from '../history/job-sample.ts';
import { jobMetricsHistory } from '../history/views/metrics-history.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { readJobWindow } from './read-window.ts';

const dirs = tempDirs('flink-ops-read-window-');
afterAll(() => dirs.removeAll());

/** The sample as the frugal sampler stores it between readings: Flink's aggregates of each vertex, no columns. */
function aggregatesOnly(sample: JobSample): JobSample {
  return { ...sample, vertices: sample.vertices.map((v) => ({ ...v, subtasks: null, aggregates: rollupOf(v) })) };
}

describe('a window of frugal samples (per-subtask readings every minute, aggregates between)', () => {
  it('skips the aggregate-only samples (never missing, never zeros), reaches back to the reading before the window, and keeps a chart point per sample', async () => {
    const recorded = await recordLocalEngine({ scenario: 'hot-tenant', seconds: 480 });
    // A reading every 6th sample (once a minute at 10 s), aggregates only in between.
    const frugal = recorded.map((s, i) => (i % 6 === 0 ? s : aggregatesOnly(s)));
    const readings = recorded.filter((_, i) => i % 6 === 0);
    const store = HistoryStore.open(dirs.make(), { now: () => recorded[recorded.length - 1].t });
    for (const sample of frugal) await store.samples.append(sample);
    const jobId = recorded[0].jobId;
    const newest = recorded[recorded.length - 1].t;

    // The page's default window: the reading before it and the one inside, a minute of evidence however they fall.
    const from = newest - 60_000;
    const window = readJobWindow(store, 'local', jobId, from, newest);
    expect(window.samples).toBe(recorded.filter((s) => s.t >= from).length);
    const inWindow = readings.filter((s) => s.t >= from);
    const before = readings.filter((s) => s.t < from).at(-1)!;
    const expected = jobWindowStats([before, ...inWindow]);
    for (const [i, vertex] of window.vertices.entries()) {
      expect(vertex.unavailable).toBeUndefined();
      expect(vertex.mean).toEqual(expected.vertices[i].mean);
      expect(Math.min(...Array.from(vertex.coveredMs))).toBeGreaterThanOrEqual(55_000);
    }

    // A long window reads the ends of its readings only, and gives the figures of every reading in it.
    const read = vi.spyOn(store.samples, 'vertexWindow');
    const whole = readJobWindow(store, 'local', jobId, recorded[0].t, newest);
    const all = jobWindowStats(readings);
    for (const [i, vertex] of whole.vertices.entries()) expect(vertex.mean).toEqual(all.vertices[i].mean);
    expect(whole.samples).toBe(recorded.length);
    expect(read.mock.calls.length).toBe(2 * whole.vertices.length);

    // A window with no reading at all, and none within reach before it, says so in words.
    const empty = HistoryStore.open(dirs.make(), { now: () => newest });
    for (const sample of frugal.slice(1, 5)) await empty.samples.append(sample);
    const none = readJobWindow(empty, 'local', jobId, frugal[1].t, frugal[4].t);
    expect(none.vertices[0].unavailable).toMatch(/^no per-subtask reading in the window yet/);

    // Charts: a point per sample (but the first, which has no rates yet), from the aggregates between readings.
    const charts = jobMetricsHistory(store, 'local', jobId, recorded[0].t, newest);
    for (const series of charts.vertices) expect(series.points.filter((p) => p.busyMax !== null)).toHaveLength(recorded.length - 1);
    await empty.close();
    await store.close();
  }, 180_000);
});
