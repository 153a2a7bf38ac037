import { describe, expect, it } from 'vitest';
import type { JobGraph, VertexView } from '../contracts/jobs.ts';
import {
  CHECKPOINT_DETAILS_MS,
  CHECKPOINTS_MS,
  MAX_READING_BYTES,
  MAX_READING_REQUESTS,
  MOVED_READING_GAP_MS,
  SUBTASK_READING_MS,
  dueForFigures,
  movedVertices,
  newSamplingMemory,
  planSample,
  type SamplingMemory,
} from './sampling-plan.ts';

const INTERVAL = 10_000;

function vertex(i: number, over: Partial<VertexView> = {}): VertexView {
  const busy = { min: 100, max: 300, avg: 200, sum: 800 };
  return {
    id: `v${i}`,
    name: `op-${i}`,
    parallelism: 4,
    maxParallelism: 128,
    status: 'RUNNING',
    tasks: { RUNNING: 4 },
    recordsInPerSecond: 100,
    recordsOutPerSecond: 100,
    busyTimeMsPerSecond: busy,
    backPressuredTimeMsPerSecond: { min: 0, max: 0, avg: 0, sum: 0 },
    idleTimeMsPerSecond: { min: 700, max: 900, avg: 800, sum: 3200 },
    busySkew: 1.5,
    dataSkewPercent: null,
    backpressureLevel: 'ok',
    ...over,
  };
}

function graph(vertices: VertexView[], over: Partial<JobGraph> = {}): JobGraph {
  return { clusterId: 'c', jobId: 'j', name: 'job', state: 'RUNNING', startTime: 1, durationMs: 1, maxParallelism: 128, endTime: null, vertices, edges: [], fetchedAt: 0, requestCount: 0, ...over };
}

/** Plans and "takes" samples one interval apart, as the watcher does; returns what each read. */
function run(memory: SamplingMemory, graphAt: (t: number) => JobGraph, from: number, samples: number) {
  const taken: Array<{ t: number; read: string[]; checkpoints: boolean; details: number }> = [];
  for (let i = 0; i < samples; i++) {
    const t = from + i * INTERVAL;
    const g = graphAt(t);
    const plan = planSample(memory, g, t, INTERVAL);
    for (const id of plan.read) memory.readAt.set(id, t);
    if (plan.checkpoints) memory.checkpointsAt = t;
    if (plan.checkpointDetails > 0) memory.checkpointDetailsAt = t;
    memory.moved = new Set(plan.moved);
    memory.graph = g;
    taken.push({ t, read: plan.read, checkpoints: plan.checkpoints, details: plan.checkpointDetails });
  }
  return taken;
}

