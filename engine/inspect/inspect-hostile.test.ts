import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorKind } from '../contracts/errors.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { fetchConfiguration } from './fetch-configuration.ts';
import { fetchProcessFigures } from './fetch-process-figures.ts';
import { fetchVertexInspection } from './fetch-vertex-inspection.ts';

/**
 * The inspect views against clusters that lie: impossible figures fail naming the endpoint and the field; what a
 * cluster may legitimately lack (an older Flink's environment, a vertex without metrics) is shown as not known.
 */
const servers: HostileServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const JOB = 'a'.repeat(32);
const VERTEX = 'b'.repeat(32);
const NOW = 1_796_197_602_900;

type Routes = Record<string, unknown | ((req: IncomingMessage) => { status: number; body: unknown })>;

async function cluster(routes: Routes): Promise<{ client: FlinkRestClient; asked: string[] }> {
  const asked: string[] = [];
  const server = await startHostileServer((req, res: ServerResponse) => {
    asked.push(req.url!);
    const path = req.url!.split('?')[0];
    const route = routes[path];
    if (route === undefined) return json(res, 404, { errors: ['Not found: ' + path] });
    if (typeof route === 'function') {
      const { status, body } = route(req);
      return json(res, status, body);
    }
    json(res, 200, route);
  });
  servers.push(server);
  return { client: new FlinkRestClient({ baseUrl: server.url, timeoutMs: 2000 }), asked };
}

async function failure(promise: Promise<unknown>, kind: ErrorKind, message: RegExp): Promise<void> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(EngineError);
  expect((error as EngineError).info.kind).toBe(kind);
  expect((error as EngineError).info.message).toMatch(message);
}

const base = `/jobs/${JOB}/vertices/${VERTEX}`;
/** A Flink 2.3.0-shaped vertex (the e2e cluster's `throttle`), parallelism 2. */
function vertexRoutes(overrides: Routes = {}): Routes {
  const timestamps = (running: number) => ({ CREATED: NOW - 30_000, SCHEDULED: NOW - 29_700, DEPLOYING: NOW - 29_600, INITIALIZING: NOW - 28_700, RUNNING: running, FINISHED: 0, FAILED: 0, CANCELED: 0 });
  return {
    [`${base}/subtasktimes`]: { id: VERTEX, name: 'throttle', now: NOW, subtasks: [0, 1].map((i) => ({ subtask: i, endpoint: 'localhost:40259', duration: 29_355, timestamps: timestamps(NOW - 28_000 + i * 500) })) },
    [`${base}/taskmanagers`]: {
      id: VERTEX,
      name: 'throttle',
      now: NOW,
      taskmanagers: [{ endpoint: 'localhost:40259', 'taskmanager-id': '127.0.0.1:36653-7d3306', status: 'RUNNING', 'start-time': NOW - 29_600, 'end-time': -1, duration: 29_218, metrics: { 'read-records': 16670, 'write-records': 16669 }, 'status-counts': { RUNNING: 2, FAILED: 0 } }],
    },
    [`${base}/watermarks`]: [
      { id: '0.currentInputWatermark', value: String(NOW - 23_208) },
      { id: '1.currentInputWatermark', value: String(NOW - 6_757) },
    ],
    [`${base}/accumulators`]: { id: VERTEX, 'user-accumulators': [{ name: 'late', type: 'LongCounter', value: '3' }] },
    [`${base}/subtasks/accumulators`]: {
      id: VERTEX,
      parallelism: 2,
      subtasks: [
        { subtask: 1, attempt: 0, endpoint: 'localhost:40259', 'user-accumulators': [{ name: 'late', type: 'LongCounter', value: '1' }] },
        { subtask: 0, attempt: 0, host: 'localhost', 'user-accumulators': [{ name: 'late', type: 'LongCounter', value: '2' }] },
      ],
    },
    ...overrides,
  };
}

