/**
 * The console's client under a hostile-cluster fuzz: every request gets a fault drawn at random (seeded) — trickling,
 * silence before or after the headers, resets, truncation, bad gzip, bodies over the cap, HTML, 5xx, redirects off
 * the origin, another job's answer, impossible or mistyped values, escape sequences — and every page call the console
 * makes (overview, jobs, graph, subtasks, TaskManagers, the cluster check) runs against it. Printed: calls, how they
 * ended, crashes (anything but a typed EngineError, or an uncaught error: must be 0), hangs past the deadline (a call
 * longer than its sequential requests' deadlines allow, by more than 10% + 250 ms once the time a loaded machine stalled
 * the event loop is taken out: must be 0), and the heap after GC.
 *
 * Then a big job whose metrics never come: how long the graph's refresh takes next to one request that runs into its
 * deadline, measured in the same run (fetchJobGraph promises two deadlines at most, whatever the vertex count).
 *
 * Run: `node --expose-gc --import tsx engine/bench/client-fuzz.ts [--calls N] [--seed S] [--deadline MS] [--stuck-graph-only]`.
 */
import { spawn } from 'node:child_process';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { checkFlinkCluster } from '../clusters/cluster-check.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { mulberry32, type Random } from '../local/time/random.ts';
import { fetchClusterOverview, fetchJobs } from '../sampling/cluster-views.ts';
import { fetchTaskManagers } from '../sampling/taskmanagers.ts';
import { fetchJobGraph } from '../sampling/job-graph.ts';
import { fetchVertexSubtasks } from '../sampling/vertex-subtasks.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const CALLS = option('--calls', 1500);
const SEED = option('--seed', 7);
const DEADLINE_MS = option('--deadline', 500);
/** As many page calls at once as a page makes requests (the client's concurrency): the figure is about the client, not a CPU race. */
const PARALLEL_CALLS = 4;
/** A call may take its sequential requests' deadlines, plus this share and this slack for the callbacks after a deadline fires. */
const HANG_TOLERANCE = 0.1;
const HANG_SLACK_MS = 250;

const JOB = 'f'.repeat(32);
const vertexIds = [1, 2, 3].map((i) => i.toString(16).padStart(32, '0'));

/** What a healthy Flink 2.2 answers, per path. */
function healthy(path: string): unknown {
  const vertex = vertexIds.find((id) => path.includes(`/vertices/${id}`));
  if (path === '/config') return { 'flink-version': '2.2.1', 'flink-revision': 'fuzz', 'refresh-interval': 3000 };
  if (path === '/jobmanager/config') return [{ key: 'metrics.fetcher.update-interval', value: '10 s' }];
  if (path === '/overview') return { taskmanagers: 2, 'slots-total': 4, 'slots-available': 1, 'jobs-running': 1, 'jobs-finished': 0, 'jobs-cancelled': 0, 'jobs-failed': 0, 'flink-version': '2.2.1' };
  if (path === '/jobs/overview') return { jobs: [{ jid: JOB, name: 'fuzz-job', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 5000, tasks: { running: 6, total: 6 } }] };
  if (path === '/taskmanagers') return { taskmanagers: [{ id: 'tm-1', path: 'pekko.tcp://flink@127.0.0.1:1/user/rpc/taskmanager_0', slotsNumber: 2, freeSlots: 0, timeSinceLastHeartbeat: 1 }] };
  if (path === `/jobs/${JOB}`) {
    return {
      jid: JOB, name: 'fuzz-job', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 5000, maxParallelism: 128, now: 2,
      vertices: vertexIds.map((id, i) => ({ id, name: `op-${i}`, parallelism: 2, maxParallelism: 128, status: 'RUNNING', tasks: { running: 2 } })),
      plan: { jid: JOB, name: 'fuzz-job', nodes: vertexIds.map((id, i) => ({ id, parallelism: 2, inputs: i === 0 ? [] : [{ num: 0, id: vertexIds[i - 1], ship_strategy: 'HASH' }] })) },
    };
  }
  if (vertex && path.endsWith('/subtasks/metrics')) {
    return ['busyTimeMsPerSecond', 'backPressuredTimeMsPerSecond', 'idleTimeMsPerSecond', 'numRecordsInPerSecond', 'numRecordsOutPerSecond'].map((id) => ({ id, min: 10, max: 600, avg: 300, sum: 600 }));
  }
  if (vertex && path.endsWith('/backpressure')) return { status: 'ok', backpressureLevel: 'low', 'end-timestamp': 1, subtasks: [0, 1].map((subtask) => ({ subtask, backpressureLevel: 'low', ratio: 0.2, idleRatio: 0.3, busyRatio: 0.5 })) };
  if (vertex && path.endsWith('/watermarks')) return [{ id: '0.currentInputWatermark', value: '1700000000000' }];
  if (vertex) return { id: vertex, name: 'op', parallelism: 2, maxParallelism: 128, subtasks: [0, 1].map((subtask) => ({ subtask, status: 'RUNNING', attempt: 0, endpoint: '127.0.0.1:1', metrics: { 'read-bytes': 1, 'write-bytes': 1, 'read-records': 1, 'write-records': 1 } })) };
  return undefined;
}

