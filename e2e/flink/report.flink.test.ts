import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { assignKeyToParallelOperator } from '../../engine/analysis/key-groups/key-group-range-assignment.ts';
import type { SkewReport } from '../../engine/exports/skew-report.ts';
import { parseCsv } from '../../engine/exports/testing/parse-csv.ts';
import { readFlinkCluster } from '../support/flinkCluster.ts';

const cluster = readFlinkCluster();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'engine/cli/flink-ops.mjs');
const SCHEMA = JSON.parse(readFileSync(path.join(ROOT, 'resources/schemas/skew-report.schema.json'), 'utf8')) as object;

function report(format: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [BIN, 'report', '--url', cluster.restUrl, '--job', cluster.jobName, '--window', '30s', '--format', format], { timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
}

describe(`flink-ops report against the real Flink ${cluster.version}`, () => {
  it('the CSV names the throttle subtask that owns acme as hot and the busiest; the JSON validates against its schema', async () => {
    const acme = assignKeyToParallelOperator('acme', 128, 2);
    const [csv, json] = await Promise.all([report('csv'), report('json')]);
    expect(csv.code, csv.stderr).toBe(0);
    const throttle = parseCsv(csv.stdout).filter((r) => r.vertex_name === 'throttle');
    expect(throttle).toHaveLength(2);
    expect(throttle.filter((r) => r.hot === '1').map((r) => Number(r.subtask))).toEqual([acme]);
    const busy = throttle.map((r) => Number(r.busy_ms_per_s_mean));
    expect(busy[acme]).toBe(Math.max(...busy));
    expect(throttle[acme].taskmanager_id).toMatch(/\S/);
    expect(`${throttle[acme].key_group_start}-${throttle[acme].key_group_end}`).toBe(acme === 0 ? '0-63' : '64-127');

    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout) as SkewReport;
    const validate = new Ajv({ strict: false }).compile(SCHEMA);
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    expect(parsed.cluster.flinkVersion).toBe(cluster.version);
    expect(parsed.finding).toMatchObject({ kind: 'skew', vertexName: 'throttle', subtasks: [expect.objectContaining({ subtask: acme })] });
  }, 120_000);
});
