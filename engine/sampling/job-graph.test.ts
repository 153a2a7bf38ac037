import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../flink-rest/endpoints.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { fetchJobGraph, toJobGraph, toJobPlan } from './job-graph.ts';

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
    // When each vertex was deployed, as Flink says: the first look takes no figure measured before it settled.
    expect(graph.vertices.map((v) => v.startTime)).toEqual((details.vertices ?? []).map((v) => v['start-time']));
    expect(graph.vertices.every((v) => v.startTime! > 1_700_000_000_000)).toBe(true);
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

describe('fetchJobGraph on a Flink without agg=skew (before 1.20)', () => {
  it('asks again without it, shows no Data Skew, and does not ask for it again', async () => {
    const details = read('job-detail.json') as { jid: string; vertices: Array<{ id: string }> };
    const metricsOf = read('vertices/0-source-events-parse/subtasks-metrics.json');
    const asked: string[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      asked.push(url.searchParams.get('agg') ?? '');
      res.setHeader('content-type', 'application/json');
      if (url.pathname === `/jobs/${details.jid}`) return res.end(JSON.stringify(details));
      if (url.searchParams.get('agg')?.includes('skew')) {
        res.statusCode = 400;
        return res.end(JSON.stringify({ errors: ['Cannot resolve query parameter (agg) from value "min,max,avg,sum,skew".'] }));
      }
      res.end(JSON.stringify(metricsOf));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new FlinkRestClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      const graph = await fetchJobGraph(client, 'c', details.jid);
      expect(graph.vertices.every((v) => v.busyTimeMsPerSecond !== null && v.dataSkewPercent === null)).toBe(true);
      asked.length = 0;
      await fetchJobGraph(client, 'c', details.jid);
      expect(asked.filter((a) => a.includes('skew'))).toEqual([]);
    } finally {
      server.close();
    }
  });
});
