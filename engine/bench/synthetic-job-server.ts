import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SyntheticJobOptions {
  /** Every vertex at this parallelism; default: a mix of 4 to 64. */
  parallelism?: number;
  /** Every vertex's max parallelism; default: 128, or the parallelism when higher. */
  maxParallelism?: number;
  /** The job's and its vertices' state. @default RUNNING */
  state?: string;
}

/**
 * Serves a generated job of `vertexCount` vertices in Flink's REST shapes, to measure the console's cost on a
 * graph bigger than any test cluster here can run: the job page's endpoints, the sampler's (vertex details with
 * per-subtask counters, watermarks, `/checkpoints`) and a completed checkpoint's details. Bodies are built once.
 * Benchmark input only; never a stand-in for a real Flink in tests.
 */
export async function startSyntheticJobServer(
  vertexCount: number,
  options: SyntheticJobOptions = {},
): Promise<{ url: string; jobId: string; vertexIds: string[]; close(): Promise<void> }> {
  const jobId = 'b'.repeat(32);
  const hex = (i: number) => i.toString(16).padStart(32, '0');
  const parallelismOf = (i: number) => options.parallelism ?? [4, 8, 16, 32, 64][i % 5];
  const vertices = Array.from({ length: vertexCount }, (_, i) => ({
    id: hex(i + 1),
    name: `Operator ${i} -> Map ${i}`,
    parallelism: parallelismOf(i),
    maxParallelism: options.maxParallelism ?? Math.max(128, parallelismOf(i)),
    status: options.state ?? 'RUNNING',
    'start-time': 1, 'end-time': -1, duration: 1000,
    tasks: { [options.state ?? 'RUNNING']: parallelismOf(i) },
    metrics: { 'read-bytes': 1, 'write-bytes': 1, 'read-records': 1, 'write-records': 1 },
  }));
  // A layered DAG: each vertex reads from one or two vertices of the previous layer of ten.
  const nodes = vertices.map((v, i) => ({
    id: v.id,
    parallelism: v.parallelism,
    operator: '', description: v.name,
    inputs: i < 10 ? undefined : [i - 10, i - 9 - (i % 3)].filter((j, k, a) => j >= 0 && a.indexOf(j) === k).map((j, num) => ({ num, id: vertices[j].id, ship_strategy: num ? 'REBALANCE' : 'HASH', exchange: 'pipelined_bounded' })),
  }));
  const details = { jid: jobId, name: `synthetic-${vertexCount}`, isStoppable: false, state: options.state ?? 'RUNNING', 'start-time': 1, 'end-time': -1, duration: 1000, maxParallelism: options.maxParallelism ?? 128, now: 2, timestamps: {}, vertices, 'status-counts': {}, plan: { jid: jobId, name: 'synthetic', type: 'STREAMING', nodes } };
  const aggregated = ['busyTimeMsPerSecond', 'backPressuredTimeMsPerSecond', 'idleTimeMsPerSecond', 'numRecordsInPerSecond', 'numRecordsOutPerSecond'].map((id) => ({ id, min: 1, max: 900, avg: 300, sum: 9000 }));
  const byId = new Map(vertices.map((v) => [v.id, v]));

  // Per-subtask figures as a real job has them: counters and accumulated times that differ from subtask to subtask.
  const subtaskMetrics = (k: number) => ({
    'read-bytes': 1_000_000 + k * 7919, 'read-bytes-complete': true, 'write-bytes': 900_000 + k * 6007, 'write-bytes-complete': true,
    'read-records': 10_000 + k * 131, 'read-records-complete': true, 'write-records': 9_000 + k * 127, 'write-records-complete': true,
    'accumulated-backpressured-time': 1_000 + (k * 37) % 5_000, 'accumulated-idle-time': 30_000 + (k * 53) % 9_000, 'accumulated-busy-time': 20_000 + (k * 71) % 7_000,
  });
  const vertexBody = new Map<string, string>();
  const watermarkBody = new Map<string, string>();
  const checkpointSubtaskBody = new Map<string, string>();
  for (const v of vertices) {
    const p = v.parallelism;
    vertexBody.set(v.id, JSON.stringify({
      id: v.id, name: v.name, parallelism: p, maxParallelism: v.maxParallelism, now: 2,
      subtasks: Array.from({ length: p }, (_, subtask) => ({ subtask, status: 'RUNNING', attempt: 0, endpoint: `tm-${subtask % 64}:6121`, 'taskmanager-id': `tm-${subtask % 64}`, 'start-time': 1, 'end-time': -1, duration: 1, metrics: subtaskMetrics(subtask) })),
    }));
    watermarkBody.set(v.id, JSON.stringify(Array.from({ length: p }, (_, i) => ({ id: `${i}.currentInputWatermark`, value: String(1_700_000_000_000 + i) }))));
    checkpointSubtaskBody.set(v.id, JSON.stringify({
      id: 1, status: 'COMPLETED', latest_ack_timestamp: 2_000, checkpointed_size: p * 4096, state_size: p * 4096, end_to_end_duration: 900,
      alignment_buffered: 0, processed_data: 0, persisted_data: 0, num_subtasks: p, num_acknowledged_subtasks: p,
      subtasks: Array.from({ length: p }, (_, index) => ({
        className: 'completed', index, ack_timestamp: 1_100 + index, end_to_end_duration: 100 + index, checkpointed_size: 4096, state_size: 4096,
        checkpoint: { sync: 1, async: 3 }, alignment: { buffered: 0, processed: 0, persisted: 0, duration: 0 }, start_delay: 5 + (index % 7), unaligned_checkpoint: false, aborted: false, status: 'completed',
      })),
    }));
  }
  const checkpoint = {
    className: 'completed', id: 1, status: 'COMPLETED', is_savepoint: false, savepointFormat: null, trigger_timestamp: 1_000, latest_ack_timestamp: 2_000,
    checkpointed_size: 1, state_size: 1, end_to_end_duration: 1_000, alignment_buffered: 0, processed_data: 0, persisted_data: 0,
    num_subtasks: vertices.reduce((s, v) => s + v.parallelism, 0), num_acknowledged_subtasks: vertices.reduce((s, v) => s + v.parallelism, 0),
    checkpoint_type: 'CHECKPOINT', tasks: {}, external_path: 'file:/checkpoints/chk-1', discarded: false,
  };
  const stats = { min: 1000, max: 1000, avg: 1000, p50: 1000, p90: 1000, p95: 1000, p99: 1000, p999: 1000 };
  const checkpointsBody = JSON.stringify({
    counts: { restored: 0, total: 1, in_progress: 0, completed: 1, failed: 0 },
    summary: { checkpointed_size: stats, state_size: stats, end_to_end_duration: stats, alignment_buffered: stats, processed_data: stats, persisted_data: stats },
    latest: { completed: checkpoint, savepoint: null, failed: null, restored: null },
    history: [checkpoint],
  });
  const checkpointDetailsBody = JSON.stringify({
    ...checkpoint,
    tasks: Object.fromEntries(vertices.map((v) => [v.id, { id: 1, status: 'COMPLETED', latest_ack_timestamp: 2_000, checkpointed_size: v.parallelism * 4096, state_size: v.parallelism * 4096, end_to_end_duration: 1_000, alignment_buffered: 0, processed_data: 0, persisted_data: 0, num_subtasks: v.parallelism, num_acknowledged_subtasks: v.parallelism }])),
  });

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/').filter(Boolean);
    const vertex = byId.get(parts[3] ?? '');
    const p = vertex?.parallelism ?? 0;
    let body: unknown = { errors: ['Not found'] };
    let status = 200;
    if (url.pathname === `/jobs/${jobId}`) body = details;
    else if (url.pathname === `/jobs/${jobId}/checkpoints`) body = checkpointsBody;
    else if (url.pathname === `/jobs/${jobId}/checkpoints/details/1`) body = checkpointDetailsBody;
    else if (parts[2] === 'checkpoints' && parts[3] === 'details' && parts[5] === 'subtasks' && checkpointSubtaskBody.has(parts[6])) body = checkpointSubtaskBody.get(parts[6]);
    else if (vertex && parts[4] === 'subtasks' && parts[5] === 'metrics') body = aggregated;
    else if (vertex && parts[4] === 'backpressure') body = { status: 'ok', backpressureLevel: 'high', 'end-timestamp': 2, subtasks: Array.from({ length: p }, (_, subtask) => ({ subtask, backpressureLevel: 'ok', ratio: 0.05, idleRatio: 0.5, busyRatio: 0.45 })) };
    else if (vertex && parts[4] === 'watermarks') body = watermarkBody.get(vertex.id);
    else if (vertex && parts.length === 4) body = vertexBody.get(vertex.id);
    else status = 404;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    jobId,
    vertexIds: vertices.map((v) => v.id),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
