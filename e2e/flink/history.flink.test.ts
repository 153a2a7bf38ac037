import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createClient, type ClusterConnection } from '../../engine/clusters/cluster-connections.ts';
import type { CheckpointsReport } from '../../engine/cli/checkpoints-command.ts';
import { HistoryStore } from '../../engine/history/history-store.ts';
import { checkpointDetail, jobCheckpoints } from '../../engine/history/views/checkpoint-views.ts';
import { JobWatcher } from '../../engine/sampling/job-watcher.ts';
import { readFlinkCluster } from '../support/flinkCluster.ts';
import { eventually } from './eventually.ts';

/** The checkpoint history from a real Flink's statistics: what the sampler keeps, and what the CLI prints. */
const cluster = readFlinkCluster();
const dir = mkdtempSync(path.join(tmpdir(), 'flink-ops-history-flink-'));
let store: HistoryStore;
let connection: ClusterConnection;
let watcher: JobWatcher;

beforeAll(() => {
  store = HistoryStore.open(path.join(dir, 'history'));
  connection = connect(createClient({ name: 'test-flink', url: cluster.restUrl, auth: { kind: 'none' }, timeoutMs: 10_000 }, undefined));
  watcher = new JobWatcher({ history: store, connection: () => connection });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe(`the checkpoint history of a real Flink ${cluster.version} job`, () => {
  it('keeps its checkpoints with Flink\'s summary, and a settled one\'s details per vertex and subtask, once', async () => {
    // The test job checkpoints every 10 s; two with details take a few samples.
    const view = await eventually(async () => {
      await watcher.sampleNow('test-flink', cluster.jobId);
      const v = jobCheckpoints(store, 'test-flink', cluster.jobId, 60, null);
      return v.checkpoints.filter((c) => c.status === 'COMPLETED' && c.details === 'stored').length >= 2 ? v : undefined;
    }, 'two completed checkpoints with details', 150_000);
    const completed = view.checkpoints.filter((c) => c.status === 'COMPLETED' && c.details === 'stored');
    for (const c of completed) {
      expect(c.stateBytes).toBeGreaterThan(0);
      expect(c.endToEndDurationMs).toBeGreaterThanOrEqual(0);
      expect(c.numAcknowledgedSubtasks).toBe(c.numSubtasks);
    }
    expect(view.flink?.counts.completed).toBeGreaterThanOrEqual(2);
    expect(view.flink?.summary.endToEndDurationMs?.p99).not.toBeNull();

    const detail = checkpointDetail(store, 'test-flink', cluster.jobId, completed[0].id, completed[0].triggerTimestamp);
    const sample = store.samples.latest('test-flink', cluster.jobId)!;
    expect(detail.vertices.map((v) => v.name)).toEqual(sample.vertices.map((v) => v.name));
    for (const vertex of detail.vertices) {
      const parallelism = sample.vertices.find((v) => v.id === vertex.vertexId)!.parallelism;
      expect(vertex.subtasks).toHaveLength(parallelism);
      expect(vertex.subtasks!.every((s) => s.status === 'completed' && s.ackTimestamp! >= completed[0].triggerTimestamp && s.startDelayMs !== null)).toBe(true);
    }
    expect(detail.finding).toMatch(/^(subtask|subtasks) \d+.* of .+: .+\.$|^No subtask stands out from its siblings/);

    // Each sample carries each subtask's state size from the last completed checkpoint.
    const withState = sample.vertices.filter((v) => v.subtasks && Array.from(v.subtasks.checkpointedBytes).some((b) => b > 0));
    expect(withState.length).toBeGreaterThan(0);

    // Sampling again fetches no details twice: only new checkpoints get theirs.
    const before = connection.client.stats.requests;
    const again = (await watcher.sampleNow('test-flink', cluster.jobId))!;
    const settledSince = jobCheckpoints(store, 'test-flink', cluster.jobId, 60, null).checkpoints.filter((c) => c.details === 'stored').length - completed.length;
    expect(connection.client.stats.requests - before - again.requests).toBeLessThanOrEqual(Math.max(0, settledSince) * (1 + sample.vertices.length));
  }, 200_000);

  it('flink-ops checkpoints prints the summary, the last checkpoints and the finding from the cluster', async () => {
    const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../engine/cli/flink-ops.mjs');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'flink-ops-cli-'));
    try {
      const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(process.execPath, [bin, 'checkpoints', '--url', cluster.restUrl, '--job', cluster.jobName, '--json', '--data-dir', dataDir], (error, out, err) =>
          resolve({ code: error ? Number(error.code) : 0, stdout: out, stderr: err }),
        ),
      );
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const report = JSON.parse(stdout) as CheckpointsReport;
      expect(report).toMatchObject({ source: 'cluster', job: { id: cluster.jobId, name: cluster.jobName, state: 'RUNNING' } });
      expect(report.checkpoints.checkpoints.length).toBeGreaterThanOrEqual(2);
      expect(report.detail?.finding.length).toBeGreaterThan(10);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
