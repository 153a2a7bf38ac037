import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serves a generated job of `vertexCount` vertices in Flink's REST shapes, to measure the console's cost on a
 * graph bigger than any test cluster here can run. Benchmark input only; never a stand-in for a real Flink in tests.
 */
export async function startSyntheticJobServer(
  vertexCount: number,
  /** Every vertex at this parallelism (default: 4 to 64), its max parallelism, and the job's state. */
  shape: { parallelism?: number; maxParallelism?: number; state?: string } = {},
): Promise<{ url: string; jobId: string; vertexIds: string[]; close(): Promise<void> }> {
  const jobId = 'b'.repeat(32);
  const hex = (i: number) => i.toString(16).padStart(32, '0');
  const parallelismOf = (i: number) => shape.parallelism ?? [4, 8, 16, 32, 64][i % 5];
  const vertices = Array.from({ length: vertexCount }, (_, i) => ({
    id: hex(i + 1),
    name: `Operator ${i} -> Map ${i}`,
    parallelism: parallelismOf(i),
    maxParallelism: shape.maxParallelism ?? 128,
    status: shape.state ?? 'RUNNING',
    'start-time': 1, 'end-time': -1, duration: 1000,
    tasks: { [shape.state ?? 'RUNNING']: parallelismOf(i) },
    metrics: { 'read-bytes': 1, 'write-bytes': 1, 'read-records': 1, 'write-records': 1 },
  }));
  // A layered DAG: each vertex reads from one or two vertices of the previous layer of ten.
  const nodes = vertices.map((v, i) => ({
    id: v.id,
    parallelism: v.parallelism,
    operator: '', description: v.name,
    inputs: i < 10 ? undefined : [i - 10, i - 9 - (i % 3)].filter((j, k, a) => j >= 0 && a.indexOf(j) === k).map((j, num) => ({ num, id: vertices[j].id, ship_strategy: num ? 'REBALANCE' : 'HASH', exchange: 'pipelined_bounded' })),
  }));
  const details = { jid: jobId, name: `synthetic-${vertexCount}`, isStoppable: false, state: shape.state ?? 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 1000, maxParallelism: shape.maxParallelism ?? 128, now: 2, timestamps: {}, vertices, 'status-counts': {}, plan: { jid: jobId, name: 'synthetic', type: 'STREAMING', nodes } };
  const aggregated = ['busyTimeMsPerSecond', 'backPressuredTimeMsPerSecond', 'idleTimeMsPerSecond', 'numRecordsInPerSecond', 'numRecordsOutPerSecond'].map((id) => ({ id, min: 1, max: 900, avg: 300, sum: 9000 }));
  const byId = new Map(vertices.map((v) => [v.id, v]));

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/').filter(Boolean);
    const vertex = byId.get(parts[3] ?? '');
    const p = vertex?.parallelism ?? 0;
    let body: unknown = { errors: ['Not found'] };
    let status = 200;
    if (url.pathname === `/jobs/${jobId}`) body = details;
    else if (vertex && parts[4] === 'subtasks' && parts[5] === 'metrics') body = aggregated;
    else if (vertex && parts[4] === 'backpressure') body = { status: 'ok', backpressureLevel: 'high', 'end-timestamp': 2, subtasks: Array.from({ length: p }, (_, subtask) => ({ subtask, backpressureLevel: 'ok', ratio: 0.05, idleRatio: 0.5, busyRatio: 0.45 })) };
    else if (vertex && parts[4] === 'watermarks') body = Array.from({ length: p }, (_, i) => ({ id: `${i}.currentInputWatermark`, value: '1700000000000' }));
    else if (vertex && parts.length === 4) body = { id: vertex.id, name: vertex.name, parallelism: p, maxParallelism: 128, now: 2, subtasks: Array.from({ length: p }, (_, subtask) => ({ subtask, status: 'RUNNING', attempt: 0, endpoint: 'localhost:1234', 'taskmanager-id': 'tm-1', 'start-time': 1, 'end-time': -1, duration: 1, metrics: { 'read-bytes': 10, 'write-bytes': 10, 'read-records': 1, 'write-records': 1 } })) };
    else status = 404;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    jobId,
    vertexIds: vertices.map((v) => v.id),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