describe('a vertex inspection', () => {
  it('names the low-watermark subtask and its lag to the JobManager\'s clock, in 5 requests', async () => {
    const { client } = await cluster(vertexRoutes());
    const view = await fetchVertexInspection(client, 'c1', JOB, VERTEX);
    expect(view.requestCount).toBe(5);
    expect(view.now).toBe(NOW);
    expect(view.watermarks.low).toEqual({ index: 0, watermark: NOW - 23_208, lagMs: 23_208 });
    expect(view.watermarks.spreadMs).toBe(23_208 - 6_757);
    expect(view.accumulators.vertex).toEqual([{ name: 'late', type: 'LongCounter', value: '3' }]);
    // 1.x writes `host`, 2.x `endpoint`: both read; rows in subtask order.
    expect(view.accumulators.subtasks.map((s) => [s.index, s.endpoint])).toEqual([[0, 'localhost'], [1, 'localhost:40259']]);
    expect(view.taskManagers[0]).toMatchObject({ taskManagerId: '127.0.0.1:36653-7d3306', statusCounts: { RUNNING: 2 }, recordsIn: 16670 });
    expect(view.timeline.lastRunning).toEqual({ index: 1, at: NOW - 27_500 });
  });

  it('shows a vertex without metrics yet (watermarks 500) as having no watermark, not as an error', async () => {
    const { client } = await cluster(vertexRoutes({ [`${base}/watermarks`]: () => ({ status: 500, body: { errors: ['java.util.NoSuchElementException'] } }) }));
    const view = await fetchVertexInspection(client, 'c1', JOB, VERTEX);
    expect(view.watermarks.low).toBeNull();
    expect(view.watermarks.withoutWatermark).toEqual([0, 1]);
  });

  it('refuses a duplicate subtask in the accumulators, naming the field', async () => {
    const { client } = await cluster(
      vertexRoutes({
        [`${base}/subtasks/accumulators`]: { id: VERTEX, parallelism: 2, subtasks: [0, 0].map((i) => ({ subtask: i, 'user-accumulators': [] })) },
      }),
    );
    await failure(fetchVertexInspection(client, 'c1', JOB, VERTEX), 'unexpected-response', /subtasks\/accumulators.*duplicate subtask index/s);
  });

  it('refuses a state time after the year 9999 in the subtask times', async () => {
    const { client } = await cluster(
      vertexRoutes({ [`${base}/subtasktimes`]: { id: VERTEX, now: NOW, subtasks: [{ subtask: 0, timestamps: { RUNNING: 9e15 } }] } }),
    );
    await failure(fetchVertexInspection(client, 'c1', JOB, VERTEX), 'unexpected-response', /subtasktimes.*year 9999/s);
  });

  it('refuses an answer about another vertex', async () => {
    const other = 'c'.repeat(32);
    const { client } = await cluster(vertexRoutes({ [`${base}/accumulators`]: { id: other, 'user-accumulators': [] } }));
    await failure(fetchVertexInspection(client, 'c1', JOB, VERTEX), 'unexpected-response', /accumulators/);
  });
});

describe('the configuration view', () => {
  const jobManagerConfig = [
    { key: 's3.secret-key', value: '******' },
    { key: 'rest.port', value: '8081' },
    { key: 'evil', value: '\u001b[31mred\u001b[0m' },
  ];

  it('marks redacted values, flattens the checkpoint configuration and keeps escape sequences as text', async () => {
    const { client, asked } = await cluster({
      '/jobmanager/config': jobManagerConfig,
      '/jobmanager/environment': { jvm: { version: 'OpenJDK 17', arch: 'amd64', options: ['-Xmx1g'] }, classpath: ['/opt/flink/lib/a.jar'] },
      [`/jobs/${JOB}/config`]: { jid: JOB, name: 'gatewaymeter-test', 'execution-config': { 'restart-strategy': 'Restart with fixed delay (PT5S).', 'job-parallelism': 2, 'object-reuse-mode': false, 'user-config': { 'api.token': '******', rate: '2000' } } },
      [`/jobs/${JOB}/checkpoints/config`]: { mode: 'exactly_once', interval: 10000, externalization: { enabled: true, delete_on_cancellation: false } },
    });
    const view = await fetchConfiguration(client, 'c1', JOB);
    expect(asked).toHaveLength(4);
    expect(view.requestCount).toBe(4);
    expect(view.jobManager.find((e) => e.key === 's3.secret-key')).toEqual({ key: 's3.secret-key', value: '******', redacted: true });
    expect(view.jobManager.find((e) => e.key === 'rest.port')?.redacted).toBe(false);
    expect(view.jobManager.find((e) => e.key === 'evil')?.value).toBe('\u001b[31mred\u001b[0m');
    expect(view.job?.userConfig).toEqual([{ key: 'api.token', value: '******', redacted: true }, { key: 'rate', value: '2000', redacted: false }]);
    expect(view.job).toMatchObject({ parallelism: 2, objectReuse: false });
    expect(view.checkpoints).toContainEqual({ key: 'externalization.enabled', value: 'true', redacted: false });
    expect(view.environment?.jvmVersion).toBe('OpenJDK 17');
  });

  it('has no environment on a Flink without the endpoint (404), and asks no job endpoint without a job', async () => {
    const { client, asked } = await cluster({ '/jobmanager/config': jobManagerConfig });
    const view = await fetchConfiguration(client, 'c1', null);
    expect(view.environment).toBeNull();
    expect(view.job).toBeNull();
    expect(asked.sort()).toEqual(['/jobmanager/config', '/jobmanager/environment']);
  });

  it('refuses a checkpoint setting that is a list, naming the field', async () => {
    const { client } = await cluster({
      '/jobmanager/config': jobManagerConfig,
      [`/jobs/${JOB}/config`]: { jid: JOB },
      [`/jobs/${JOB}/checkpoints/config`]: { interval: 10000, surprise: [1, 2] },
    });
    await failure(fetchConfiguration(client, 'c1', JOB), 'unexpected-response', /surprise/);
  });
});

