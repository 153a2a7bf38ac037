import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../flink-rest/endpoints.ts';
import { toJobGraph, toJobPlan } from './job-graph.ts';

const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/flink/recorded/2.2.1');
const read = (file: string): unknown => JSON.parse(readFileSync(path.join(RECORDED, file), 'utf8'));

/** The recorded running job and its per-vertex metrics, as the JobManager would still serve them after it died. */
function recorded(state: string, endTime = -1) {
  const details = endpoints.jobDetails.response.parse({ ...(read('job-detail.json') as object), state, 'end-time': endTime });
  const metrics = readdirSync(path.join(RECORDED, 'vertices'))
    .sort()
    .map((v) => endpoints.subtaskMetricsAggregated.response.parse(read(`vertices/${v}/subtasks-metrics.json`)));
  return { details, metrics };
}

describe('toJobGraph: only a RUNNING job has rates', () => {
  it('RUNNING: rates, busy time, skew and backpressure', () => {
    const { details, metrics } = recorded('RUNNING');
    const graph = toJobGraph('c', details, metrics);
    expect(graph.endTime).toBeNull();
    expect(graph.vertices[0]).toMatchObject({ backpressureLevel: 'high', recordsOutPerSecond: expect.any(Number) });
  });

  it.each(['FAILED', 'CANCELED', 'RESTARTING', 'FAILING', 'FINISHED'])('%s: no figures, however recent the last sample', (state) => {
    const { details, metrics } = recorded(state, 1_795_970_000_000);
    const graph = toJobGraph('c', details, metrics);
    expect(graph.state).toBe(state);
    expect(graph.endTime).toBe(1_795_970_000_000);
    for (const v of graph.vertices) {
      expect(v).toMatchObject({
        recordsInPerSecond: null,
        recordsOutPerSecond: null,
        busyTimeMsPerSecond: null,
        backPressuredTimeMsPerSecond: null,
        idleTimeMsPerSecond: null,
        busySkew: null,
        backpressureLevel: null,
      });
    }
  });
});

describe('toJobPlan: the structure the graph is laid out from', () => {
  it('has the graph\'s vertices and edges, in the same order, from the job details alone', () => {
    const { details, metrics } = recorded('RUNNING');
    const graph = toJobGraph('c', details, metrics);
    const plan = toJobPlan('c', details);
    expect(plan).toMatchObject({ clusterId: 'c', jobId: graph.jobId, name: graph.name, edges: graph.edges });
    expect(plan.vertices).toEqual(graph.vertices.map(({ id, name, parallelism }) => ({ id, name, parallelism })));
    expect(plan.edges.length).toBeGreaterThan(0);
  });
});
