import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignKeyToParallelOperator } from '../../analysis/key-groups/key-group-range-assignment.ts';
import { requestsPerSecond } from '../gatewaymeter/generator.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';
import { loadScenario } from './scenario.ts';

/**
 * The seed scenario, read back through the REST API exactly as the console reads it, on a virtual clock:
 * two and a half virtual minutes run in seconds, and the numbers are the same on every run.
 */
const T0 = 1_767_225_600_000;
let handle: LocalEngineHandle;
let jobId: string;
const vertexIds: Record<string, string> = {};

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${handle.url}${path}`);
  expect(response.status, `GET ${path}`).toBe(200);
  return (await response.json()) as T;
}

type Aggregated = Array<{ id: string; min?: number; max?: number; avg?: number; sum?: number; skew?: number }>;
type Metrics = Array<{ id: string; value: string }>;

beforeAll(async () => {
  handle = await startLocalEngine({ scenario: 'hot-tenant', port: 0, time: 'manual', clock: new ManualClock(T0) });
  // The shift happens at 30 s; buffers fill and the 60 s metric windows settle within two minutes after it.
  handle.engine.advance(150_000);
  const jobs = await get<{ jobs: Array<{ jid: string; name: string; state: string }> }>('/jobs/overview');
  jobId = jobs.jobs[0].jid;
  const details = await get<{ vertices: Array<{ id: string; name: string }> }>(`/jobs/${jobId}`);
  for (const v of details.vertices) vertexIds[v.name] = v.id;
}, 60_000);

afterAll(async () => {
  await handle?.close();
});

describe('the hot-tenant scenario', () => {
  it('is shaped as documented: 1,000 requests/s, acme alone on its tenant-cost subtask at parallelism 32', () => {
    const scenario = loadScenario('hot-tenant');
    expect(requestsPerSecond({ seed: 0, ...scenario.traffic })).toBeCloseTo(1000, 6);
    expect(scenario.operatorParallelism['tenant-cost']).toBe(32);
    const acme = assignKeyToParallelOperator('acme', 128, 32);
    const others = Object.keys(scenario.traffic.tenants).filter((t) => t !== 'acme');
    expect(others.map((t) => assignKeyToParallelOperator(t, 128, 32))).not.toContain(acme);
    expect(new Set(others.map((t) => assignKeyToParallelOperator(t, 128, 32))).size).toBe(others.length);
    expect(Object.keys(vertexIds)).toEqual(['Source: gateway-events -> parse', 'assemble', 'tenant-cost -> Sink: usd-sink']);
  });

  it("tenant-cost's hot subtask is busy ~1,000 ms/s and max/avg busy is about 24", async () => {
    const tenantCost = vertexIds['tenant-cost -> Sink: usd-sink'];
    const acme = assignKeyToParallelOperator('acme', 128, 32);
    const [hot] = await get<Metrics>(`/jobs/${jobId}/vertices/${tenantCost}/subtasks/${acme}/metrics?get=busyTimeMsPerSecond`);
    expect(Number(hot.value)).toBeGreaterThanOrEqual(980);
    const [busy] = await get<Aggregated>(`/jobs/${jobId}/vertices/${tenantCost}/subtasks/metrics?get=busyTimeMsPerSecond&agg=max,avg,skew`);
    expect(busy.max).toBeGreaterThanOrEqual(980);
    const ratio = busy.max! / busy.avg!;
    expect(ratio).toBeGreaterThan(21);
    expect(ratio).toBeLessThan(26);
  });

  it('assemble shows HIGH backpressure', async () => {
    const bp = await get<{ status: string; backpressureLevel: string; subtasks: Array<{ ratio: number; backpressureLevel: string }> }>(
      `/jobs/${jobId}/vertices/${vertexIds.assemble}/backpressure`,
    );
    expect(bp.status).toBe('ok');
    // The vertex level is the level of its most back-pressured subtask (Flink's JobVertexBackPressureHandler).
    expect(bp.backpressureLevel).toBe('high');
    expect(Math.max(...bp.subtasks.map((s) => s.ratio))).toBeGreaterThan(0.9);
    // ... and the source, blocked by assemble, is back-pressured as well.
    const source = await get<{ backpressureLevel: string }>(`/jobs/${jobId}/vertices/${vertexIds['Source: gateway-events -> parse']}/backpressure`);
    expect(source.backpressureLevel).toBe('high');
  });

  it('throughput caps near 600 records/s', async () => {
    const tenantCost = vertexIds['tenant-cost -> Sink: usd-sink'];
    const [records] = await get<Aggregated>(`/jobs/${jobId}/vertices/${tenantCost}/subtasks/metrics?get=numRecordsInPerSecond&agg=sum`);
    expect(records.sum).toBeGreaterThan(570);
    expect(records.sum).toBeLessThan(680);
  });

  it('before the shift, nothing is saturated or back-pressured', async () => {
    const before = await startLocalEngine({ scenario: 'hot-tenant', port: 0, time: 'manual', clock: new ManualClock(T0) });
    try {
      before.engine.advance(29_000);
      const job = [...before.engine.cluster.jobs.values()][0];
      const [tenantCost] = job.vertices.slice(2);
      expect(Math.max(...tenantCost.tasks.map((t) => t.io.busyTimeMsPerSecond()))).toBeLessThan(400);
      const bp = await (await fetch(`${before.url}/jobs/${job.jobId}/vertices/${job.vertices[1].jobVertex.id}/backpressure`)).json();
      expect(bp.backpressureLevel).toBe('ok');
    } finally {
      await before.close();
    }
  });
});

describe('the hot-tenant scenario with checkpoints every 10 s, as `npm start` runs it', () => {
  it('keeps its seed figures: tenant-cost subtask 12 ~1,000 ms/s busy, max/avg ≈ 23, assemble HIGH', async () => {
    const checkpointDir = mkdtempSync(path.join(os.tmpdir(), 'hot-tenant-ckpt-'));
    const engine = await startLocalEngine({ scenario: 'hot-tenant', port: 0, time: 'manual', clock: new ManualClock(T0), checkpointDir, checkpointIntervalMs: 10_000 });
    try {
      engine.engine.advance(150_000);
      const job = [...engine.engine.cluster.jobs.values()][0];
      const { counts } = await (await fetch(`${engine.url}/jobs/${job.jobId}/checkpoints`)).json();
      expect(counts).toMatchObject({ failed: 0 });
      expect(counts.completed).toBeGreaterThanOrEqual(13);
      const [, assemble, tenantCost] = job.vertices;
      const busy = tenantCost.tasks.map((t) => t.io.busyTimeMsPerSecond());
      expect(busy[assignKeyToParallelOperator('acme', 128, 32)]).toBeGreaterThanOrEqual(980);
      const ratio = Math.max(...busy) / (busy.reduce((a, b) => a + b, 0) / busy.length);
      expect(ratio).toBeGreaterThan(21);
      expect(ratio).toBeLessThan(26);
      const bp = await (await fetch(`${engine.url}/jobs/${job.jobId}/vertices/${assemble.jobVertex.id}/backpressure`)).json();
      expect(bp.backpressureLevel).toBe('high');
    } finally {
      await engine.close();
      rmSync(checkpointDir, { recursive: true, force: true });
    }
  }, 120_000);
});
