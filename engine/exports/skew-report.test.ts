import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { stringify } from 'csv-stringify/sync';
import { parseCsv } from './testing/parse-csv.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../history/history-store.ts';
import { syntheticSample, vertexId } from '../history/testing/sample-fixtures.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { readSkewReport } from './read-skew-report.ts';
import { jsonVertex, subtaskCell } from './skew-report.ts';
import { SUBTASK_COLUMNS, VERTEX_CSV_COLUMNS } from './report-columns.ts';
import { SKEW_REPORT_JSON_SCHEMA } from './report-schema.ts';
import { renderReport, REPORT_FORMATS } from './render-report.ts';
import { esc } from './report-html.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs = tempDirs('flink-ops-report-');
const cluster = { id: 'c1', name: 'staging', url: 'http://127.0.0.1:8081', flinkVersion: '2.2.1' };
const jobId = 'a'.repeat(32);
let store: HistoryStore;

beforeAll(async () => {
  store = HistoryStore.open(dirs.make(), { now: () => 100_000 });
  for (let t = 10_000; t <= 70_000; t += 10_000) {
    const sample = syntheticSample({ t, vertices: 3, parallelism: 4 });
    // Subtask 2 of vertex 1 does 10× the work of its siblings.
    const busy = sample.vertices[1].subtasks!;
    for (let k = 0; k < 4; k++) {
      // Its accumulated times add up to its running time, as Flink's do (the rates' clock).
      busy.counters.accumulatedBusyMs[k] = (t / 1000) * (k === 2 ? 900 : 90);
      busy.counters.accumulatedBackPressuredMs[k] = 0;
      busy.counters.accumulatedIdleMs[k] = (t / 1000) * (k === 2 ? 100 : 910);
      busy.rates.busyTimeMsPerSecond[k] = k === 2 ? 900 : 90;
    }
    await store.samples.append(sample);
  }
});

afterAll(async () => {
  await store.close();
  dirs.removeAll();
});

