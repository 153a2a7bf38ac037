import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorKind } from '../contracts/errors.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { jobLayoutOf } from './job-layout.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { checkMetricsStore } from './prometheus-check.ts';
import { readWindow } from './prometheus-history.ts';
import { RECORDED_WINDOW, recordedSeries, startReplayPrometheus } from './testing/replay-prometheus.ts';
import type { JobLayout } from './to-job-samples.ts';

/**
 * Metrics stores that misbehave: huge answers, wrong types, values JSON cannot say, label values that try to reach a
 * terminal or a query, duplicated series, times out of order, series of another job. Every failure is an EngineError
 * naming the endpoint (and the field, for data); no text of the store reaches a sentence unfiltered.
 */
const layout: JobLayout = jobLayoutOf('recorded', endpoints.jobDetails.response.parse(RECORDED_WINDOW.jobDetails));
const { from: FROM, to: TO, stepMs: STEP } = RECORDED_WINDOW;
const ESCAPES = '\u001b]0;owned\u0007\u001b[31m\u009b2J\u202e';
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

const servers: HostileServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function store(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<FlinkRestClient> {
  const server = await startHostileServer(handler);
  servers.push(server);
  return new FlinkRestClient({ baseUrl: server.url, timeoutMs: 5_000 });
}
async function replay(options: Parameters<typeof startReplayPrometheus>[0]): Promise<FlinkRestClient> {
  const server = await startReplayPrometheus(options);
  servers.push(server);
  return new FlinkRestClient({ baseUrl: server.url, timeoutMs: 5_000 });
}
/** A store that answers every range query with this body. */
const answering = (body: unknown) => store((_req, res) => json(res, 200, body));
const matrix = (result: unknown) => ({ status: 'success', data: { resultType: 'matrix', result } });
const labels = (over: Record<string, string> = {}) => ({
  __name__: 'flink_taskmanager_job_task_numRecordsIn',
  job_id: layout.jobId,
  task_id: layout.vertices[1].id,
  subtask_index: '0',
  task_attempt_num: '0',
  tm_id: 'tm',
  ...over,
});

async function failure(promise: Promise<unknown>, kind: ErrorKind, message: RegExp): Promise<EngineError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(EngineError);
  const info = (error as EngineError).info;
  expect(info.kind, info.message).toBe(kind);
  expect(info.message).toMatch(message);
  expect(info.message).not.toMatch(UNPRINTABLE);
  return error as EngineError;
}

describe('huge answers', () => {
  it('an answer announcing more than the range query\'s 64 MiB cap is refused unread', async () => {
    const client = await store((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) });
      res.write('{"status":"success","data":{"resultType":"matrix","result":[');
    });
    await failure(readWindow(client, layout, FROM, TO, STEP), 'unexpected-response', /GET \/api\/v1\/query_range .* larger than 64 MiB \(it announced 209715200 bytes\)/);
  });

  it('an endless body is cut at the cap given, without reading further', async () => {
    const client = await store((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"success","data":{"resultType":"matrix","result":[');
      const series = JSON.stringify({ metric: labels(), values: [[FROM / 1000, '1']] });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(`${series},`.repeat(1000))), 1);
      res.on('close', () => clearInterval(timer));
    });
    await failure(readWindow(client, layout, FROM, TO, STEP, { maxAnswerBytes: 1024 * 1024 }), 'unexpected-response', /larger than 1 MiB \(more than 1048576 bytes\)/);
  });
});

describe('wrong types, named by field', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['a value as a number, not a string', matrix([{ metric: labels(), values: [[FROM / 1000, 5]] }]), /field `data\.result\.0\.values\.0\.1`/],
    ['a value that is no number', matrix([{ metric: labels(), values: [[FROM / 1000, '12abc']] }]), /field `data\.result\.0\.values\.0\.1` is "12abc", not a number as Prometheus writes one/],
    ['a time as a string', matrix([{ metric: labels(), values: [[String(FROM / 1000), '1']] }]), /field `data\.result\.0\.values\.0\.0`/],
    ['a time after the year 9999', matrix([{ metric: labels(), values: [[1e12, '1']] }]), /field `data\.result\.0\.values\.0\.0` is 1000000000000, after the year 9999/],
    ['a label value that is not a string', matrix([{ metric: { ...labels(), subtask_index: 0 }, values: [] }]), /field `data\.result\.0\.metric\.subtask_index`/],
    ['a vector where a matrix belongs', { status: 'success', data: { resultType: 'vector', result: [] } }, /field `data\.resultType`/],
    ['an envelope without a status', { data: { resultType: 'matrix', result: [] } }, /field `status`/],
  ];
  for (const [what, body, field] of cases) {
    it(what, async () => {
      await failure(readWindow(await answering(body), layout, FROM, TO, STEP), 'unexpected-response', field);
    });
  }

  it('an error envelope says the store\'s reason, printable, whether at 200 or at 4xx', async () => {
    const error = { status: 'error', errorType: 'execution', error: `query timed out${ESCAPES}\nin query execution` };
    await failure(readWindow(await answering(error), layout, FROM, TO, STEP), 'server-error', /answered GET \/api\/v1\/query_range with an error \(execution\): query timed out\?$/);
    const at422 = await store((_req, res) => json(res, 422, error));
    await failure(readWindow(at422, layout, FROM, TO, STEP), 'unexpected-response', /answered 422 to GET \/api\/v1\/query_range: query timed out/);
  });
});