describe('what a background sample reads', () => {
  it('a steady 3-vertex job: every subtask every 20 s, /checkpoints once a minute, a checkpoint\'s details every 5 minutes', () => {
    const steady = graph([vertex(1), vertex(2), vertex(3)]);
    const taken = run(newSamplingMemory(), () => steady, 0, 66);
    const readings = taken.filter((s) => s.read.length > 0);
    expect(readings.map((s) => s.t)).toEqual(Array.from({ length: 33 }, (_, i) => i * SUBTASK_READING_MS));
    expect(SUBTASK_READING_MS).toBe(20_000);
    expect(readings.every((s) => s.read.length === 3)).toBe(true);
    expect(taken.filter((s) => s.checkpoints).map((s) => s.t)).toEqual(Array.from({ length: 11 }, (_, i) => i * CHECKPOINTS_MS));
    expect(taken.filter((s) => s.details > 0).map((s) => s.t)).toEqual([0, 300_000, 600_000]);
    expect(CHECKPOINT_DETAILS_MS).toBe(5 * CHECKPOINTS_MS);
  });

  it('reads at once when the aggregates move markedly, and a flapping level no more often than the gap allows', () => {
    const memory = newSamplingMemory();
    run(memory, () => graph([vertex(1), vertex(2)]), 0, 3);
    // Read at 20 s. Busy max +100 ms/s: not marked. +400: marked, read at once (before its cadence) — but only the moved vertex.
    expect(planSample(memory, graph([vertex(1, { busyTimeMsPerSecond: { min: 0, max: 400, avg: 200, sum: 800 } }), vertex(2)]), 30_000, INTERVAL).read).toEqual([]);
    const hot = graph([vertex(1, { busyTimeMsPerSecond: { min: 0, max: 700, avg: 200, sum: 800 } }), vertex(2)]);
    const plan = planSample(memory, hot, 30_000, INTERVAL);
    expect(plan.read).toEqual(['v1']);
    expect(plan.why).toEqual(['op-1: busy max 300 → 700 ms/s']);

    // A backpressure level flapping every interval: read every MOVED_READING_GAP_MS at most.
    const flapping = newSamplingMemory();
    const level = (t: number) => graph([vertex(1, { backpressureLevel: (t / INTERVAL) % 2 === 0 ? 'ok' : 'high' })]);
    const taken = run(flapping, level, 0, 12);
    const times = taken.filter((s) => s.read.length > 0).map((s) => s.t);
    expect(times.slice(1).map((t, i) => t - times[i]).every((gap) => gap >= MOVED_READING_GAP_MS)).toBe(true);
    expect(times.length).toBeGreaterThan(2);
  });

  it('a restart, a rescale or a job state change reads every vertex and the checkpoints at once', () => {
    const memory = newSamplingMemory();
    run(memory, () => graph([vertex(1), vertex(2)]), 0, 3);
    // Read at 20 s; 5 s later the job restarts: read at once, before its cadence.
    const restarting = planSample(memory, graph([vertex(1), vertex(2)], { state: 'RESTARTING' }), 25_000, INTERVAL);
    expect(restarting.read).toEqual(['v1', 'v2']);
    expect(restarting.checkpoints).toBe(true);
    expect(restarting.why).toEqual(['the job went from RUNNING to RESTARTING']);
    expect(movedVertices(graph([vertex(1)]), graph([vertex(1, { parallelism: 8 })])).vertices.get('v1')).toBe('op-1: parallelism 4 → 8');
    expect(movedVertices(graph([vertex(1)]), graph([vertex(1, { tasks: { RUNNING: 3, DEPLOYING: 1 } })])).vertices.get('v1')).toBe('op-1: its task counts changed');
    expect(movedVertices(graph([vertex(1)]), graph([vertex(1)], { startTime: 2 })).job).toBe('the JobManager recovered the job');
    // A vertex that has not run has no subtasks worth reading.
    expect(planSample(newSamplingMemory(), graph([vertex(1, { status: 'CREATED' }), vertex(2)]), 0, INTERVAL).read).toEqual(['v2']);
  });

  it('takes what the graph read per subtask as the reading, at no cost; asks a graph for the figures of the vertices due whose placement holds', () => {
    const memory = newSamplingMemory();
    const steady = graph([vertex(1), vertex(2), vertex(3)]);
    run(memory, () => steady, 0, 1);
    const placed = { parallelism: 4, startTime: undefined, attempt: new Int32Array(4), taskManager: Array.from({ length: 4 }, () => ({ id: 'tm', endpoint: null })) };
    memory.placements.set('v1', placed);
    memory.placements.set('v2', { ...placed, parallelism: 2 });
    // At 20 s all three are due; v1's placement holds, v2's does not (another parallelism), v3 has none.
    expect([...dueForFigures(memory, steady, 20_000, INTERVAL)]).toEqual(['v1']);
    const plan = planSample(memory, steady, 20_000, INTERVAL, new Set(['v1']));
    expect(plan.fromGraph).toEqual(['v1']);
    expect(plan.read).toEqual(['v2', 'v3']);
    // Between readings, figures a page's graph read anyway are taken too.
    for (const id of ['v1', 'v2', 'v3']) memory.readAt.set(id, 20_000);
    expect(dueForFigures(memory, steady, 30_000, INTERVAL).size).toBe(0);
    expect(planSample(memory, steady, 30_000, INTERVAL, new Set(['v1'])).fromGraph).toEqual(['v1']);
  });

  it('200 vertices × 4,096 subtasks: in turns within the request and byte budget, every vertex read within a round', () => {
    const big = graph(Array.from({ length: 200 }, (_, i) => vertex(i, { parallelism: 4096 })));
    const memory = newSamplingMemory();
    const taken = run(memory, () => big, 0, 20);
    for (const s of taken) {
      expect(2 * s.read.length).toBeLessThanOrEqual(MAX_READING_REQUESTS);
      expect(s.read.length * 4096 * memory.bytesPerSubtask).toBeLessThanOrEqual(MAX_READING_BYTES);
    }
    // Oldest reading first: the first samples read disjoint vertices until all 200 were read once.
    const firstRound = new Set<string>();
    let samples = 0;
    for (const s of taken) {
      if (firstRound.size === 200) break;
      for (const id of s.read) {
        expect(firstRound.has(id)).toBe(false);
        firstRound.add(id);
      }
      samples++;
    }
    expect(firstRound.size).toBe(200);
    expect(samples).toBe(Math.ceil(200 / taken[0].read.length));
  });
});
