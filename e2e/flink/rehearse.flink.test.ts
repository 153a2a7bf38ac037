import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { assignKeyToParallelOperator } from '../../engine/analysis/key-groups/key-group-range-assignment.ts';
import { parseMetricValue } from '../../engine/analysis/skew-figures.ts';
import type { JobAdvice } from '../../engine/contracts/advice.ts';
import type { Rehearsal } from '../../engine/contracts/rehearsal.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';

/**
 * `flink-ops advise` and the baseline rehearsal on the cluster's test job (`gatewaymeter-test`: the hot tenant acme
 * saturates its `throttle` subtask, the source back-pressured), from the figures the CLI measures now, each compared
 * with what Flink's REST API says just before and just after.
 */
const cluster = readFlinkCluster();
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../engine/cli/flink-ops.mjs');
const home = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-rehearse-flink-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const get = <T>(url: string): Promise<T> => getFromFlink<T>(cluster, url);

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [BIN, ...args], { timeout: 150_000, env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home } }, (error, out, err) =>
      resolve({ code: error ? Number(error.code) : 0, stdout: out, stderr: err }),
    ),
  );
}

interface Figures {
  busy: number[];
  records: number[];
}

/** Flink's per-subtask busy time and records in per second of a vertex, one request. */
async function flinkFigures(vertexId: string, parallelism: number): Promise<Figures> {
  const metrics = ['busyTimeMsPerSecond', 'numRecordsInPerSecond'];
  const ids = metrics.flatMap((m) => Array.from({ length: parallelism }, (_, k) => `${k}.${m}`));
  const values = await get<Array<{ id: string; value: string }>>(`/jobs/${cluster.jobId}/vertices/${vertexId}/metrics?get=${ids.join(',')}`);
  const byId = new Map(values.map((v) => [v.id, parseMetricValue(v.value)]));
  const of = (m: string) => Array.from({ length: parallelism }, (_, k) => byId.get(`${k}.${m}`) ?? Number.NaN);
  return { busy: of('busyTimeMsPerSecond'), records: of('numRecordsInPerSecond') };
}

const maxOverMean = (values: number[]) => Math.max(...values) / (values.reduce((a, b) => a + b, 0) / values.length);
const hottest = (values: number[]) => values.indexOf(Math.max(...values));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe(`flink-ops advise and rehearse against the real Flink ${cluster.version}`, () => {
  it("advise salts acme on throttle where Flink places it; the baseline twin has Flink's hot subtask and max/mean within 20%", async () => {
    const { vertices } = await get<{ vertices: Array<{ id: string; name: string; parallelism: number }> }>(`/jobs/${cluster.jobId}`);
    const throttle = vertices.find((v) => v.name === 'throttle')!;
    const acme = assignKeyToParallelOperator('acme', 128, throttle.parallelism);

    const advised = await cli(['advise', '--url', cluster.restUrl, '--job', cluster.jobName, '--key', 'acme', '--vertex', 'throttle', '--json']);
    expect(advised.code, advised.stderr).toBe(0);
    const advice = JSON.parse(advised.stdout) as JobAdvice;
    expect(advice.salting).toMatchObject({ verdict: 'salt', key: 'acme', subtask: acme, parallelism: throttle.parallelism, maxParallelism: 128, keyRateIsLowerBound: true });
    for (const k of advice.salting.saltedKeys) expect(k.subtask, k.key).toBe(assignKeyToParallelOperator(k.key, 128, throttle.parallelism));
    expect(advice.rescale.sentence).toMatch(/^A rescale does not split acme/);

    const before = await flinkFigures(throttle.id, throttle.parallelism);
    const rehearsed = await cli(['rehearse', '--url', cluster.restUrl, '--job', cluster.jobName, '--key', 'acme', '--vertex', 'throttle', '--salt', '8', '--seconds', '20', '--json']);
    const after = await flinkFigures(throttle.id, throttle.parallelism);
    const checkpoints = await get<{ history: Array<{ status: string; end_to_end_duration: number; state_size: number }> }>(`/jobs/${cluster.jobId}/checkpoints`);
    expect(rehearsed.code, rehearsed.stderr).toBe(0);
    const r = JSON.parse(rehearsed.stdout) as Rehearsal;

    // Production as the CLI measured it is what Flink shows around it.
    expect(r.observed).toMatchObject({ load: 'live', parallelism: throttle.parallelism, maxParallelism: 128, hotSubtask: acme });
    expect(hottest(before.busy)).toBe(acme);
    expect(hottest(after.busy)).toBe(acme);
    const flinkRatio = (maxOverMean(before.busy) + maxOverMean(after.busy)) / 2;
    expect(Math.abs(r.observed.busy.maxOverMean! - flinkRatio) / flinkRatio).toBeLessThan(0.1);
    const flinkThroughput = (sum(before.records) + sum(after.records)) / 2;
    expect(Math.abs(r.observed.throughputRecordsPerSecond - flinkThroughput) / flinkThroughput).toBeLessThan(0.15);
    // The source is back-pressured by throttle, as Flink's back-pressure view shows it.
    expect(r.observed.upstreamBackPressuredTimeMsPerSecond).toBeGreaterThan(500);
    // The checkpoint it reports is one Flink completed.
    expect(checkpoints.history.some((c) => c.status === 'COMPLETED' && c.end_to_end_duration === r.observed.checkpoint!.durationMs && c.state_size === r.observed.checkpoint!.stateSizeBytes)).toBe(true);

    // The baseline twin reproduces it.
    expect(r.baseline.hotSubtask).toBe(acme);
    expect(Math.abs(r.baseline.busy.maxOverMean! - flinkRatio) / flinkRatio).toBeLessThanOrEqual(0.2);
    expect(r.match.matches).toBe(true);
    expect(r.proposed).toMatchObject({ job: 'gatewaymeter-salted', saltBuckets: 8, parallelism: throttle.parallelism });
    expect(r.placement!.saltedKeys.map((k) => k.subtask)).toEqual(Array.from({ length: 8 }, (_, i) => assignKeyToParallelOperator(`acme#${i}`, 128, throttle.parallelism)));
    // Nothing tells the input's demand here (no watermark trend measured live): the twin says it replays what got through.
    expect(r.notes.join(' ')).toMatch(/The twin replays what got through/);
  });
});
