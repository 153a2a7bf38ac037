import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDiagnosis } from '../../engine/contracts/diagnosis.ts';
import type { JobGraph } from '../../engine/contracts/jobs.ts';
import { createClient } from '../../engine/clusters/cluster-connections.ts';
import { parseCsv } from '../../engine/exports/testing/parse-csv.ts';
import { fetchJobGraph } from '../../engine/sampling/job-graph.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';
import { startWebUiPoller, type WebUiPoller } from './web-ui-poller.ts';

/**
 * The console's figures against Flink's own at the same moment, on the real cluster, with another client polling the
 * JobManager as the Web UI does: the JobManager's metric refreshes then fall on that client's schedule, and the
 * console must stay right anyway.
 */
const cluster = readFlinkCluster();
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../engine/cli/flink-ops.mjs');

function cli(args: string[], timeoutMs = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [BIN, ...args], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
}

const get = <T>(url: string): Promise<T> => getFromFlink<T>(cluster, url);

interface FlinkVertexNow {
  busyMax: number;
  busyAvg: number;
  backPressuredMax: number;
  backPressuredAvg: number;
  dataSkew: number;
  level: string;
}

/** Flink's own figures for every vertex, straight from its REST API: aggregated subtask metrics and `/backpressure`. */
async function flinkNow(): Promise<Map<string, FlinkVertexNow>> {
  const job = await get<{ vertices: Array<{ id: string }> }>(`/jobs/${cluster.jobId}`);
  const out = new Map<string, FlinkVertexNow>();
  for (const v of job.vertices) {
    const [metrics, backpressure] = await Promise.all([
      get<Array<{ id: string; max: number; avg: number; skew: number }>>(
        `/jobs/${cluster.jobId}/vertices/${v.id}/subtasks/metrics?get=busyTimeMsPerSecond,backPressuredTimeMsPerSecond,numRecordsIn&agg=max,avg,skew`,
      ),
      get<{ backpressureLevel?: string }>(`/jobs/${cluster.jobId}/vertices/${v.id}/backpressure`),
    ]);
    const m = new Map(metrics.map((x) => [x.id, x]));
    out.set(v.id, {
      busyMax: m.get('busyTimeMsPerSecond')!.max,
      busyAvg: m.get('busyTimeMsPerSecond')!.avg,
      backPressuredMax: m.get('backPressuredTimeMsPerSecond')!.max,
      backPressuredAvg: m.get('backPressuredTimeMsPerSecond')!.avg,
      dataSkew: m.get('numRecordsIn')!.skew,
      level: backpressure.backpressureLevel ?? 'unknown',
    });
  }
  return out;
}

/** Each subtask's busy and back-pressured ms/s as Flink reports them now, by vertex name (`<index>.<metric>`). */
async function perSubtaskTimes(): Promise<Map<string, Array<{ busy: number; bp: number }>>> {
  const job = await get<{ vertices: Array<{ id: string; name: string; parallelism: number }> }>(`/jobs/${cluster.jobId}`);
  const out = new Map<string, Array<{ busy: number; bp: number }>>();
  for (const v of job.vertices) {
    const ids = Array.from({ length: v.parallelism }, (_, k) => [`${k}.busyTimeMsPerSecond`, `${k}.backPressuredTimeMsPerSecond`]).flat();
    const values = await get<Array<{ id: string; value: string }>>(`/jobs/${cluster.jobId}/vertices/${v.id}/metrics?get=${ids.join(',')}`);
    const byId = new Map(values.map((m) => [m.id, Number(m.value)]));
    out.set(v.name, Array.from({ length: v.parallelism }, (_, k) => ({ busy: byId.get(`${k}.busyTimeMsPerSecond`)!, bp: byId.get(`${k}.backPressuredTimeMsPerSecond`)! })));
  }
  return out;
}

let poller: WebUiPoller;

beforeAll(() => {
  poller = startWebUiPoller(cluster.restUrl, cluster.jobId);
});

afterAll(async () => {
  await poller.stop();
});

