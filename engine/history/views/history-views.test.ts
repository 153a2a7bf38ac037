import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createClient, type ClusterConnection } from '../../clusters/cluster-connections.ts';
import { startLocalEngine, type LocalEngineHandle } from '../../local/start-local-engine.ts';
import { tempDirs } from '../../local/testing/engine-test-kit.ts';
import { ManualClock } from '../../local/time/clock.ts';
import { JobWatcher } from '../../sampling/job-watcher.ts';
import { HistoryStore } from '../history-store.ts';
import { checkpointDetail, jobCheckpoints } from './checkpoint-views.ts';
import { jobMetricsHistory } from './metrics-history.ts';
import { recordedJobGraph, recordedJobs } from './recorded-jobs.ts';

/**
 * The history views over a real recording: the hot-tenant scenario with checkpoints, sampled every 10 s of virtual
 * time for three minutes, with the cluster unreachable for 30 s and a TaskManager killed on the way.
 */
const dirs = tempDirs('flink-ops-history-views-');
const T0 = Date.UTC(2026, 10, 30, 3, 0, 0);
let handle: LocalEngineHandle;
let store: HistoryStore;
let jobId: string;
const vertexIds: Record<string, string> = {};

beforeAll(async () => {
  handle = await startLocalEngine({
    port: 0,
    time: 'manual',
    clock: new ManualClock(T0),
    scenario: 'hot-tenant',
    checkpointDir: dirs.make(),
    restartStrategy: 'fixed-delay',
    restartAttempts: 3,
    restartDelayMs: 1_000,
  });
  jobId = [...handle.engine.cluster.jobs.keys()][0];
  for (const v of handle.engine.cluster.jobs.get(jobId)!.vertices) vertexIds[v.jobVertex.name] = v.jobVertex.id;
  store = HistoryStore.open(dirs.make(), { now: () => handle.engine.now() });
  const reachable = connect(createClient({ name: 'local', url: handle.url, auth: { kind: 'none' }, timeoutMs: 5_000 }, undefined));
  const unreachable = connect(createClient({ name: 'local', url: 'http://127.0.0.1:1', auth: { kind: 'none' }, timeoutMs: 5_000 }, undefined));
  let connection: ClusterConnection = reachable;
  const watcher = new JobWatcher({ history: store, connection: () => connection, now: () => handle.engine.now() });
  for (let s = 10; s <= 180; s += 10) {
    handle.engine.advance(10_000);
    connection = s >= 100 && s < 130 ? unreachable : reachable;
    if (s === 140) await fetch(`${handle.url}/local-engine/v1/taskmanagers/${handle.engine.cluster.taskManagers[0].id}/kill`, { method: 'POST' });
    await watcher.sampleNow('local', jobId);
    await watcher.sampleNow('local', jobId); // a second look: the details of a checkpoint left behind
  }
}, 120_000);

afterAll(async () => {
  await store?.close();
  await handle?.close();
  dirs.removeAll();
});

describe('the history views of a recorded job', () => {
  it('lists the checkpoints with Flink\'s counts and summary, and marks the gap and the restart', () => {
    const view = jobCheckpoints(store, 'local', jobId, 60, null);
    const completed = view.checkpoints.filter((c) => c.status === 'COMPLETED');
    expect(completed.length).toBeGreaterThanOrEqual(12);
    expect(completed.every((c) => c.stateBytes! > 0 && c.endToEndDurationMs !== null)).toBe(true);
    expect(view.latestCompleted?.id).toBe(completed[completed.length - 1].id);
    expect(view.flink?.summary.endToEndDurationMs?.max).toBeGreaterThan(1000);
    expect(view.restored).toMatchObject({ isSavepoint: false });
    expect(view.markers.map((m) => m.kind)).toEqual(expect.arrayContaining(['gap', 'restart', 'restored']));
    const gap = view.markers.find((m) => m.kind === 'gap')!;
    expect(gap.until! - gap.t).toBe(30_000);
    expect(view.emptyReason).toBeNull();
  });

  it('names the hot tenant-cost subtask in a checkpoint after the shift, by its start delay', () => {
    const view = jobCheckpoints(store, 'local', jobId, 60, null);
    const afterShift = view.checkpoints.find((c) => c.status === 'COMPLETED' && c.details === 'stored' && c.triggerTimestamp >= T0 + 60_000)!;
    const detail = checkpointDetail(store, 'local', jobId, afterShift.id, afterShift.triggerTimestamp);
    expect(detail.finding).toMatch(/^subtask 12 of tenant-cost started its checkpoint \d+(\.\d)? s late while the others took < \d+ ms: data skew or backpressure on that subtask is the usual cause\.$/);
    expect(detail.vertices.map((v) => v.name)).toEqual(['Source: gateway-events -> parse', 'assemble', 'tenant-cost -> Sink: usd-sink']);
    const tenantCost = detail.vertices[2];
    expect(tenantCost.subtasks).toHaveLength(32);
    const delays = tenantCost.subtasks!.map((s) => s.startDelayMs!);
    expect(delays.indexOf(Math.max(...delays))).toBe(12);
  });

  it('draws busy time and backpressure per vertex over a window, with the gap as a gap', () => {
    const history = jobMetricsHistory(store, 'local', jobId, T0, T0 + 180_000);
    const tenantCost = history.vertices.find((v) => v.vertexId === vertexIds['tenant-cost -> Sink: usd-sink'])!;
    expect(tenantCost.peakBusyMax).toBeGreaterThan(900);
    const assemble = history.vertices.find((v) => v.vertexId === vertexIds.assemble)!;
    expect(assemble.peakBackPressuredMax).toBeGreaterThan(500);
    const gapPoints = tenantCost.points.filter((p) => p.busyMax === null && p.t > T0 + 90_000 && p.t < T0 + 130_000);
    expect(gapPoints).toHaveLength(1);
    expect(history.markers.some((m) => m.kind === 'restart' && m.t >= T0 + 140_000)).toBe(true);
  });

  it('offers the recorded job and its last sampled graph, as the job page shows a job the cluster forgot', () => {
    expect(recordedJobs(store, 'local', () => null)).toEqual([expect.objectContaining({ jobId, name: 'gatewaymeter', lastState: 'RUNNING' })]);
    const recorded = recordedJobGraph(store, 'local', jobId, null)!;
    expect(recorded.recording.checkpoints).toBeGreaterThanOrEqual(12);
    expect(recorded.graph.vertices.map((v) => v.name)).toHaveLength(3);
    expect(recorded.graph.edges).toHaveLength(2);
    expect(recordedJobGraph(store, 'local', 'f'.repeat(32), null)).toBeNull();
  });
});
