import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignKeyToParallelOperator } from '../analysis/key-groups/key-group-range-assignment.ts';
import { decodeBundle } from '../exports/incident-bundle.ts';
import type { SkewReport } from '../exports/skew-report.ts';
import { parseCsv } from '../exports/testing/parse-csv.ts';
import type { LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { envWithEmptyHome, FLINK_OPS_BIN, runCli } from './testing/run-cli.ts';
import { watchedHotTenant } from './testing/watched-hot-tenant.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCHEMA = JSON.parse(readFileSync(path.join(ROOT, 'resources/schemas/skew-report.schema.json'), 'utf8')) as object;
const dirs = tempDirs('flink-ops-report-cli-');

const run = (args: string[], timeout = 30_000) => runCli(args, { timeout, env: envWithEmptyHome(dirs) });

/** The app's history of hot-tenant, three minutes watched: see watchedHotTenant. */
let engine: LocalEngineHandle | undefined;
let url: string;
let dataDir: string;
let out: string;
const acme = assignKeyToParallelOperator('acme', 128, 32);
beforeAll(async () => {
  ({ engine, dataDir } = await watchedHotTenant(dirs));
  url = engine.url;
  out = dirs.make();
}, 90_000);

afterAll(async () => {
  await engine?.close();
  dirs.removeAll();
});

const live = (...args: string[]) => run(['report', '--url', url, '--job', 'gatewaymeter', '--window', '60s', '--data-dir', dataDir, ...args]);

describe('flink-ops report', () => {
  it("writes the subtasks CSV from the app's history: acme's tenant-cost subtask is hot, the busiest, more than 5× the mean", async () => {
    const file = path.join(out, 'report.csv');
    const { code, stderr } = await live('--format', 'csv', '--out', file);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const rows = parseCsv(readFileSync(file, 'utf8')).filter((r) => r.vertex_name === 'tenant-cost -> Sink: usd-sink');
    expect(rows).toHaveLength(32);
    expect(rows.filter((r) => r.hot === '1').map((r) => Number(r.subtask))).toEqual([acme]);
    const busy = rows.map((r) => Number(r.busy_ms_per_s_mean));
    const max = Math.max(...busy);
    expect(Number(rows[acme].busy_ms_per_s_mean)).toBe(max);
    expect(max / (busy.reduce((a, b) => a + b, 0) / busy.length)).toBeGreaterThan(5);
    // Its key groups contain acme's, and its TaskManager is named.
    expect(Number(rows[acme].key_group_start)).toBeLessThanOrEqual(Number(rows[acme].key_group_end));
    expect(rows[acme].taskmanager_id).not.toBe('');
    expect(readdirSync(out)).toEqual(['report.csv']);
  });

  it('prints the JSON report to stdout, valid against resources/schemas/skew-report.schema.json, and the HTML with the root cause', async () => {
    const json = await live('--format', 'json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as SkewReport;
    const validate = new Ajv({ strict: false }).compile(SCHEMA);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.finding.kind).toBe('skew');
    expect(report.finding.subtasks.map((s) => s.subtask)).toEqual([acme]);
    expect(report.asOf).toBe(new Date(report.window.to!).toISOString());

    const html = await live('--format', 'html');
    expect(html.code).toBe(0);
    expect(html.stdout).toContain(report.finding.sentence.replace(/'/g, '&#39;'));
    const vertices = parseCsv((await live('--format', 'vertices-csv')).stdout);
    expect(vertices.map((v) => v.load_pattern)).toContain('hot');
  });

  it.each([
    [['--format', 'pdf'], 2, /--format must be one of csv, vertices-csv, json, html, not "pdf"/],
    [['--window', 'soon'], 2, /--window must be a duration/],
    [['--out', '/nonexistent-folder/report.csv'], 1, /Cannot write \/nonexistent-folder\/report.csv: its folder does not exist/],
  ])('flink-ops report %j exits %i with one line and writes nothing', async (args, code, message) => {
    const before = readdirSync(out);
    const result = await live(...args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(readdirSync(out)).toEqual(before);
  });

  it('samples a job the app does not watch for the window itself, and still writes a valid report', async () => {
    // No --data-dir and an empty HOME: no history. The engine's clock is stopped, so the figures are what they were.
    const result = await run(['report', '--url', url, '--job', 'gatewaymeter', '--window', '10s', '--format', 'json'], 60_000);
    expect(result.stderr).toMatch(/^Sampling the job for 10 s \(3 samples, one every 5 s\)\.\.\.\n$/);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as SkewReport;
    const validate = new Ajv({ strict: false }).compile(SCHEMA);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.window.samples).toBe(3);
    expect(report.cluster).toMatchObject({ id: url, url, flinkVersion: expect.stringMatching(/^\d+\.\d+/) });
  }, 60_000);

  it('exits 4 for a job that is not there, and leaves no file', async () => {
    const file = path.join(out, 'nightly.csv');
    const result = await run(['report', '--url', url, '--job', 'nightly-etl', '--out', file]);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('flink-ops: No job with id or name "nightly-etl" on this cluster.\n');
    expect(existsSync(file)).toBe(false);
  });
});

describe('incident bundles', () => {
  const bundle = () => path.join(out, 'incident.flinkops-bundle');
  // A history that ends now: the CLI reads the app's history only while it is fresh, however long the tests above took.
  beforeAll(async () => {
    await engine?.close();
    ({ engine, dataDir } = await watchedHotTenant(dirs));
    url = engine.url;
  }, 90_000);

  it('saves a bundle whose report is the live report of the same samples, byte for byte, every time', async () => {
    const saved = await run(['bundle', '--url', url, '--job', 'gatewaymeter', '--window', '60s', '--data-dir', dataDir, '--out', bundle()]);
    expect(saved.stderr).toMatch(/^Saved the incident bundle to /);
    expect(saved.code).toBe(0);
    const contents = decodeBundle(readFileSync(bundle()));
    expect(contents.samples.length).toBe(7);
    expect(contents.checkpoints.length).toBeGreaterThan(0);
    expect(contents.jobGraph?.vertices).toHaveLength(3);

    for (const format of ['json', 'html']) {
      const fromLive = await live('--format', format);
      const first = await run(['report', '--from-bundle', bundle(), '--format', format]);
      const second = await run(['report', '--from-bundle', bundle(), '--format', format]);
      expect(first.code).toBe(0);
      expect(first.stdout).toBe(second.stdout);
      expect(first.stdout).toBe(fromLive.stdout);
    }
  }, 60_000); // seven CLI runs: ~9 s on a quiet machine, over 20 s on two busy cores

  it('adds, asked for, the hot subtask\'s log lines and says why its flame graph is missing: in the bundle\'s manifest and in its HTML report', async () => {
    const file = path.join(out, 'with-attachments.flinkops-bundle');
    const saved = await run(['bundle', '--url', url, '--job', 'gatewaymeter', '--window', '60s', '--data-dir', dataDir, '--out', file, '--flame-graph', '--log-excerpt']);
    expect(saved.code, saved.stderr).toBe(0);
    const task = `tenant-cost -> Sink: usd-sink (${acme + 1}/32)#0`;
    const contents = decodeBundle(readFileSync(file));
    const [flame, log] = contents.manifest!.attachments;
    // The local engine answers as a Flink without flame graphs: the bundle says so rather than failing.
    expect(flame).toMatchObject({ name: 'flameGraph', included: false, bytes: 0, description: expect.stringContaining('Not included: Flame graphs are off on this cluster: set rest.flamegraph.enabled: true') });
    expect(log).toMatchObject({ name: 'logExcerpt', included: true, description: expect.stringContaining(`The lines of ${task} in TaskManager `) });
    expect(log.bytes).toBeGreaterThan(0);
    expect(contents.manifest!.parts).toContainEqual({ name: 'samples', items: 7 });
    expect(saved.stderr.split('\n')).toEqual([`Saved the incident bundle to ${file}.`, `  Flame graph: ${flame.description}`, `  Log excerpt: ${log.description}`, '']);
    const excerpt = contents.attachments!.logExcerpt!;
    expect(excerpt.included).toBe(true);
    const lines = excerpt.included ? excerpt.value.lines : [];
    const tm = excerpt.included ? excerpt.value.processId : '';
    const served = (await (await fetch(`${url}/taskmanagers/${tm}/log`)).text()).split('\n').filter((l) => l.includes(task));
    expect(lines.map((l) => l.text)).toEqual(served);

    const html = await run(['report', '--from-bundle', file, '--format', 'html']);
    expect(html.code).toBe(0);
    expect(html.stdout).toContain('<section data-testid="report-log-excerpt" data-included="true">');
    expect(html.stdout).toContain(`<h2>Log of ${task.replace('>', '&gt;')}</h2>`);
    expect(html.stdout).toContain('<section data-testid="report-flame-graph" data-included="false"><h2>Flame graph</h2><p>Not included: Flame graphs are off on this cluster');
  }, 60_000);

  it('refuses the attachments where they cannot go: a CSV report, a report from a bundle (exit 2)', async () => {
    const csv = await live('--format', 'csv', '--flame-graph');
    expect([csv.code, csv.stderr]).toEqual([2, 'flink-ops: --flame-graph and --log-excerpt go into the HTML report: add --format html (or save them in a bundle).\n']);
    const fromBundle = await run(['report', '--from-bundle', bundle(), '--format', 'html', '--log-excerpt']);
    expect(fromBundle.code).toBe(2);
  });

  it('refuses a file that is not a bundle with exit 2', async () => {
    const result = await run(['report', '--from-bundle', path.join(ROOT, 'package.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not a Flink Ops incident bundle \(\.flinkops-bundle\): it is not gzipped JSON\.\n$/);
  });

  it('reports a job that has ended from the history, and says why it cannot without one', async () => {
    const jobId = [...engine!.engine.cluster.jobs.values()][0].jobId;
    expect((await fetch(`${url}/jobs/${jobId}?mode=cancel`, { method: 'PATCH' })).status).toBe(202);
    const fromHistory = await live('--format', 'json');
    expect(fromHistory.code, fromHistory.stderr).toBe(0);
    expect((JSON.parse(fromHistory.stdout) as SkewReport).window.samples).toBe(7);
    const file = path.join(out, 'ended.csv');
    const without = await run(['report', '--url', url, '--job', jobId, '--out', file]);
    expect(without.code).toBe(1);
    expect(without.stderr).toBe(`flink-ops: The job ${jobId} has CANCELED and the console has no history of it: there is nothing left to sample.\n`);
    expect(existsSync(file)).toBe(false);
  });

  it('reopens after the engine is stopped: the report again, and the console on it as a recording', async () => {
    const before = (await run(['report', '--from-bundle', bundle(), '--format', 'json'])).stdout;
    await engine!.close();
    engine = undefined;
    const after = await run(['report', '--from-bundle', bundle(), '--format', 'json']);
    expect(after.code).toBe(0);
    expect(after.stdout).toBe(before);

    // The console on the bundle: its RPC answers with the recorded job, without any cluster.
    const child = spawn(process.execPath, [FLINK_OPS_BIN, 'open-bundle', bundle()], { env: envWithEmptyHome(dirs) });
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error(`open-bundle printed no URL: ${text}`)), 30_000);
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (/\n.*http:\/\/127\.0\.0\.1:\d+\/\?token=\S+\n/.test(text)) {
            clearTimeout(timer);
            resolve(text);
          }
        });
        child.on('exit', (code) => reject(new Error(`open-bundle exited ${code}: ${text}`)));
      });
      expect(banner).toMatch(/^Incident bundle .*: gatewaymeter \([0-9a-f]{32}\) as of \d{4}-\d\d-\d\dT.*Z, 7 samples/);
      const pageUrl = new URL(/http:\/\/\S+/.exec(banner.split('\n')[1])![0]);
      const [, clusterId, jobId] = /#\/clusters\/([^/]+)\/jobs\/([0-9a-f]{32})$/.exec(pageUrl.hash)!;
      const rpc = async <T>(call: string, args: unknown[]) => {
        const response = await fetch(`${pageUrl.origin}/api/rpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${pageUrl.searchParams.get('token')}` },
          body: JSON.stringify({ call, args }),
        });
        return (await response.json()) as { ok: boolean; value: T };
      };
      const recorded = await rpc<{ recording: { samples: number }; graph: { vertices: unknown[] } }>('history.recordedJob', [decodeURIComponent(clusterId), jobId]);
      expect(recorded.ok).toBe(true);
      expect(recorded.value.recording.samples).toBe(7);
      expect(recorded.value.graph.vertices).toHaveLength(3);
      // The Exceptions tab answers from the bundle; the checkpoints from its history.
      const exceptions = await rpc<{ jobId: string; entries: unknown[] }>('jobs.exceptions', [decodeURIComponent(clusterId), jobId]);
      expect(exceptions).toMatchObject({ ok: true, value: { jobId } });
      const checkpoints = await rpc<{ checkpoints: unknown[] }>('history.checkpoints', [decodeURIComponent(clusterId), jobId, 50]);
      expect(checkpoints.ok).toBe(true);
      expect(checkpoints.value.checkpoints.length).toBeGreaterThan(0);
      // Export skew report on the reopened bundle: the same report as the CLI makes from it.
      const exported = await rpc<{ content: string }>('exports.skewReport', [decodeURIComponent(clusterId), jobId, { windowMs: 60_000, format: 'json' }]);
      expect(exported.ok).toBe(true);
      expect(exported.value.content).toBe(before);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 60_000);
});
