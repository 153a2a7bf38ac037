import net from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { checkFlinkCluster } from '../clusters/cluster-check.ts';
import { createClient } from '../clusters/cluster-connections.ts';
import type { ErrorKind } from '../contracts/errors.ts';
import { fetchJobGraph, MAX_VERTEX_METRIC_REQUESTS } from '../sampling/job-graph.ts';
import { fetchVertexSubtasks } from '../sampling/vertex-subtasks.ts';
import { FlinkRestClient } from './client.ts';
import { endpoints, type EndpointSpec } from './endpoints.ts';
import { EngineError } from './errors.ts';
import { json, startHostileServer, TEST_CA_FILE, type HostileServer } from './testdata/hostile-server.ts';

/**
 * The client against clusters that misbehave after the headers, lie about their data, redirect elsewhere or never
 * stop talking: every failure is an EngineError naming the endpoint (and the field, for data), within the deadline.
 */
const servers: Array<HostileServer | net.Server> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    if (s instanceof net.Server) await new Promise((resolve) => s.close(resolve));
    else await s.close();
  }
});

async function hostile(handler: (req: IncomingMessage, res: ServerResponse) => void, options: { tls?: boolean } = {}): Promise<HostileServer> {
  const server = await startHostileServer(handler, options);
  servers.push(server);
  return server;
}

async function failure(promise: Promise<unknown>, kind: ErrorKind, message: RegExp): Promise<EngineError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(EngineError);
  const info = (error as EngineError).info;
  expect(info.kind, info.message).toBe(kind);
  expect(info.message).toMatch(message);
  return error as EngineError;
}

/** Times `work` from before it starts: the client's deadline starts inside the call, with its synchronous part. */
async function timed<T>(work: () => Promise<T>): Promise<{ millis: number; result: T | undefined; error: unknown }> {
  const started = performance.now();
  try {
    const result = await work();
    return { millis: performance.now() - started, result, error: undefined };
  } catch (error) {
    return { millis: performance.now() - started, result: undefined, error };
  }
}

const JOB = 'a'.repeat(32);
const vertexId = (i: number) => i.toString(16).padStart(32, '0');
const metric = (id: string, max: number, avg = max / 2) => ({ id, min: 0, max, avg, sum: avg * 4 });
const healthyMetrics = [
  metric('busyTimeMsPerSecond', 800),
  metric('backPressuredTimeMsPerSecond', 100),
  metric('idleTimeMsPerSecond', 500),
  metric('numRecordsInPerSecond', 4000),
  metric('numRecordsOutPerSecond', 4000),
];

function jobDetails(vertexCount: number, jid = JOB) {
  return {
    jid,
    name: 'big-job',
    state: 'RUNNING',
    'start-time': 1,
    'end-time': -1,
    duration: 1000,
    maxParallelism: 128,
    vertices: Array.from({ length: vertexCount }, (_, i) => ({ id: vertexId(i + 1), name: `op-${i + 1}`, parallelism: 4, status: 'RUNNING', tasks: { running: 4 } })),
    plan: { jid, name: 'big-job', nodes: [] },
  };
}

