import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assignKeyToParallelOperator } from '../../engine/analysis/key-groups/key-group-range-assignment.ts';
import { parseMetricValue, skewStatistics } from '../../engine/analysis/skew-figures.ts';
import type { JobDiagnosis } from '../../engine/contracts/diagnosis.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';
import { eventually } from './eventually.ts';

const cluster = readFlinkCluster();
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../engine/cli/flink-ops.mjs');

/** Per-subtask metrics of the test job whose skew Flink computes (task scope, per second and counters). */
const METRICS = [
  'busyTimeMsPerSecond',
  'backPressuredTimeMsPerSecond',
  'idleTimeMsPerSecond',
  'numRecordsInPerSecond',
  'numRecordsOutPerSecond',
  'numBytesInPerSecond',
  'numBytesOutPerSecond',
  'numRecordsIn',
  'numRecordsOut',
];

const get = <T>(url: string): Promise<T> => getFromFlink<T>(cluster, url);

interface Vertex {
  id: string;
  name: string;
  parallelism: number;
}

/** Each subtask's value of each metric, as Flink serves them per subtask (`<index>.<metric>`, strings). */
async function perSubtask(vertex: Vertex): Promise<Map<string, number[]>> {
  const ids = METRICS.flatMap((m) => Array.from({ length: vertex.parallelism }, (_, k) => `${k}.${m}`));
  const values = await get<Array<{ id: string; value: string }>>(`/jobs/${cluster.jobId}/vertices/${vertex.id}/metrics?get=${ids.join(',')}`);
  const byId = new Map(values.map((v) => [v.id, parseMetricValue(v.value)]));
  return new Map(METRICS.map((m) => [m, Array.from({ length: vertex.parallelism }, (_, k) => byId.get(`${k}.${m}`) ?? Number.NaN)]));
}

/** Equal within rounding: the same doubles summed in another order may differ in the last bits. */
function expectSame(ours: number | null, flink: number, what: string): void {
  expect(ours, what).not.toBeNull();
  expect(Math.abs(ours! - flink), `${what}: ours ${ours}, Flink ${flink}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(flink)));
}

describe(`skew figures against the real Flink ${cluster.version}`, () => {
  it("equal Flink's own agg=skew (and max, avg, min) for the same metric and instant, for every vertex", async () => {
    const { vertices } = await get<{ vertices: Vertex[] }>(`/jobs/${cluster.jobId}`);
    let compared = 0;
    for (const vertex of vertices) {
      // Flink refreshes its metric store between requests at its own pace: the per-subtask values read before and
      // after the aggregate must be the same, else that snapshot straddles a refresh and is taken again.
      const { values, aggregates } = await eventually(async () => {
        const before = await perSubtask(vertex);
        const aggregated = await get<Array<{ id: string; min?: number; max?: number; avg?: number; skew?: number }>>(
          `/jobs/${cluster.jobId}/vertices/${vertex.id}/subtasks/metrics?get=${METRICS.join(',')}&agg=min,max,avg,skew`,
        );
        const after = await perSubtask(vertex);
        const same = METRICS.every((m) => before.get(m)!.every((v, k) => Object.is(v, after.get(m)![k])));
        return same && aggregated.length === METRICS.length ? { values: before, aggregates: aggregated } : undefined;
      }, `a consistent metric snapshot of ${vertex.name}`, 60_000);
      for (const flink of aggregates) {
        const ours = skewStatistics(values.get(flink.id)!);
        const what = `${vertex.name} ${flink.id}`;
        expect(flink.skew, `Flink ${cluster.version} answers agg=skew for ${flink.id}`).toBeTypeOf('number');
        expectSame(ours.dataSkewPercent, flink.skew!, `${what}: skew`);
        expectSame(ours.max, flink.max!, `${what}: max`);
        expectSame(ours.mean, flink.avg!, `${what}: avg`);
        expectSame(ours.min, flink.min!, `${what}: min`);
        if (flink.avg! > 0) expectSame(ours.maxOverMean, flink.max! / flink.avg!, `${what}: max/avg`);
        compared++;
      }
    }
    expect(compared).toBe(vertices.length * METRICS.length);
  });
});

describe(`flink-ops diagnose against the real Flink ${cluster.version}`, () => {
  it('names the throttle subtask that owns the hot tenant acme, as data skew, with the source back-pressured', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [BIN, 'diagnose', '--url', cluster.restUrl, '--job', cluster.jobName, '--window', '30s', '--json'], { timeout: 90_000 }, (error, out, err) =>
        resolve({ code: error ? Number(error.code) : 0, stdout: out, stderr: err }),
      ),
    );
    expect(code, stderr).toBe(0);
    const diagnosis = JSON.parse(stdout) as JobDiagnosis;
    const acme = assignKeyToParallelOperator('acme', 128, 2);
    expect(diagnosis.window.samples).toBe(4);
    expect(diagnosis.finding).toMatchObject({ kind: 'skew', severity: 'critical', vertexName: 'throttle', subtasks: [expect.objectContaining({ subtask: acme })] });
    expect(diagnosis.finding.sentence).toMatch(new RegExp(`^throttle subtask ${acme} is (saturated|busy) .*: data skew on the key\\. Source: events is back-pressured because of it\\.$`));
    const throttle = diagnosis.vertices.find((v) => v.name === 'throttle')!;
    expect(throttle.keyed).toBe(true);
    expect(throttle.metrics.find((m) => m.metric === 'busyTimeMsPerSecond')!.hot[0]).toMatchObject({ subtask: acme, taskManagerId: expect.stringMatching(/^127\.0\.0\.1:/) });
  }, 120_000);
});