/** Replaces one number (or string) somewhere in the body with something no Flink would send. */
function corrupt(body: unknown, random: Random): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as unknown;
  const leaves: Array<{ parent: Record<string, unknown>; key: string }> = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'number' || typeof value === 'string') leaves.push({ parent: node as Record<string, unknown>, key });
      else walk(value);
    }
  };
  walk(copy);
  if (leaves.length === 0) return copy;
  const leaf = leaves[Math.floor(random() * leaves.length)];
  const poison = [-1, 1.5, 1.8e19, -1e308, 'NaN', null, true, {}, [], '\u001b]0;pwned\u0007\u001b[2J', 'x'.repeat(10_000)];
  leaf.parent[leaf.key] = poison[Math.floor(random() * poison.length)];
  return copy;
}

type Fault = (req: IncomingMessage, res: ServerResponse, path: string, random: Random) => void;

const send = (res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
};

let otherOrigin = '';
const FAULTS: Array<[string, number, Fault]> = [
  ['healthy', 30, (_req, res, path) => send(res, healthy(path) === undefined ? 404 : 200, JSON.stringify(healthy(path) ?? { errors: ['Not found'] }))],
  ['impossible value', 12, (_req, res, path) => send(res, 200, JSON.stringify(corrupt(healthy(path) ?? {}, mulberry32(path.length))))],
  ['wrong types', 4, (_req, res) => send(res, 200, JSON.stringify({ jobs: 'many', taskmanagers: [1, 2], vertices: {} }))],
  ['another job', 3, (_req, res, path) => send(res, 200, JSON.stringify(path.startsWith(`/jobs/${JOB}`) ? { ...(healthy(`/jobs/${JOB}`) as object), jid: 'e'.repeat(32) } : healthy(path)))],
  ['duplicate vertices', 2, (_req, res, path) => {
    const body = healthy(path) as { vertices?: unknown[] } | undefined;
    if (body?.vertices) body.vertices = [body.vertices[0], body.vertices[0]];
    send(res, 200, JSON.stringify(body ?? {}));
  }],
  ['escape sequences', 3, (_req, res, path) => send(res, 200, JSON.stringify(healthy(path) ?? {}).replace(/"(fuzz-job|op-\d)"/g, '"\\u001b]0;x\\u0007$1\\u001b[31m"'))],
  ['trickle', 5, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
    res.on('close', () => clearInterval(timer));
  }],
  ['silence before headers', 4, () => {}],
  ['silence after headers', 4, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"jobs": [');
  }],
  ['reset mid-body', 4, (_req, res, path) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
    res.write(JSON.stringify(healthy(path) ?? {}).slice(0, 20));
    setTimeout(() => res.socket?.resetAndDestroy(), 5);
  }],
  ['truncated', 4, (_req, res, path) => {
    const text = JSON.stringify(healthy(path) ?? {});
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length + 100) });
    res.end(text);
    res.socket?.end();
  }],
  ['bad gzip', 3, (_req, res) => send(res, 200, Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' })],
  ['gzip', 2, (_req, res, path) => send(res, 200, gzipSync(JSON.stringify(healthy(path) ?? {})), { 'content-encoding': 'gzip' })],
  ['over the size cap', 1, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent++ < 40 && !res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
      res.end();
    };
    pump();
  }],
  ['html', 3, (_req, res) => send(res, 200, '<html><body>Sign in</body></html>', { 'content-type': 'text/html' })],
  ['empty', 2, (_req, res) => send(res, 200, '')],
  ['random bytes', 2, (_req, res, _path, random) => send(res, 200, Buffer.from(Array.from({ length: 64 }, () => Math.floor(random() * 256))))],
  ['5xx', 4, (_req, res) => send(res, 503, JSON.stringify({ errors: ['Service temporarily unavailable\n\tat org.apache.flink...'] }))],
  ['404', 2, (_req, res) => send(res, 404, JSON.stringify({ errors: ['Not found'] }))],
  ['redirect off-origin', 3, (req, res) => send(res, 302, '', { location: `${otherOrigin}${req.url}` })],
  ['redirect loop', 1, (req, res) => send(res, 307, '', { location: req.url ?? '/' })],
];