describe('a deadline, not an idle timeout', () => {
  // The servers below send a little every 100 ms, a tenth of the deadline, until the whole answer is out seconds later:
  // an idle timeout would never fire and the request would succeed. Only a deadline ends it early, with a timeout.
  it('a server trickling its body every 100 ms is cut off at the deadline, before the body is out', async () => {
    const body = JSON.stringify({ taskmanagers: 1, 'slots-total': 1, 'slots-available': 1, 'jobs-running': 0, 'jobs-finished': 0, 'jobs-cancelled': 0, 'jobs-failed': 0 });
    const server = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let i = 0;
      // Four bytes every 100 ms: the whole body (124 bytes) is out after about three deadlines.
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(body.slice(i, (i += 4)));
        if (i >= body.length) {
          res.end();
          clearInterval(timer);
        }
      }, 100);
      res.on('close', () => clearInterval(timer));
    });
    const client = new FlinkRestClient({ baseUrl: server.url, timeoutMs: 1000 });
    const { millis, error } = await timed(() => client.request(endpoints.overview));
    expect(error, 'the request outlasted its deadline and got the whole body').toBeInstanceOf(EngineError);
    const info = (error as EngineError).info;
    expect(info).toMatchObject({ kind: 'timeout', endpoint: 'GET /overview', status: 200 });
    const received = /did not finish within 1000 ms: the body stalled after its headers \(HTTP 200\) and (\d+) bytes of the body/.exec(info.message);
    expect(received, info.message).not.toBeNull();
    expect(Number(received![1]), info.message).toBeLessThan(body.length);
    // Not cut short either: Node's timers never fire early.
    expect(millis).toBeGreaterThanOrEqual(990);
  });

  it('a server trickling its status line and headers is cut off at the deadline too', async () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';
    const server = net.createServer((socket) => {
      let i = 0;
      const timer = setInterval(() => (i < head.length && !socket.destroyed ? socket.write(head[i++]) : clearInterval(timer)), 100);
      socket.on('close', () => clearInterval(timer));
      socket.on('error', () => clearInterval(timer));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new FlinkRestClient({ baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, timeoutMs: 1000 });
    const error = await failure(client.request(endpoints.config), 'timeout', /got no answer within 1000 ms/);
    expect(error.info).toMatchObject({ kind: 'timeout', endpoint: 'GET /config' });
  });
});