describe('values JSON cannot say, and answers out of shape', () => {
  it('NaN, +Inf and -Inf are gaps in the figures, not numbers and not errors', async () => {
    const series = recordedSeries().map((s) => (s.metric.__name__.endsWith('_numRecordsIn') && s.metric.subtask_index === '0' ? { ...s, values: s.values.map(([t], i) => [t, ['NaN', '+Inf', '-Inf'][i % 3]] as [number, string]) } : s));
    const read = await readWindow(await replay({ series }), layout, FROM, TO, STEP);
    for (const sample of read.samples) {
      expect(Number.isNaN(sample.vertices[1].subtasks!.counters.recordsIn[0])).toBe(true);
      expect(Number.isNaN(sample.vertices[1].subtasks!.rates.recordsInPerSecond[0])).toBe(true);
    }
    expect(read.samples.at(-1)!.vertices[1].subtasks!.rates.recordsInPerSecond[1]).toBeGreaterThan(100);
  });

  it('duplicated series and times out of order read as the clean answer', async () => {
    const clean = await readWindow(await replay({}), layout, FROM, TO, STEP);
    const read = await readWindow(
      await replay({ alter: (_req, body) => ((body.data.result = [...body.data.result, ...body.data.result.map((s) => ({ metric: { ...s.metric, instance: 'replica-b' }, values: [...s.values].reverse() }))]), false) }),
      layout,
      FROM,
      TO,
      STEP,
    );
    expect(read.samples).toEqual(clean.samples);
    // Every series twice: 6 subtasks × 8 metrics, less the watermarks a source does not have.
    expect(read.missing).toEqual(['46 series repeated others (same ids, attempt and metric): read as one.']);
  });

  it('a series of another job in the answer: the answer is refused, the label shown printable', async () => {
    const other = { metric: labels({ job_id: `ffff${ESCAPES}"}\n` }), values: [[FROM / 1000, '1']] };
    const client = await replay({ alter: (_req, body) => (body.data.result.push(other as never), false) });
    await failure(readWindow(client, layout, FROM, TO, STEP), 'unexpected-response', /answered with a series of job "ffff\?\\"\} " when asked about [0-9a-f]{32}: the store does not apply the query's matchers/);
  });

  it('a series of another vertex in a vertex\'s answer is refused too', async () => {
    const client = await replay({ alter: (req, body) => (req.query.get('query')?.includes(layout.vertices[0].id) && body.data.result.push({ metric: labels(), values: [[FROM / 1000, '1']] } as never), false) });
    await failure(readWindow(client, layout, FROM, TO, STEP, { maxPointsPerQuery: 200 }), 'unexpected-response', new RegExp(`a series of vertex "${layout.vertices[1].id}" when asked about ${layout.vertices[0].id}`));
  });

  it('the store\'s warnings are said, printable and cut short', async () => {
    const client = await replay({ alter: (_req, body) => (Object.assign(body, { warnings: [`partial response${ESCAPES}\n${'x'.repeat(1000)}`] }), false) });
    const read = await readWindow(client, layout, FROM, TO, STEP);
    expect(read.missing).toHaveLength(1);
    expect(read.missing[0]).toMatch(/^Prometheus warned: partial response\? x+$/);
    expect(read.missing[0].length).toBeLessThan(330);
  });
});

describe('the check against a hostile store', () => {
  it('a version, job ids and a scrape interval that try to reach a terminal or a query', async () => {
    const job = layout.jobId;
    const client = await store((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/api/v1/status/buildinfo') return json(res, 200, { status: 'success', data: { version: `2.42${ESCAPES}\n${'9'.repeat(100)}` } });
      if (url.pathname === '/api/v1/targets') return json(res, 200, { status: 'success', data: { activeTargets: [{ labels: { job: 'flink', instance: 'a' }, scrapeInterval: '5s; drop' }] } });
      if (url.searchParams.get('query')?.startsWith('count by')) {
        return json(res, 200, { status: 'success', data: { resultType: 'vector', result: [{ metric: { job_id: `${job}\n${ESCAPES}`, job: 'flink', instance: 'a' }, value: [1, '2'] }] } });
      }
      return json(res, 200, { status: 'success', data: { resultType: 'matrix', result: [] } });
    });
    const check = await checkMetricsStore(client, [job], () => TO);
    expect(check.version).toMatch(/^2\.42\? 9+$/);
    expect(check.version!.length).toBeLessThanOrEqual(40);
    // A job id with more after it is not the job's id.
    expect(check.jobsWithSeries).toEqual([]);
    for (const sentence of check.findings) expect(sentence).not.toMatch(UNPRINTABLE);
    expect(check.scrapeIntervalMs).toBeNull();
  });

  it('a scrape interval that is no duration is refused by field, and the samples\' spacing measured instead', async () => {
    const client = await replay({});
    const proxied = await store((req, res) => {
      if (req.url?.startsWith('/api/v1/targets')) return json(res, 200, { status: 'success', data: { activeTargets: [{ labels: { job: 'flink', instance: '127.0.0.1:40561' }, scrapeInterval: '5s; drop' }] } });
      fetch(`${client.baseUrl}${req.url}`).then(async (answer) => json(res, answer.status, await answer.json()), () => json(res, 502, {}));
    });
    const check = await checkMetricsStore(proxied, [layout.jobId], () => TO);
    expect(check).toMatchObject({ scrapeIntervalMs: 5_000, scrapeIntervalFrom: 'samples' });
  });
});
