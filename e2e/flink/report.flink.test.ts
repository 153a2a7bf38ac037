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

function report(format: string, ...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [BIN, 'report', '--url', cluster.restUrl, '--job', cluster.jobName, '--window', '30s', '--format', format, ...extra], { timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
}

const unescapeHtml = (text: string) => text.replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!);

describe(`flink-ops report against the real Flink ${cluster.version}`, () => {
  it('the CSV names the throttle subtask that owns acme as hot and the busiest; the JSON validates against its schema; the HTML carries its flame graph and log lines', async () => {
    const acme = assignKeyToParallelOperator('acme', 128, 2);
    // The HTML asks for the hot subtask's flame graph and log lines too (sampled alongside: no time added).
    const [csv, json, html] = await Promise.all([report('csv'), report('json'), report('html', '--flame-graph', '--log-excerpt')]);
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

    // Beside the finding: Flink's flame graph of that subtask (flink.sh turns flame graphs on for 2.x, leaves them off
    // on 1.x: then the report says so), and its lines in its TaskManager's log, as Flink's log has them.
    expect(html.code, html.stderr).toBe(0);
    if (cluster.version.startsWith('1.')) {
      expect(html.stdout).toContain('<section data-testid="report-flame-graph" data-included="false"><h2>Flame graph</h2><p>Not included: Flame graphs are off on this cluster: set rest.flamegraph.enabled: true');
    } else {
      expect(html.stdout).toContain(`<h2>Flame graph of throttle subtask ${acme}</h2>`);
      expect(html.stdout).toMatch(/<title>dev\.flinkops\.testjob\.GatewayMeterJob\$Throttle\.map:\d+: \d+ samples/);
    }
    const excerpt = /<h2>Log of (throttle \(\d\/2\)#\d+)<\/h2>\n<p class="meta">[^<]* in TaskManager ([^ ]+?)&#39;s log[^<]*<\/p>\n<pre class="log">([^<]*)<\/pre>/.exec(html.stdout);
    expect(excerpt, 'the log excerpt section').not.toBeNull();
    const [, task, taskManagerId, pre] = excerpt!;
    expect(task).toMatch(new RegExp(`^throttle \\(${acme + 1}/2\\)#`));
    const shown = unescapeHtml(pre).split('\n').map((line) => /^ *(\d+) {2}(.*)$/.exec(line)!).map(([, n, text]) => ({ n: Number(n), text }));
    expect(shown.length).toBeGreaterThan(0);
    const flinkLog = (await (await fetch(`${cluster.restUrl}/taskmanagers/${encodeURIComponent(unescapeHtml(taskManagerId))}/log`)).text()).split('\n');
    for (const { n, text } of shown) expect(flinkLog[n - 1]).toBe(text);
    expect(shown.some(({ text }) => text.includes(task))).toBe(true);
  }, 120_000);
});