describe('transport failures after the headers are reported as such', () => {
  it('silence after the headers: a timeout naming the status, not "not Flink"', async () => {
    const server = await hostile((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"flink-version": ');
    });
    const client = new FlinkRestClient({ baseUrl: server.url, timeoutMs: 300 });
    await failure(checkFlinkCluster(client), 'timeout', /GET \/config .* did not finish within 300 ms: the body stalled after its headers \(HTTP 200\) and 18 bytes/);
  });

  it('a reset mid-body and a body shorter than its Content-Length: the connection was cut', async () => {
    const server = await hostile((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"flink-version": "2.2.1", ');
      setTimeout(() => (req.url === '/config' ? res.socket?.resetAndDestroy() : res.socket?.end()), 20);
    });
    const client = new FlinkRestClient({ baseUrl: server.url });
    await failure(checkFlinkCluster(client), 'network', /GET \/config on .*: the connection was cut after its headers \(HTTP 200\) and 27 bytes of the body/);
    await failure(client.request(endpoints.overview), 'network', /GET \/overview on .*: the connection was cut after its headers \(HTTP 200\)/);
  });

  it('a body that is not valid gzip: said so, not "malformed JSON" or "not Flink"', async () => {
    const server = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(Buffer.from('definitely not gzip'));
    });
    await failure(checkFlinkCluster(new FlinkRestClient({ baseUrl: server.url })), 'network', /GET \/config .* sent a body that is not valid gzip\/deflate/);
  });

  it('a valid gzip body is read', async () => {
    const server = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ 'flink-version': '2.2.1' })));
    });
    expect((await new FlinkRestClient({ baseUrl: server.url }).request(endpoints.config))['flink-version']).toBe('2.2.1');
  });

  it('a 100 MB body is refused at the endpoint\'s cap, announced or streamed, without holding it in memory', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const server = await hostile((req, res) => {
      const announced = req.url === '/jobs/overview';
      res.writeHead(200, { 'content-type': 'application/json', ...(announced ? { 'content-length': String(100 * chunk.length) } : {}) });
      let sent = 0;
      const pump = () => {
        while (sent < 100 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const client = new FlinkRestClient({ baseUrl: server.url });
    const heapBefore = process.memoryUsage().heapUsed;
    await failure(client.request(endpoints.jobsOverview), 'unexpected-response', /GET \/jobs\/overview .* larger than 16 MiB \(it announced 104857600 bytes\), the console's limit for this endpoint/);
    await failure(client.request(endpoints.taskManagers), 'unexpected-response', /GET \/taskmanagers .* larger than 16 MiB \(more than 16777216 bytes\)/);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('impossible values are refused, naming the endpoint and the field', () => {
  const overview = { taskmanagers: 2, 'slots-total': 4, 'slots-available': 2, 'jobs-running': 1, 'jobs-finished': 0, 'jobs-cancelled': 0, 'jobs-failed': 0 };
  const vertex = { id: vertexId(1), name: 'v', parallelism: 2, subtasks: [{ subtask: 0, status: 'RUNNING' }, { subtask: 1, status: 'RUNNING' }] };
  const cases: Array<[string, EndpointSpec<unknown>, Record<string, string>, unknown, RegExp]> = [
    ['negative TaskManagers', endpoints.overview, {}, { ...overview, taskmanagers: -1 }, /GET \/overview .*field `taskmanagers`/],
    ['more free slots than slots', endpoints.overview, {}, { ...overview, 'slots-available': 9 }, /field `slots-available` is more than slots-total/],
    ['a fractional task count', endpoints.jobsOverview, {}, { jobs: [{ jid: JOB, name: 'j', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 1, tasks: { running: 1.5 } }] }, /GET \/jobs\/overview .*field `jobs\.0\.tasks\.running`/],
    ['a negative task count', endpoints.jobsOverview, {}, { jobs: [{ jid: JOB, name: 'j', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 1, tasks: { running: -3 } }] }, /field `jobs\.0\.tasks\.running`/],
    ['duplicate vertex ids', endpoints.jobDetails, { jobid: JOB }, { ...jobDetails(2), vertices: [jobDetails(1).vertices[0], jobDetails(1).vertices[0]] }, /GET \/jobs\/:jobid .*field `vertices\.1\.id` is a duplicate vertex id/],
    ['parallelism 0', endpoints.jobDetails, { jobid: JOB }, { ...jobDetails(1), vertices: [{ ...jobDetails(1).vertices[0], parallelism: 0 }] }, /field `vertices\.0\.parallelism`/],
    ['busy time of 1.8e19 ms/s', endpoints.subtaskMetricsAggregated, { jobid: JOB, vertexid: vertexId(1) }, [metric('busyTimeMsPerSecond', 1.8e19, 10)], /GET \/jobs\/:jobid\/vertices\/:vertexid\/subtasks\/metrics .*field `0\.max` is 18000000000000000000 for busyTimeMsPerSecond, above 1000 ms per second/],
    // Flink computes busy time as 1000 − min(idle + back-pressured, 1000): it is never above 1000.
    ['busy time of 1,040 ms/s', endpoints.subtaskMetricsAggregated, { jobid: JOB, vertexid: vertexId(1) }, [metric('busyTimeMsPerSecond', 1040, 900)], /field `0\.max` is 1040 for busyTimeMsPerSecond, above 1000 ms per second/],
    ['idle time of 1,060 ms/s', endpoints.subtaskMetricsAggregated, { jobid: JOB, vertexid: vertexId(1) }, [metric('idleTimeMsPerSecond', 1060, 900)], /field `0\.max` is 1060 for idleTimeMsPerSecond, above 1050 ms per second/],
    ['a subtask busy 1.8e19 ms/s, in its figures', endpoints.vertexMetrics, { jobid: JOB, vertexid: vertexId(1) }, [{ id: '0.busyTimeMsPerSecond', value: '1.8E19' }], /GET \/jobs\/:jobid\/vertices\/:vertexid\/metrics .*field `0\.value` is 18000000000000000000 for 0\.busyTimeMsPerSecond, above 1000 ms per second/],
    ['a negative record count, in its figures', endpoints.vertexMetrics, { jobid: JOB, vertexid: vertexId(1) }, [{ id: '1.numRecordsIn', value: '-4' }], /field `0\.value` is negative \(-4\) for 1\.numRecordsIn/],
    ['a negative accumulated time, in its figures', endpoints.vertexMetrics, { jobid: JOB, vertexid: vertexId(1) }, [{ id: '0.accumulateIdleTimeMs', value: '-1' }], /field `0\.value` is negative/],
    ['a busy ratio of 1.04', endpoints.vertexBackPressure, { jobid: JOB, vertexid: vertexId(1) }, { status: 'ok', backpressureLevel: 'ok', subtasks: [{ subtask: 0, backpressureLevel: 'ok', ratio: 0, busyRatio: 1.04 }] }, /field `subtasks\.0\.busyRatio`/],
    ['a job state outside JobStatus', endpoints.jobsOverview, {}, { jobs: [{ jid: JOB, name: 'j', state: 'PWNED', 'start-time': 1, 'end-time': -1, duration: 1, tasks: {} }] }, /GET \/jobs\/overview .*field `jobs\.0\.state` is not one of Flink's job states \(JobStatus\)/],
    ['a job state outside JobStatus, in its details', endpoints.jobDetails, { jobid: JOB }, { ...jobDetails(1), state: 'RUNNING\u001b[2J' }, /GET \/jobs\/:jobid .*field `state` is not one of Flink's job states/],
    ['a job that ended before it started', endpoints.jobsOverview, {}, { jobs: [{ jid: JOB, name: 'j', state: 'FINISHED', 'start-time': 2_000_000, 'end-time': 1_000_000, duration: 1, tasks: {} }] }, /field `jobs\.0\.end-time` is 1000000, before the start-time 2000000/],
    ['a job that ended before it started, in its details', endpoints.jobDetails, { jobid: JOB }, { ...jobDetails(1), state: 'FAILED', 'start-time': 2_000_000, 'end-time': 1_000_000 }, /GET \/jobs\/:jobid .*field `end-time` is 1000000, before the start-time/],
    ['a job started in the year 287,000', endpoints.jobsOverview, {}, { jobs: [{ jid: JOB, name: 'j', state: 'RUNNING', 'start-time': 9e15, 'end-time': -1, duration: 1, tasks: {} }] }, /field `jobs\.0\.start-time` is 9000000000000000, after the year 9999/],
    ['a heap used above the heap max', endpoints.taskManagerMetrics, { taskmanagerid: 'tm-1' }, [{ id: 'Status.JVM.Memory.Heap.Used', value: '9e99' }, { id: 'Status.JVM.Memory.Heap.Max', value: '501219328' }], /GET \/taskmanagers\/:taskmanagerid\/metrics .*field `0\.value` is 9e\+99 for Status\.JVM\.Memory\.Heap\.Used, above Status\.JVM\.Memory\.Heap\.Max \(501219328\)/],
    ['more network buffers used than there are', endpoints.taskManagerMetrics, { taskmanagerid: 'tm-1' }, [{ id: 'Status.Shuffle.Netty.TotalMemorySegments', value: '4096' }, { id: 'Status.Shuffle.Netty.UsedMemorySegments', value: '5000' }], /field `1\.value` is 5000 for Status\.Shuffle\.Netty\.UsedMemorySegments/],
    ['negative idle time', endpoints.subtaskMetricsAggregated, { jobid: JOB, vertexid: vertexId(1) }, [{ id: 'idleTimeMsPerSecond', min: -5, max: 10, avg: 2 }], /field `0\.min` is negative \(-5\) for idleTimeMsPerSecond/],
    ['an average above the maximum', endpoints.subtaskMetricsAggregated, { jobid: JOB, vertexid: vertexId(1) }, [{ id: 'busyTimeMsPerSecond', min: 0, max: 10, avg: 900 }], /field `0\.avg` is outside min\.\.max/],
    ['a negative rate', endpoints.subtaskMetricsAggregated, { jobid: JOB, vertexid: vertexId(1) }, [{ id: 'numRecordsInPerSecond', min: -1, max: 1, avg: 0, sum: 0 }], /field `0\.min` is negative/],
    ['negative free slots', endpoints.taskManagers, {}, { taskmanagers: [{ id: 'tm', slotsNumber: 2, freeSlots: -1 }] }, /GET \/taskmanagers .*field `taskmanagers\.0\.freeSlots`/],
    ['a back-pressure ratio of 7', endpoints.vertexBackPressure, { jobid: JOB, vertexid: vertexId(1) }, { status: 'ok', backpressureLevel: 'high', subtasks: [{ subtask: 0, backpressureLevel: 'high', ratio: 7 }] }, /field `subtasks\.0\.ratio`/],
    ['a subtask index beyond the parallelism', endpoints.vertexDetails, { jobid: JOB, vertexid: vertexId(1) }, { ...vertex, subtasks: [{ subtask: 5, status: 'RUNNING' }] }, /field `subtasks\.0\.subtask` is 5, not below the parallelism 2/],
    ['a duplicate subtask', endpoints.vertexDetails, { jobid: JOB, vertexid: vertexId(1) }, { ...vertex, subtasks: [{ subtask: 0, status: 'RUNNING' }, { subtask: 0, status: 'RUNNING' }] }, /field `subtasks\.1\.subtask` is a duplicate subtask index/],
    ['negative bytes', endpoints.vertexDetails, { jobid: JOB, vertexid: vertexId(1) }, { ...vertex, subtasks: [{ subtask: 0, status: 'RUNNING', metrics: { 'read-bytes': -10 } }] }, /field `subtasks\.0\.metrics\.read-bytes`/],
  ];

  it.each(cases)('%s', async (_what, spec, params, body, message) => {
    const server = await hostile((_req, res) => json(res, 200, body));
    await failure(new FlinkRestClient({ baseUrl: server.url }).request(spec, params), 'unexpected-response', message);
  });

  it('idle and back-pressured time a little over 1000 ms/s (a TimerGauge updated late) read as 1000, never more', async () => {
    const server = await hostile((req, res) =>
      req.url?.includes('/backpressure')
        ? json(res, 200, { status: 'ok', backpressureLevel: 'high', subtasks: [{ subtask: 0, backpressureLevel: 'high', ratio: 1.04, idleRatio: 0, busyRatio: 0 }] })
        : json(res, 200, [metric('idleTimeMsPerSecond', 1040, 1020), metric('backPressuredTimeMsPerSecond', 1049, 1000), metric('busyTimeMsPerSecond', 1000, 1000)]),
    );
    const client = new FlinkRestClient({ baseUrl: server.url });
    const metrics = await client.request(endpoints.subtaskMetricsAggregated, { jobid: JOB, vertexid: vertexId(1) });
    expect(metrics.map((m) => [m.id, m.min, m.max, m.avg])).toEqual([
      ['idleTimeMsPerSecond', 0, 1000, 1000],
      ['backPressuredTimeMsPerSecond', 0, 1000, 1000],
      ['busyTimeMsPerSecond', 0, 1000, 1000],
    ]);
    const backPressure = await client.request(endpoints.vertexBackPressure, { jobid: JOB, vertexid: vertexId(1) });
    expect(backPressure.subtasks?.[0].ratio).toBe(1);
  });

  it('a heap max of -1 (the JVM sets none) is no bound', async () => {
    const server = await hostile((_req, res) => json(res, 200, [{ id: 'Status.JVM.Memory.Heap.Used', value: '1000' }, { id: 'Status.JVM.Memory.Heap.Max', value: '-1' }]));
    await expect(new FlinkRestClient({ baseUrl: server.url }).request(endpoints.taskManagerMetrics, { taskmanagerid: 'tm-1' })).resolves.toHaveLength(2);
  });

  it('another job\'s details for the requested job id: refused, naming `jid`', async () => {
    const other = 'b'.repeat(32);
    const server = await hostile((_req, res) => json(res, 200, jobDetails(1, other)));
    await failure(fetchJobGraph(new FlinkRestClient({ baseUrl: server.url }), 'c', JOB), 'unexpected-response', new RegExp(`GET /jobs/:jobid .* answered about ${other} when asked about ${JOB}: field \`jid\` does not match`));
  });

  it('another vertex\'s details: refused, naming `id`', async () => {
    const server = await hostile((req, res) => {
      if (req.url?.endsWith('/backpressure')) json(res, 200, { status: 'deprecated' });
      else if (req.url?.endsWith('/watermarks')) json(res, 200, []);
      else json(res, 200, { id: vertexId(9), name: 'v', parallelism: 1, subtasks: [] });
    });
    await failure(fetchVertexSubtasks(new FlinkRestClient({ baseUrl: server.url }), 'c', JOB, vertexId(1)), 'unexpected-response', /field `id` does not match the request/);
  });
});

describe('a refresh reading figures per subtask (a watched job\'s reading)', () => {
  /** A 2-vertex job whose figures per subtask are answered by `figures` (or refused with it). */
  async function figuresJob(figures: (res: ServerResponse, vertex: number) => void) {
    const asked = { figures: 0, aggregates: 0 };
    const details = jobDetails(2);
    const server = await hostile((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === `/jobs/${JOB}`) return json(res, 200, details);
      const aggregated = /\/vertices\/[0-9a-f]{32}\/subtasks\/metrics$/.test(url.pathname);
      const perSubtask = /\/vertices\/([0-9a-f]{32})\/metrics$/.exec(url.pathname);
      if (aggregated) return asked.aggregates++, json(res, 200, [...healthyMetrics, metric('numRecordsIn', 10)]);
      if (perSubtask) return asked.figures++, figures(res, parseInt(perSubtask[1], 16));
      json(res, 404, { errors: ['Not found'] });
    });
    return { client: new FlinkRestClient({ baseUrl: server.url, timeoutMs: 500 }), asked, all: new Set([vertexId(1), vertexId(2)]) };
  }
  const figuresOf = (busy: number[]) =>
    busy.flatMap((b, k) => [
      { id: `${k}.busyTimeMsPerSecond`, value: String(b) },
      ...['backPressuredTimeMsPerSecond', 'idleTimeMsPerSecond', 'numRecordsInPerSecond', 'numRecordsOutPerSecond', 'numRecordsIn'].map((name) => ({ id: `${k}.${name}`, value: '5' })),
    ]);

  it('a server that does not know the request (a proxy\'s shorter request line): Flink\'s aggregates instead, and never asked again', async () => {
    const { client, asked, all } = await figuresJob((res) => json(res, 404, { errors: ['Unable to load requested file /bad-request.'] }));
    const first = await fetchJobGraph(client, 'c', JOB, { perSubtask: all });
    expect(first.vertices.every((v) => v.busyTimeMsPerSecond?.max === 800)).toBe(true);
    expect(first.subtaskFigures).toBeUndefined();
    const asks = asked.figures;
    await fetchJobGraph(client, 'c', JOB, { perSubtask: all });
    expect(asked.figures).toBe(asks);
    expect(asked.aggregates).toBe(4);
  });

  it('an impossible figure: that vertex\'s metrics unavailable, naming the field; the other vertex is read', async () => {
    const { client, all } = await figuresJob((res, vertex) => json(res, 200, figuresOf(vertex === 1 ? [1e9, 3] : [400, 600])));
    const graph = await fetchJobGraph(client, 'c', JOB, { perSubtask: all });
    expect(graph.vertices[0].metricsUnavailable).toMatch(/GET \/jobs\/:jobid\/vertices\/:vertexid\/metrics .*field `0\.value` is 1000000000 for 0\.busyTimeMsPerSecond/);
    expect(graph.vertices[1].busyTimeMsPerSecond).toEqual({ min: 400, max: 600, avg: 500, sum: 1000 });
    expect([...(graph.subtaskFigures?.keys() ?? [])]).toEqual([vertexId(2)]);
  });

  it('figures that never come: the refresh ends after two deadlines, the vertices said to be unread', async () => {
    const { client, all } = await figuresJob(() => undefined);
    const { millis, result } = await timed(() => fetchJobGraph(client, 'c', JOB, { perSubtask: all }));
    expect(millis).toBeLessThan(2 * 500 + 400);
    expect(result!.vertices.every((v) => v.metricsUnavailable !== undefined)).toBe(true);
  });
});

describe('redirects stay within the cluster\'s origin', () => {
  it('follows a redirect within the origin, with the credentials', async () => {
    const seen: string[] = [];
    const server = await hostile((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization ?? '-'}`);
      if (req.url === '/config') {
        res.writeHead(301, { location: '/v1/config' });
        res.end();
      } else json(res, 200, { 'flink-version': '2.2.1' });
    });
    const client = new FlinkRestClient({ baseUrl: server.url, auth: { kind: 'bearer', token: 't0ken' } });
    expect((await client.request(endpoints.config))['flink-version']).toBe('2.2.1');
    expect(seen).toEqual(['/config Bearer t0ken', '/v1/config Bearer t0ken']);
  });

  it('refuses a redirect to another host or port, naming the target; the other server is never asked', async () => {
    const elsewhere: string[] = [];
    const other = await hostile((req, res) => {
      elsewhere.push(String(req.headers.authorization));
      json(res, 200, { 'flink-version': '9.9.9' });
    });
    const server = await hostile((_req, res) => {
      res.writeHead(302, { location: `${other.url}/config` });
      res.end();
    });
    const client = new FlinkRestClient({ baseUrl: server.url, auth: { kind: 'basic', username: 'u', password: 'p' } });
    const error = await failure(checkFlinkCluster(client), 'redirect-refused', new RegExp(`GET /config on ${server.url} was redirected \\(302\\) to ${other.url}/config, another origin than the cluster's: not followed`));
    expect(error.info.message).not.toMatch(/does not look like a Flink REST API/);
    expect(elsewhere).toEqual([]);
  });

  it('refuses a redirect from https to http, naming the target', async () => {
    const plain = await hostile((_req, res) => json(res, 200, { 'flink-version': '9.9.9' }));
    const secure = await hostile((_req, res) => {
      res.writeHead(307, { location: `${plain.url}/config` });
      res.end();
    }, { tls: true });
    const client = createClient({ name: 't', url: secure.url, auth: { kind: 'none' }, caFile: TEST_CA_FILE, timeoutMs: 2000 }, undefined);
    await failure(client.request(endpoints.config), 'redirect-refused', new RegExp(`redirected \\(307\\) to ${plain.url}/config, which would drop TLS \\(https to http\\)`));
  });
});

describe('the job graph of a big job', () => {
  /** A cluster with `vertexCount` running vertices; `broken` vertices' metrics fail as `fault` says. */
  async function bigJob(vertexCount: number, fault: (index: number, res: ServerResponse) => boolean = () => false): Promise<{ server: HostileServer; metricRequests: () => number }> {
    let metricRequests = 0;
    const details = jobDetails(vertexCount);
    const server = await hostile((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === `/jobs/${JOB}`) return json(res, 200, details);
      const match = /^\/jobs\/[0-9a-f]{32}\/vertices\/([0-9a-f]{32})\/subtasks\/metrics$/.exec(url.pathname);
      if (!match) return json(res, 404, { errors: ['Not found'] });
      metricRequests++;
      if (!fault(parseInt(match[1], 16), res)) json(res, 200, healthyMetrics);
    });
    return { server, metricRequests: () => metricRequests };
  }

  it('one vertex failing with 503 among 200: the graph shows all 200, 199 with metrics, one "metrics unavailable"', async () => {
    const { server } = await bigJob(200, (i, res) => i === 57 && (json(res, 503, { errors: ['Service temporarily unavailable due to an ongoing leader election.'] }), true));
    const graph = await fetchJobGraph(new FlinkRestClient({ baseUrl: server.url }), 'c', JOB);
    expect(graph.vertices).toHaveLength(200);
    expect(graph.vertices.filter((v) => v.busyTimeMsPerSecond !== null)).toHaveLength(199);
    const broken = graph.vertices.find((v) => v.id === vertexId(57))!;
    expect(broken.busyTimeMsPerSecond).toBeNull();
    expect(broken.metricsUnavailable).toMatch(/failed GET \/jobs\/:jobid\/vertices\/:vertexid\/subtasks\/metrics with 503: Service temporarily unavailable/);
    expect(graph.vertices.filter((v) => v.metricsUnavailable !== undefined)).toHaveLength(1);
    expect(graph.requestCount).toBe(201);
    expect(graph.metricsSampling).toBeUndefined();
  });

  it('one vertex whose metrics come only after three deadlines: it times out alone, the graph does not wait for it', async () => {
    // Vertex 3's metrics come only after three deadlines: the graph must not wait for them.
    const { server, metricRequests } = await bigJob(20, (i, res) => {
      if (i !== 3) return false;
      const late = setTimeout(() => json(res, 200, healthyMetrics), 3 * 500);
      res.on('close', () => clearTimeout(late));
      return true;
    });
    const graph = await fetchJobGraph(new FlinkRestClient({ baseUrl: server.url, timeoutMs: 500 }), 'c', JOB);
    expect(graph.vertices.find((v) => v.id === vertexId(3))!.metricsUnavailable).toMatch(/got no answer within 500 ms/);
    expect(graph.vertices.filter((v) => v.metricsUnavailable !== undefined)).toHaveLength(1);
    expect(graph.vertices.filter((v) => v.busyTimeMsPerSecond !== null)).toHaveLength(19);
    // Asked once, not again: one deadline, not one per retry.
    expect(metricRequests()).toBe(20);
    expect(graph.requestCount).toBe(1 + 20);
  });

  it('200 vertices whose metrics never come: the refresh still ends after two deadlines, not 50', async () => {
    const { server, metricRequests } = await bigJob(200, () => true);
    const result = await fetchJobGraph(new FlinkRestClient({ baseUrl: server.url, timeoutMs: 300 }), 'c', JOB);
    expect(result.vertices).toHaveLength(200);
    expect(result.vertices.every((v) => v.metricsUnavailable !== undefined)).toBe(true);
    // One wave of requests (the client's concurrency) used up the refresh's one metrics deadline; the other 196 were
    // never sent. Waiting their turn, each with its own deadline, would have sent all 200 in 50 waves.
    expect(result.vertices.filter((v) => /got no answer within 300 ms/.test(v.metricsUnavailable!))).toHaveLength(4);
    expect(result.vertices.filter((v) => /was not sent: the deadline of the refresh/.test(v.metricsUnavailable!))).toHaveLength(196);
    expect(result.requestCount).toBe(1 + 4);
    expect(metricRequests()).toBe(4);
  });

  it('"requests this refresh" counts this refresh only, whatever else the client does meanwhile', async () => {
    const { server } = await bigJob(30);
    const client = new FlinkRestClient({ baseUrl: server.url });
    const noise = Array.from({ length: 50 }, () => client.request(endpoints.jobDetails, { jobid: JOB }));
    const [graph] = await Promise.all([fetchJobGraph(client, 'c', JOB), ...noise]);
    expect(graph.requestCount).toBe(31);
    expect(client.stats.requests).toBe(81);
  });

  it(`2,000 vertices: ${MAX_VERTEX_METRIC_REQUESTS} metric requests per refresh, in turns, and the graph says what was sampled`, async () => {
    const { server, metricRequests } = await bigJob(2000);
    const client = new FlinkRestClient({ baseUrl: server.url });
    const first = await fetchJobGraph(client, 'c', JOB);
    expect(first.requestCount).toBe(1 + MAX_VERTEX_METRIC_REQUESTS);
    expect(first.metricsSampling).toEqual({ sampled: MAX_VERTEX_METRIC_REQUESTS, of: 2000, maxPerRefresh: MAX_VERTEX_METRIC_REQUESTS });
    expect(first.vertices.filter((v) => v.busyTimeMsPerSecond !== null)).toHaveLength(MAX_VERTEX_METRIC_REQUESTS);
    expect(first.vertices.find((v) => v.busyTimeMsPerSecond === null)!.metricsUnavailable).toMatch(/Not sampled yet: .* 200 of its 2000 running vertices in turns/);
    let last = first;
    for (let i = 1; i < 2000 / MAX_VERTEX_METRIC_REQUESTS; i++) last = await fetchJobGraph(client, 'c', JOB);
    // After one round every vertex has metrics: this refresh's, or its latest sample with its time.
    expect(last.vertices.every((v) => v.busyTimeMsPerSecond !== null)).toBe(true);
    expect(last.vertices.filter((v) => v.metricsFetchedAt !== undefined)).toHaveLength(2000 - MAX_VERTEX_METRIC_REQUESTS);
    expect(metricRequests()).toBe(2000);
  });
});