/** The hostile cluster, in its own process so that its work never delays the client's timers. */
async function serve(): Promise<void> {
  const random = mulberry32(SEED);
  const totalWeight = FAULTS.reduce((s, [, w]) => s + w, 0);
  const pick = (): Fault => {
    let r = random() * totalWeight;
    for (const [, weight, fault] of FAULTS) if ((r -= weight) < 0) return fault;
    return FAULTS[0][2];
  };
  const server = http.createServer((req, res) => pick()(req, res, new URL(req.url ?? '/', 'http://x').pathname, random));
  const other = http.createServer((_req, res) => send(res, 200, JSON.stringify({ 'flink-version': 'not the cluster' })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  process.stdout.write(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  // Ends with the parent.
  process.stdin.resume().on('end', () => process.exit(0));
}

async function startHostileCluster(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', '--seed', String(SEED)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^READY (\S+)$/m.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the hostile cluster exited (${code}) before it was ready`)));
  });
  return { url, stop: () => child.kill() };
}

async function main(): Promise<void> {
  const random = mulberry32(SEED + 1);
  const cluster = await startHostileCluster();
  const url = cluster.url;

  let uncaught = 0;
  process.on('uncaughtException', () => uncaught++);
  process.on('unhandledRejection', () => uncaught++);

  /** Page calls, with how many requests each makes one after another (each under its own deadline). */
  const CALL_KINDS: Array<[string, number, (client: FlinkRestClient) => Promise<unknown>]> = [
    ['cluster check', 2, (c) => checkFlinkCluster(c)],
    ['overview', 1, (c) => fetchClusterOverview(c, 'fuzz', 10_000)],
    ['jobs', 1, (c) => fetchJobs(c)],
    ['job graph', 2, (c) => fetchJobGraph(c, 'fuzz', JOB)],
    ['subtasks', 1, (c) => fetchVertexSubtasks(c, 'fuzz', JOB, vertexIds[1])],
    ['TaskManagers', 1, (c) => fetchTaskManagers(c)],
  ];

  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const loadBefore = loadavg()[0];
  const outcomes = new Map<string, number>();
  let crashes = 0;
  let hangs = 0;
  let worstRatio = 0;
  let worstLateness = 0;
  let requests = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: PARALLEL_CALLS }, async () => {
      while (next < CALLS) {
        next++;
        const [, sequential, call] = CALL_KINDS[Math.floor(random() * CALL_KINDS.length)];
        // One client per call, as one cluster per page: queueing behind other calls is not what is measured.
        const client = new FlinkRestClient({ baseUrl: url, timeoutMs: DEADLINE_MS });
        const budget = sequential * DEADLINE_MS;
        const t0 = performance.now();
        // How long this event loop could not run during the call (a loaded, shared machine stalls it for hundreds of
        // ms at a time): time that delays the deadline's timer and what follows it, and is not the client's doing.
        const stalls = monitorEventLoopDelay({ resolution: 10 });
        stalls.enable();
        let outcome: string;
        try {
          await call(client);
          outcome = 'data';
        } catch (error) {
          if (error instanceof EngineError) outcome = error.info.kind;
          else {
            crashes++;
            outcome = `crash: ${(error as Error)?.message ?? String(error)}`;
          }
        }
        const millis = performance.now() - t0;
        requests += client.stats.requests;
        stalls.disable();
        // Each sample is how late a 10 ms timer fired: their sum is the time the loop was held up.
        const lateness = stalls.count > 0 ? Math.max(0, (stalls.mean / 1e6 - 10) * stalls.count) : 0;
        worstLateness = Math.max(worstLateness, lateness);
        worstRatio = Math.max(worstRatio, (millis - lateness) / budget);
        if (millis - lateness > budget * (1 + HANG_TOLERANCE) + HANG_SLACK_MS) hangs++;
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  cluster.stop();
  global.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  const data = outcomes.get('data') ?? 0;
  const typed = [...outcomes].filter(([k]) => k !== 'data' && !k.startsWith('crash')).sort((a, b) => b[1] - a[1]);
  const line = (label: string, value: string, target = '') => console.log(`  ${label.padEnd(28)}${value.padStart(12)}${target ? `   ${target}` : ''}`);
  line('calls', String(CALLS), `${requests} requests, ${FAULTS.length} kinds of fault, seed ${SEED}, ${seconds.toFixed(1)} s, load average ${loadBefore.toFixed(1)} on ${availableParallelism()} cores`);
  line('answered with data', String(data));
  line('refused with a typed error', String(CALLS - data - crashes), typed.map(([k, n]) => `${k} ${n}`).join(', '));
  line('crashes', String(crashes + uncaught), 'target 0');
  line(
    'hangs past the deadline',
    String(hangs),
    `target 0 (deadline ${DEADLINE_MS} ms per request; slowest call ${worstRatio.toFixed(2)}× its budget, after up to ${worstLateness.toFixed(0)} ms the machine's load stalled the event loop)`,
  );
  line('heap after GC', mib(heapAfter), `before ${mib(heapBefore)}${global.gc ? '' : ' (run with --expose-gc for a real GC)'}`);
  for (const [k] of outcomes) if (k.startsWith('crash')) console.log(`    ${k}`);
  if (crashes + uncaught > 0 || hangs > 0) process.exitCode = 1;
}

/**
 * 200 running vertices whose metrics requests are never answered, the job's details answered at once or just before
 * their own deadline: each refresh against a peer, one request to a server that never answers (one deadline).
 */
async function stuckGraph(): Promise<void> {
  const VERTICES = 200;
  let detailsDelayMs = 0;
  const details = JSON.stringify({
    jid: JOB, name: 'stuck-job', state: 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 5000, maxParallelism: 128, now: 2,
    vertices: Array.from({ length: VERTICES }, (_, i) => ({ id: (i + 1).toString(16).padStart(32, '0'), name: `op-${i}`, parallelism: 4, maxParallelism: 128, status: 'RUNNING', tasks: { running: 4 } })),
    plan: { jid: JOB, name: 'stuck-job', nodes: [] },
  });
  // Metrics (and anything else) never answered; the details after `detailsDelayMs`.
  const server = http.createServer((req, res) => {
    if (req.url === `/jobs/${JOB}`) setTimeout(() => send(res, 200, details), detailsDelayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timed = async (work: () => Promise<unknown>): Promise<number> => {
    const t0 = performance.now();
    await work().catch(() => {});
    return performance.now() - t0;
  };
  const client = new FlinkRestClient({ baseUrl: url, timeoutMs: DEADLINE_MS });
  const line = (label: string, millis: number, peer: number, target?: string) =>
    console.log(`  ${label.padEnd(44)}${`${millis.toFixed(0)} ms`.padStart(9)}${`${(millis / peer).toFixed(2)}×`.padStart(8)}${target ? `   target ≤ ${target}` : ''}`);
  console.log(`\nA ${VERTICES}-vertex job whose metrics never come (deadline ${DEADLINE_MS} ms per request)`);
  // The first round warms up the code paths (JIT, parsing the big job); the second is printed.
  for (const printed of [false, true]) {
    // The peer, measured next to the refreshes: one request that gets no answer and ends at its deadline.
    const peer = await timed(() => client.request(endpoints.overview));
    detailsDelayMs = 0;
    const atOnce = await timed(() => fetchJobGraph(client, 'bench', JOB));
    detailsDelayMs = DEADLINE_MS * 0.9;
    const late = await timed(() => fetchJobGraph(client, 'bench', JOB));
    if (!printed) continue;
    line('one request into its deadline (the peer)', peer, peer);
    line('refresh, details at once', atOnce, peer, '1 deadline');
    line('refresh, details just before their deadline', late, peer, '2 deadlines');
  }
  server.closeAllConnections();
  server.close();
}

if (args.includes('--serve')) await serve();
else {
  if (!args.includes('--stuck-graph-only')) await main();
  await stuckGraph();
}