describe(`the console's figures against Flink ${cluster.version}'s own, at the same moment, with a Web UI polling too`, () => {
  it('graph --json: busy and back-pressured max/mean, Data Skew % and the backpressure level equal Flink\'s', async () => {
    // "The same moment": Flink's figures read before and after the console's, unchanged in between (no refresh of the
    // JobManager's metric store fell inside), so the console's must equal them exactly.
    let compared = 0;
    for (let attempt = 0; attempt < 20 && compared === 0; attempt++) {
      const before = await flinkNow();
      const graph = await cli(['graph', '--url', cluster.restUrl, '--job', cluster.jobId, '--json']);
      const after = await flinkNow();
      expect(graph.code, graph.stderr).toBe(0);
      if (JSON.stringify([...before]) !== JSON.stringify([...after])) continue;
      const ours = JSON.parse(graph.stdout) as JobGraph;
      for (const vertex of ours.vertices) {
        const flink = before.get(vertex.id)!;
        const what = `${vertex.name} (attempt ${attempt})`;
        expect(vertex.busyTimeMsPerSecond?.max, `${what}: busy max`).toBe(flink.busyMax);
        expect(vertex.busyTimeMsPerSecond?.avg, `${what}: busy mean`).toBeCloseTo(flink.busyAvg, 9);
        expect(vertex.backPressuredTimeMsPerSecond?.max, `${what}: back-pressured max`).toBe(flink.backPressuredMax);
        expect(vertex.backPressuredTimeMsPerSecond?.avg, `${what}: back-pressured mean`).toBeCloseTo(flink.backPressuredAvg, 9);
        // Flink's Data Skew of one subtask is 0 and means nothing: the console shows none there.
        if (vertex.parallelism === 1) expect(vertex.dataSkewPercent, `${what}: no Data Skew at parallelism 1`).toBeNull();
        else expect(vertex.dataSkewPercent, `${what}: Data Skew %`).toBeCloseTo(flink.dataSkew, 9);
        expect(vertex.backpressureLevel, `${what}: backpressure level`).toBe(flink.level);
      }
      compared++;
    }
    expect(compared, 'a moment when Flink\'s figures stood still around the console\'s request').toBe(1);
    expect(poller.requests()).toBeGreaterThan(0);
  });

  it("a watched job's refresh, each vertex read per subtask in one request: the same figures as Flink's aggregates, and its reading adds up", async () => {
    // What a job page's refresh asks when the job's history wants a reading (jobs-service.ts): the subtasks' own figures,
    // aggregated by the console as Flink aggregates them. At a moment Flink's figures stood still, equal to Flink's.
    const client = createClient({ name: 'truth', url: cluster.restUrl, auth: { kind: 'none' }, timeoutMs: 10_000 }, undefined);
    const job = await get<{ 'start-time': number; vertices: Array<{ id: string; parallelism: number }> }>(`/jobs/${cluster.jobId}`);
    const all = new Set(job.vertices.map((v) => v.id));
    let compared = 0;
    for (let attempt = 0; attempt < 20 && compared === 0; attempt++) {
      const before = await flinkNow();
      const graph = await fetchJobGraph(client, 'truth', cluster.jobId, { perSubtask: all });
      const after = await flinkNow();
      if (JSON.stringify([...before]) !== JSON.stringify([...after])) continue;
      // The test job's vertices are narrow enough to be read in one request each: no aggregated request was made.
      expect(graph.requestCount).toBe(1 + job.vertices.length);
      expect([...(graph.subtaskFigures?.keys() ?? [])].sort()).toEqual([...all].sort());
      for (const vertex of graph.vertices) {
        const flink = before.get(vertex.id)!;
        const what = `${vertex.name} (attempt ${attempt})`;
        expect(vertex.busyTimeMsPerSecond?.max, `${what}: busy max`).toBe(flink.busyMax);
        expect(vertex.busyTimeMsPerSecond?.avg, `${what}: busy mean`).toBeCloseTo(flink.busyAvg, 9);
        expect(vertex.backPressuredTimeMsPerSecond?.max, `${what}: back-pressured max`).toBe(flink.backPressuredMax);
        expect(vertex.backPressuredTimeMsPerSecond?.avg, `${what}: back-pressured mean`).toBeCloseTo(flink.backPressuredAvg, 9);
        if (vertex.parallelism > 1) expect(vertex.dataSkewPercent, `${what}: Data Skew %`).toBeCloseTo(flink.dataSkew, 9);
        expect(vertex.backpressureLevel, `${what}: backpressure level`).toBe(flink.level);
        // The reading's clocks: busy + back-pressured + idle accumulated, each subtask's time since it started.
        const figures = graph.subtaskFigures!.get(vertex.id)!;
        for (let k = 0; k < vertex.parallelism; k++) {
          const clock = figures.values.accumulateBusyTimeMs[k] + figures.values.accumulateBackPressuredTimeMs[k] + figures.values.accumulateIdleTimeMs[k];
          expect(clock, `${what}: subtask ${k}'s clock`).toBeGreaterThan(0);
          expect(clock, `${what}: subtask ${k}'s clock`).toBeLessThanOrEqual(Date.now() - job['start-time']);
        }
      }
      compared++;
    }
    expect(compared, 'a moment when Flink\'s figures stood still around the console\'s refresh').toBe(1);
  });

  it("report: busy + back-pressured + idle = 1000 ms/s for every subtask, and each mean within the range of Flink's own figures meanwhile", async () => {
    // Flink's per-subtask figures every 2 s while the report samples its window: a window mean lies within their
    // range (however the load moves), give or take their own few-second averaging.
    const seen = new Map<string, Array<{ busy: number[]; bp: number[] }>>();
    let reporting = true;
    const watching = (async () => {
      while (reporting) {
        for (const [name, subtasks] of await perSubtaskTimes().catch(() => new Map())) {
          const ranges = seen.get(name) ?? seen.set(name, subtasks.map(() => ({ busy: [], bp: [] }))).get(name)!;
          subtasks.forEach((s: { busy: number; bp: number }, k: number) => {
            if (Number.isFinite(s.busy)) ranges[k].busy.push(s.busy);
            if (Number.isFinite(s.bp)) ranges[k].bp.push(s.bp);
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    })();
    const csv = await cli(['report', '--url', cluster.restUrl, '--job', cluster.jobName, '--window', '30s', '--format', 'csv']);
    reporting = false;
    await watching;
    expect(csv.code, csv.stderr).toBe(0);
    const rows = parseCsv(csv.stdout);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const what = `${row.vertex_name} subtask ${row.subtask}`;
      const [busy, bp, idle] = [row.busy_ms_per_s_mean, row.backpressured_ms_per_s_mean, row.idle_ms_per_s_mean].map(Number);
      expect(busy + bp + idle, `${what}: ${busy} + ${bp} + ${idle}`).toBeCloseTo(1000, 0);
      const range = seen.get(row.vertex_name)![Number(row.subtask)];
      expect(range.busy.length, `${what}: Flink's figures were read`).toBeGreaterThan(3);
      expect(busy, `${what}: busy mean ${busy} vs Flink's ${range.busy.join(', ')}`).toBeGreaterThanOrEqual(Math.min(...range.busy) - 50);
      expect(busy, `${what}: busy mean ${busy} vs Flink's ${range.busy.join(', ')}`).toBeLessThanOrEqual(Math.max(...range.busy) + 50);
      expect(bp, `${what}: back-pressured mean ${bp} vs Flink's ${range.bp.join(', ')}`).toBeGreaterThanOrEqual(Math.min(...range.bp) - 50);
      expect(bp, `${what}: back-pressured mean ${bp} vs Flink's ${range.bp.join(', ')}`).toBeLessThanOrEqual(Math.max(...range.bp) + 50);
    }
  });

  it('diagnose: no health verdict while Flink reports a vertex HIGH', async () => {
    const result = await cli(['diagnose', '--url', cluster.restUrl, '--job', cluster.jobId, '--window', '20s', '--json']);
    const flink = await flinkNow();
    expect(result.code, result.stderr).toBe(0);
    const diagnosis = JSON.parse(result.stdout) as JobDiagnosis;
    const high = [...flink.values()].some((v) => v.level === 'high');
    expect(high, 'the test job keeps its source HIGH').toBe(true);
    expect(diagnosis.finding.kind).not.toBe('nothing-wrong');
    expect(['critical', 'warning']).toContain(diagnosis.finding.severity);
    for (const vertex of diagnosis.vertices) {
      const busy = vertex.metrics.find((m) => m.metric === 'busyTimeMsPerSecond');
      if (busy) expect(busy.max, `${vertex.name}: busy max of the window`).toBeLessThanOrEqual(1000);
    }
  });
});
