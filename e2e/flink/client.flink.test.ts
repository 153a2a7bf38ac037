import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkFlinkCluster } from '../../engine/clusters/cluster-check.ts';
import { FlinkRestClient } from '../../engine/flink-rest/client.ts';
import { endpoints } from '../../engine/flink-rest/endpoints.ts';
import { fetchClusterOverview, fetchJobs } from '../../engine/sampling/cluster-views.ts';
import { fetchJobExceptions } from '../../engine/sampling/job-exceptions.ts';
import { fetchJobGraph } from '../../engine/sampling/job-graph.ts';
import { fetchNumRestarts, fetchRestartStrategy } from '../../engine/sampling/job-restart-strategy.ts';
import { fetchTaskManagers } from '../../engine/sampling/taskmanagers.ts';
import { fetchVertexSubtasks } from '../../engine/sampling/vertex-subtasks.ts';
import { readFlinkCluster } from '../support/flinkCluster.ts';
import { eventually } from './eventually.ts';

const cluster = readFlinkCluster();
let client: FlinkRestClient;
beforeAll(() => {
  client = new FlinkRestClient({ baseUrl: cluster.restUrl });
});

describe(`the REST client against a real Flink ${cluster.version}`, () => {
  it('recognises Flink, its version and its metrics fetch interval', async () => {
    const check = await checkFlinkCluster(client);
    expect(check.flinkVersion).toBe(cluster.version);
    expect(check.versionSupported).toBe(true);
    expect(check.metricsFetchIntervalMs).toBe(10_000);
  });

  it('reads the overview: 2 TaskManagers with 2 slots each', async () => {
    const overview = await fetchClusterOverview(client, 'c', 10_000);
    expect(overview).toMatchObject({ taskManagers: 2, slotsTotal: 4, flinkVersion: cluster.version });
    expect(overview.jobs.running).toBeGreaterThanOrEqual(1);
  });

  it('lists the test job as running', async () => {
    const jobs = await fetchJobs(client);
    expect(jobs.find((j) => j.id === cluster.jobId)).toMatchObject({ name: cluster.jobName, state: 'RUNNING', endTime: null });
  });

  it('builds the job graph from 1 + V requests, matching the plan', async () => {
    const { plan } = await client.request(endpoints.jobPlan, { jobid: cluster.jobId });
    const graph = await fetchJobGraph(client, 'c', cluster.jobId);
    expect(graph.requestCount).toBe(1 + graph.vertices.length);
    expect(graph.vertices.map((v) => [v.id, v.parallelism]).sort()).toEqual(plan.nodes.map((n) => [n.id, n.parallelism]).sort());
    expect(graph.vertices.map((v) => v.name)).toEqual(expect.arrayContaining([expect.stringContaining('tenant-cost')]));
    const planEdges = plan.nodes.flatMap((n) => (n.inputs ?? []).map((i) => `${i.id}->${n.id}:${i.ship_strategy}`));
    expect(graph.edges.map((e) => `${e.source}->${e.target}:${e.shipStrategy}`).sort()).toEqual(planEdges.sort());
    expect(graph.edges.some((e) => e.shipStrategy === 'HASH')).toBe(true);
    expect(graph.maxParallelism).toBe(128);
  });

  it('shows busy time and backpressure once the cluster has metrics', async () => {
    // The throttle fills its input buffers within ~30 s of the start: until then the source may still read `ok`.
    const graph = await eventually(async () => {
      const g = await fetchJobGraph(client, 'c', cluster.jobId);
      const source = g.vertices.find((v) => v.name.startsWith('Source'));
      const allMeasured = g.vertices.every((v) => v.busyTimeMsPerSecond && v.backpressureLevel);
      return source && allMeasured && source.backpressureLevel !== 'ok' ? g : undefined;
    }, 'busy and backpressure metrics on every vertex, and backpressure on the source', 150_000);
    // The test job's vertices, each checked below: its source and tenant-cost among them.
    expect(graph.vertices.map((v) => v.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^Source/), expect.stringContaining('tenant-cost')]));
    for (const vertex of graph.vertices) {
      const { max, avg } = vertex.busyTimeMsPerSecond!;
      expect(max).toBeGreaterThanOrEqual(avg);
      expect(max).toBeLessThanOrEqual(1000);
    }
    // The test job throttles downstream of keyBy: its sender is back-pressured.
    const source = graph.vertices.find((v) => v.name.startsWith('Source'))!;
    expect(['low', 'high']).toContain(source.backpressureLevel);
    expect(source.recordsOutPerSecond).toBeGreaterThan(0);
  });

  it('reads a vertex\'s subtasks in 3 requests, with endpoints, records and ratios', async () => {
    const graph = await fetchJobGraph(client, 'c', cluster.jobId);
    const vertex = graph.vertices.find((v) => v.name.includes('tenant-cost'))!;
    const table = await eventually(async () => {
      const t = await fetchVertexSubtasks(client, 'c', cluster.jobId, vertex.id);
      return t.subtasks.every((s) => s.busyTimeMsPerSecond !== null) ? t : undefined;
    }, 'subtask ratios');
    expect(table.requestCount).toBe(3);
    expect(table.subtasks.map((s) => s.index)).toEqual([...Array(vertex.parallelism).keys()]);
    for (const subtask of table.subtasks) {
      expect(subtask.status).toBe('RUNNING');
      expect(subtask.endpoint).toMatch(/127\.0\.0\.1|localhost/);
      expect(subtask.taskManagerId).toBeTruthy();
      const sum = subtask.busyTimeMsPerSecond! + subtask.backPressuredTimeMsPerSecond! + subtask.idleTimeMsPerSecond!;
      expect(sum).toBeGreaterThan(900);
      expect(sum).toBeLessThan(1100);
    }
  });

  it('reads the TaskManagers with their metrics, under the names this version uses', async () => {
    const taskManagers = await fetchTaskManagers(client);
    expect(taskManagers).toHaveLength(2);
    for (const tm of taskManagers) {
      expect(tm.endpoint).toMatch(/^[\w.-]+:\d+$/);
      const m = tm.metrics!;
      expect(m.heapUsed).toBeGreaterThan(0);
      expect(m.heapMax).toBeGreaterThan(m.heapUsed!);
      expect(m.managedMemoryTotal).toBeGreaterThan(0);
      expect(m.managedMemoryUsed).toBe(0); // the hashmap state backend
      expect(m.cpuLoad).toBeGreaterThanOrEqual(0);
      expect(m.cpuLoad).toBeLessThanOrEqual(1);
      expect(m.networkBuffersTotal).toBeGreaterThan(0);
      expect(m.networkBuffersUsed).toBeLessThanOrEqual(m.networkBuffersTotal!);
    }
    // The TaskManager that runs the job's subtasks is the one they name, by the same data port.
    const { vertices } = await client.request(endpoints.jobDetails, { jobid: cluster.jobId });
    const table = await fetchVertexSubtasks(client, 'c', cluster.jobId, vertices[0].id);
    expect(vertices[0].parallelism).toBeGreaterThan(0);
    expect(table.subtasks.map((row) => row.index)).toEqual([...Array(vertices[0].parallelism).keys()]);
    for (const row of table.subtasks) {
      const tm = taskManagers.find((t) => t.id === row.taskManagerId);
      expect(tm, `subtask ${row.index} runs on ${row.taskManagerId}, not one of ${taskManagers.map((t) => t.id).join(', ')}`).toBeDefined();
      expect(row.endpoint!.split(':')[1]).toBe(tm!.endpoint!.split(':')[1]);
    }
  });

  it('reads the job\'s exception history: empty while the job never restarted, an entry per failure once it did', async () => {
    const [history, restarts] = await Promise.all([fetchJobExceptions(client, 'c', cluster.jobId), fetchNumRestarts(client, cluster.jobId)]);
    expect(history.jobId).toBe(cluster.jobId);
    expect(restarts).not.toBeNull();
    // A fresh test job has not failed; after a TaskManager kill (the disruptive specs) it has, and says why.
    if (restarts === 0) expect(history.entries).toEqual([]);
    else expect(history.entries.length).toBeGreaterThan(0);
    for (const entry of history.entries) expect(entry.stackTrace.startsWith(entry.exceptionName)).toBe(true);
  });

  it('reads the job\'s restart strategy from its configuration: fixed-delay, 1000 attempts, 5 s (flink.sh)', async () => {
    expect(await fetchRestartStrategy(client, cluster.jobId)).toEqual({ type: 'fixed-delay', attempts: 1000, delayMs: 5000 });
  });

  it('answers 404 for a job that is not there, as not-found', async () => {
    await expect(fetchJobGraph(client, 'c', '0'.repeat(32))).rejects.toMatchObject({ info: { kind: 'not-found', status: 404 } });
  });
});

describe(`flink-ops CLI against a real Flink ${cluster.version}`, () => {
  const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../engine/cli/flink-ops.mjs');
  const run = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [bin, ...args], (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr })),
    );

  it('lists jobs', async () => {
    const { code, stdout } = await run('jobs', '--url', cluster.restUrl);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`${cluster.jobId}\\s+RUNNING.*${cluster.jobName}`));
  });

  it('prints the graph as JSON, by job name', async () => {
    const { code, stdout } = await run('graph', '--url', cluster.restUrl, '--job', cluster.jobName, '--json');
    expect(code).toBe(0);
    const graph = JSON.parse(stdout) as { jobId: string; vertices: unknown[] };
    expect(graph.jobId).toBe(cluster.jobId);
    expect(graph.vertices.length).toBeGreaterThanOrEqual(2);
  });

  it('prints the exception history as one JSON document', async () => {
    const { code, stdout } = await run('exceptions', '--url', cluster.restUrl, '--job', cluster.jobName, '--json');
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { jobId: string }).jobId).toBe(cluster.jobId);
  });

  it('exits 4 for a missing job', async () => {
    const { code, stderr } = await run('graph', '--url', cluster.restUrl, '--job', 'no-such-job');
    expect(code).toBe(4);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
