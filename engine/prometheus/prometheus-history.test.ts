import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { jobLayoutOf } from './job-layout.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { json } from '../flink-rest/testdata/hostile-server.ts';
import { QueryRangeAnswer } from './prometheus-schemas.ts';
import { chunksOf, MAX_POINTS_PER_SERIES, readWindow } from './prometheus-history.ts';
import { SAMPLE_METRICS, seriesName } from './reporter-series.ts';
import { RECORDED_DIR, RECORDED_WINDOW, recordedSeries, startReplayPrometheus, type ReplayPrometheus } from './testing/replay-prometheus.ts';
import { toJobSamples, type JobLayout } from './to-job-samples.ts';

const details = endpoints.jobDetails.response.parse(RECORDED_WINDOW.jobDetails);
const layout: JobLayout = jobLayoutOf('recorded', details);
const { from: FROM, to: TO, stepMs: STEP } = RECORDED_WINDOW;

const servers: ReplayPrometheus[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function replay(options: Parameters<typeof startReplayPrometheus>[0] = {}): Promise<{ server: ReplayPrometheus; client: FlinkRestClient }> {
  const server = await startReplayPrometheus(options);
  servers.push(server);
  return { server, client: new FlinkRestClient({ baseUrl: server.url, timeoutMs: 5_000 }) };
}

/** The samples of the recorded window converted in one piece, as the reference. */
function wholeWindow() {
  const series = SAMPLE_METRICS.flatMap((m) => {
    const answer = QueryRangeAnswer.parse(JSON.parse(readFileSync(path.join(RECORDED_DIR, 'query_range', `${seriesName(m)}.json`), 'utf8')));
    return answer.status === 'success' ? answer.data.result : [];
  });
  return toJobSamples(layout, series, { from: FROM, to: TO, stepMs: STEP }).samples;
}

describe('readWindow', () => {
  it('reads a small job\'s window in one range query of all its metrics, as the samples of the whole matrices', async () => {
    const { server, client } = await replay();
    const tally = { requests: 0, bytes: 0 };
    const read = await readWindow(client, layout, FROM, TO, STEP, { tally });
    expect(read.samples).toEqual(wholeWindow());
    expect(read.missing).toEqual([]);
    expect(read.gaps).toEqual([]);
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v1/query_range']);
    expect(server.requests[0].query.get('query')).toBe(`{__name__=~"flink_taskmanager_job_task_(${SAMPLE_METRICS.join('|')})",job_id="${layout.jobId}"}`);
    expect(Object.fromEntries(['start', 'end', 'step'].map((k) => [k, server.requests[0].query.get(k)]))).toEqual({ start: String(FROM / 1000), end: String(TO / 1000), step: '5' });
    expect(tally.requests).toBe(1);
    expect(tally.bytes).toBeGreaterThan(10_000);
  });

  it('a big job is read vertex by vertex, in chunks of the range within the point budget, and gives the same samples', async () => {
    const { server, client } = await replay();
    // 2 subtasks × 8 metrics = 16 series per vertex; 200 points per query = 12 steps per chunk.
    const read = await readWindow(client, layout, FROM, TO, STEP, { maxPointsPerQuery: 200 });
    expect(read.samples).toEqual(wholeWindow());
    const queries = server.requests.filter((r) => r.path === '/api/v1/query_range');
    expect(queries).toHaveLength(3 * Math.ceil(61 / 12));
    for (const q of queries) {
      expect(q.query.get('query')).toMatch(/,task_id="[0-9a-f]{32}"\}$/);
      expect((Number(q.query.get('end')) - Number(q.query.get('start'))) / 5 + 1).toBeLessThanOrEqual(12);
    }
  });

  it('never asks for more than 11,000 points per series, however long the window', () => {
    const day = { from: 0, to: 7 * 86_400_000, stepMs: 10_000 };
    const chunks = chunksOf(day, MAX_POINTS_PER_SERIES);
    expect(chunks.every((c) => (c.to - c.from) / c.stepMs + 1 <= MAX_POINTS_PER_SERIES)).toBe(true);
    expect(chunks[0].from).toBe(0);
    expect(chunks.at(-1)!.to).toBe(day.to);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i].from).toBe(chunks[i - 1].to + day.stepMs);
  });

  it('asks a vertex whose series have no accumulated times for Flink\'s per-second gauges, and only that vertex', async () => {
    const throttle = layout.vertices[1].id;
    const series = recordedSeries().filter((s) => !(s.metric.task_id === throttle && s.metric.__name__.includes('_accumulate')));
    const { server, client } = await replay({ series });
    const read = await readWindow(client, layout, FROM, TO, STEP);
    const queries = server.requests.map((r) => r.query.get('query'));
    expect(queries).toEqual([expect.stringContaining(`job_id="${layout.jobId}"}`), `{__name__=~"flink_taskmanager_job_task_(busyTimeMsPerSecond|backPressuredTimeMsPerSecond|idleTimeMsPerSecond)",job_id="${layout.jobId}",task_id="${throttle}"}`]);
    const last = read.samples.at(-1)!;
    const recordedBusy = series.find((s) => s.metric.task_id === throttle && s.metric.subtask_index === '1' && s.metric.__name__.endsWith('_busyTimeMsPerSecond'))!.values.at(-1)![1];
    expect(last.vertices[1].subtasks!.rates.busyTimeMsPerSecond[1]).toBe(Number(recordedBusy));
  });

  it('says a vertex the store has no series of, and a run of steps where a subtask had none', async () => {
    const sink = layout.vertices[2];
    const gapFrom = FROM + 100_000;
    const gapTo = FROM + 120_000;
    const series = recordedSeries()
      .filter((s) => s.metric.task_id !== layout.vertices[0].id)
      .map((s) => (s.metric.task_id === sink.id && s.metric.subtask_index === '1' ? { ...s, values: s.values.filter(([t]) => t * 1000 < gapFrom || t * 1000 > gapTo) } : s));
    const { client } = await replay({ series });
    const read = await readWindow(client, { ...layout, vertices: layout.vertices.map((v, i) => (i === 0 ? { ...v, name: 'Source\u001b[2J: events' } : v)) }, FROM, TO, STEP);
    expect(read.absentVertices).toEqual([layout.vertices[0].id]);
    expect(read.gaps).toEqual([{ from: gapFrom, to: gapTo, subtasksMissing: 1 }]);
    expect(read.missing).toEqual([
      `Prometheus holds no series of vertex Source: events (${layout.vertices[0].id}) in the window: its figures are not known.`,
      `From ${new Date(gapFrom).toISOString()} to ${new Date(gapTo).toISOString()}, up to 1 subtask had no figures in Prometheus: shown as gaps.`,
    ]);
    const inGap = read.samples.find((s) => s.t === gapFrom + STEP)!;
    expect(Number.isNaN(inGap.vertices[2].subtasks!.rates.busyTimeMsPerSecond[1])).toBe(true);
  });

  it('a store that stops answering part-way: the samples read so far, and from when the window is not read', async () => {
    let queries = 0;
    const { client } = await replay({ alter: (_req, _body, res) => (++queries > 1 ? (json(res, 503, { status: 'error', errorType: 'unavailable', error: 'shutting down' }), true) : false) });
    const read = await readWindow(client, layout, FROM, TO, STEP, { maxPointsPerQuery: 6 * 8 * 60 });
    // Job-wide queries of 6 × 8 series, 60 steps each: the first chunk read, the second refused.
    expect(read.samples).toEqual(wholeWindow().slice(0, 60));
    expect(read.incomplete).toEqual({ from: FROM + 60 * STEP, reason: expect.stringContaining('failed GET /api/v1/query_range with 503: shutting down') });
    expect(read.missing.at(-1)).toMatch(new RegExp(`^The window from ${new Date(FROM + 60 * STEP).toISOString()} on is not read: .*503: shutting down$`));
  });

  it('refuses ids that are not ids and a step under a second before asking anything', async () => {
    const { server, client } = await replay();
    const bad = [
      readWindow(client, { ...layout, jobId: `${layout.jobId}"}or vector(1)` }, FROM, TO, STEP),
      readWindow(client, { ...layout, vertices: [{ ...layout.vertices[0], id: 'Source: events' }] }, FROM, TO, STEP),
      readWindow(client, layout, FROM, TO, 500),
      readWindow(client, layout, TO, FROM, STEP),
      readWindow(client, layout, 0, 7 * 86_400_000, 1_000),
    ];
    for (const attempt of bad) await expect(attempt).rejects.toSatisfy((e) => e instanceof EngineError && e.info.kind === 'invalid-input');
    expect(server.requests).toEqual([]);
  });
});