describe('skew report', () => {
  it('builds every format from the same samples, byte-identical each time, with the window end as its time', () => {
    for (const format of REPORT_FORMATS) {
      const a = renderReport(readSkewReport(store, cluster, jobId, 60_000), format);
      const b = renderReport(readSkewReport(store, cluster, jobId, 60_000), format);
      expect(a.content).toBe(b.content);
      expect(a.suggestedName).toMatch(/^skew-report-synthetic-aaaaaaaa-19700101-000110\./);
    }
    const report = readSkewReport(store, cluster, jobId, 60_000);
    // Streamed a vertex at a time, the JSON is JSON.stringify's, byte for byte; unknown figures are null.
    expect(renderReport(report, 'json').content).toBe(`${JSON.stringify({ ...report, vertices: report.vertices.map(jsonVertex) })}\n`);
    expect(JSON.parse(renderReport(report, 'json').content).vertices[1].subtasks.watermarkEpochMs[0]).toBeNull();
    expect(report.asOf).toBe(new Date(70_000).toISOString());
    expect(report.window).toMatchObject({ from: 10_000, to: 70_000, samples: 7, intervalMs: 10_000 });
  });

  it("writes csv-stringify's own CSV, a text cell with a comma, a quote or a line break quoted as RFC 4180 says", () => {
    const report = readSkewReport(store, cluster, jobId, 60_000);
    const hostile = { ...report, vertices: report.vertices.map((v, i) => (i === 1 ? { ...v, name: 'tenant-cost, "hot"\nsink' } : v)) };
    const rows = hostile.vertices.flatMap((v) =>
      Array.from({ length: v.parallelism }, (_, k) => [v.id, v.name, ...SUBTASK_COLUMNS.map((c) => subtaskCell(v.subtasks[c.json], k))]),
    );
    const expected = stringify(rows, { header: true, columns: ['vertex_id', 'vertex_name', ...SUBTASK_COLUMNS.map((c) => c.csv)], cast: { number: (x) => String(x) } });
    expect(renderReport(hostile, 'csv').content).toBe(expected);
    expect(expected).toContain('"tenant-cost, ""hot""\nsink"');
  });

  it('names the hot subtask in the subtasks CSV, with its busy time the highest of its vertex', () => {
    const csv = parseCsv(renderReport(readSkewReport(store, cluster, jobId, 60_000), 'csv').content);
    expect(Object.keys(csv[0])).toEqual(['vertex_id', 'vertex_name', ...SUBTASK_COLUMNS.map((c) => c.csv)]);
    expect(csv).toHaveLength(12);
    const vertex1 = csv.filter((r) => r.vertex_id === vertexId(1));
    expect(vertex1.filter((r) => r.hot === '1').map((r) => r.subtask)).toEqual(['2']);
    expect(Number(vertex1[2].busy_ms_per_s_mean)).toBe(900);
    expect(Number(vertex1[2].busy_ms_per_s_max)).toBe(900);
    // Keyed (HASH input): the key groups each subtask owns, Flink's ranges for 128 over 4.
    expect(vertex1.map((r) => `${r.key_group_start}-${r.key_group_end}`)).toEqual(['0-31', '32-63', '64-95', '96-127']);
    // Subtask 0 has no watermark: an empty cell, never 0.
    expect(vertex1[0].watermark_epoch_ms).toBe('');
    // Totals beside the rates: Flink's counters at the window's last sample.
    const last = store.samples.latest(cluster.id, jobId)!.vertices[1].subtasks!.counters;
    expect(vertex1.map((r) => Number(r.records_in_total))).toEqual(Array.from(last.recordsIn));
    expect(vertex1.map((r) => Number(r.bytes_out_total))).toEqual(Array.from(last.bytesOut));
    expect(Number(vertex1[2].records_in_total)).toBeGreaterThan(0);
  });

  it('writes one vertices CSV row per vertex with Flink skew figures per metric', () => {
    const rows = parseCsv(renderReport(readSkewReport(store, cluster, jobId, 60_000), 'vertices-csv').content);
    expect(Object.keys(rows[0])).toEqual(VERTEX_CSV_COLUMNS);
    expect(rows[1]).toMatchObject({ vertex_id: vertexId(1), keyed: 'true', load_pattern: 'hot', hot_subtasks: '2', busy_ms_per_s_max_subtask: '2' });
    expect(Number(rows[1].busy_ms_per_s_max_over_mean)).toBeGreaterThan(3);
  });

  it('produces JSON that validates against the schema in resources/, which is the one the code exports', () => {
    const file = JSON.parse(readFileSync(path.join(ROOT, 'resources/schemas/skew-report.schema.json'), 'utf8')) as unknown;
    expect(file).toEqual(JSON.parse(JSON.stringify(SKEW_REPORT_JSON_SCHEMA)));
    const validate = new Ajv({ strict: false }).compile(file as object);
    const json = JSON.parse(renderReport(readSkewReport(store, cluster, jobId, 60_000), 'json').content) as unknown;
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...(json as object), schemaVersion: 2 })).toBe(false);
  });

  it('writes HTML with no external reference, the finding and the three charts', () => {
    const report = readSkewReport(store, cluster, jobId, 60_000);
    const html = renderReport(report, 'html').content;
    expect(html).not.toMatch(/(src|href)=|url\(|@import|<script/i);
    expect(html).toContain('data-testid="report-heatmap"');
    expect(html).toContain('data-testid="report-vertex-bars"');
    expect(html).toContain('data-testid="report-checkpoint-chart"');
    expect(html).toContain(`<p class="sentence">${esc(report.finding.sentence)}</p>`);
    expect(html).toContain('<td>vertex 1</td><td>2</td>');
    // Unknown figures (no key groups on an unkeyed vertex, no checkpoint) are empty cells, never "NaN".
    expect(html).not.toContain('NaN');
    expect(html).toMatch(/<td>vertex 0<\/td><td>0<\/td>(<td>[^<]*<\/td>){8}<td><\/td><td><\/td>/);
  });

  it('refuses a job the history has no samples of', () => {
    expect(() => readSkewReport(store, cluster, 'b'.repeat(32), 60_000)).toThrow(/no samples of job b{32}/);
  });
});