describe('process figures', () => {
  const TM = '127.0.0.1:36653-7d3306';
  const details = {
    id: TM,
    memoryConfiguration: { taskHeap: 342255203, managedMemory: 174483049, networkMemory: 87241524 },
    metrics: {
      heapUsed: 52579456, heapCommitted: 478150656, heapMax: 478150656, nonHeapUsed: 57376464, nonHeapCommitted: 60293120, nonHeapMax: -1,
      directCount: 2682, directUsed: 93872130, directMax: 93872128,
      nettyShuffleMemorySegmentsUsed: 10, nettyShuffleMemorySegmentsTotal: 2662, nettyShuffleMemoryUsed: 327680, nettyShuffleMemoryTotal: 87228416,
      garbageCollectors: [{ name: 'All', count: 7, time: 145 }, { name: 'G1_Young_Generation', count: 7, time: 145 }],
    },
  };

  it('reads a TaskManager\'s details and metrics (2 requests); -1 ("no limit") is no figure', async () => {
    const { client } = await cluster({
      [`/taskmanagers/${encodeURIComponent(TM)}`]: details,
      [`/taskmanagers/${encodeURIComponent(TM)}/metrics`]: [{ id: 'Status.Flink.Memory.Managed.Used', value: '1024' }, { id: 'Status.Flink.Memory.Managed.Total', value: '174483049' }, { id: 'Status.JVM.Memory.Metaspace.Used', value: '4096' }],
    });
    const figures = await fetchProcessFigures(client, 'c1', TM, null);
    expect(figures.requestCount).toBe(2);
    expect(figures.kind).toBe('taskmanager');
    expect(figures.heap).toEqual({ used: 52579456, committed: 478150656, max: 478150656 });
    expect(figures.nonHeap.max).toBeNull();
    expect(figures.managed).toEqual({ used: 1024, committed: null, max: 174483049 });
    expect(figures.metaspace.used).toBe(4096);
    expect(figures.network).toEqual({ segmentsUsed: 10, segmentsTotal: 2662, bytesUsed: 327680, bytesTotal: 87228416 });
    expect(figures.garbageCollectors[0]).toEqual({ name: 'All', count: 7, timeMs: 145 });
    expect(figures.memoryConfiguration?.managedMemory).toBe(174483049);
  });

  it('reads a Flink 1.x TaskManager\'s network buffers from its older figures', async () => {
    const { nettyShuffleMemorySegmentsUsed: _u, nettyShuffleMemorySegmentsTotal: _t, ...older } = details.metrics;
    const { client } = await cluster({
      [`/taskmanagers/${encodeURIComponent(TM)}`]: { ...details, metrics: { ...older, memorySegmentsAvailable: 2600, memorySegmentsTotal: 2662 } },
      [`/taskmanagers/${encodeURIComponent(TM)}/metrics`]: [],
    });
    const figures = await fetchProcessFigures(client, 'c1', TM, null);
    expect(figures.network.segmentsUsed).toBe(62);
    expect(figures.network.segmentsTotal).toBe(2662);
  });

  it('refuses a heap used above its max, naming the field', async () => {
    const { client } = await cluster({
      [`/taskmanagers/${encodeURIComponent(TM)}`]: { ...details, metrics: { ...details.metrics, heapUsed: 2 * details.metrics.heapMax } },
      [`/taskmanagers/${encodeURIComponent(TM)}/metrics`]: [],
    });
    await failure(fetchProcessFigures(client, 'c1', TM, null), 'unexpected-response', /heapUsed/);
  });

  it('reads the JobManager\'s collectors by the names it lists, asking only for metrics it has', async () => {
    const gets: string[] = [];
    const { client } = await cluster({
      '/jobmanager/metrics': (req: IncomingMessage) => {
        const get = new URL(req.url!, 'http://x').searchParams.get('get');
        if (get === null) return { status: 200, body: ['Status.JVM.Memory.Heap.Used', 'Status.JVM.GarbageCollector.G1_Old_Generation.Count', 'Status.JVM.GarbageCollector.G1_Old_Generation.Time'].map((id) => ({ id })) };
        gets.push(get);
        return { status: 200, body: [{ id: 'Status.JVM.Memory.Heap.Used', value: '1000' }, { id: 'Status.JVM.GarbageCollector.G1_Old_Generation.Count', value: '2' }, { id: 'Status.JVM.GarbageCollector.G1_Old_Generation.Time', value: '40' }] };
      },
    });
    const figures = await fetchProcessFigures(client, 'c1', 'jobmanager', null);
    expect(figures.requestCount).toBe(2);
    expect(gets[0].split(',').sort()).toEqual(['Status.JVM.GarbageCollector.G1_Old_Generation.Count', 'Status.JVM.GarbageCollector.G1_Old_Generation.Time', 'Status.JVM.Memory.Heap.Used']);
    expect(figures.kind).toBe('jobmanager');
    expect(figures.heap.used).toBe(1000);
    expect(figures.garbageCollectors).toEqual([{ name: 'G1_Old_Generation', count: 2, timeMs: 40 }]);
    expect(figures.managed).toEqual({ used: null, committed: null, max: null });
  });
});
