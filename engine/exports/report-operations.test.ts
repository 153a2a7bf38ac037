import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../history/history-store.ts';
import { syntheticSample } from '../history/testing/sample-fixtures.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { newEntry, OperationsJournal } from '../operations/journal.ts';
import { readSkewReport } from './read-skew-report.ts';
import { renderReport } from './render-report.ts';

/**
 * The skew report's Before/after section: a job sampled every 10 s from 10 s to 110 s whose vertex 1 has one hot
 * subtask (900 ms/s busy against 90) until a rescale at 60 s, and an even spread (300 ms/s each) once it runs again.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs = tempDirs('flink-ops-report-operations-');
const cluster = { id: 'c1', name: 'staging', url: 'http://127.0.0.1:8081', flinkVersion: '2.2.1' };
const jobId = 'a'.repeat(32);
const RESCALE_AT = 60_000;
let store: HistoryStore;

beforeAll(async () => {
  store = HistoryStore.open(dirs.make(), { now: () => 200_000 });
  const busy = (t: number, k: number) => (t <= RESCALE_AT ? (t / 1000) * (k === 2 ? 900 : 90) : (RESCALE_AT / 1000) * (k === 2 ? 900 : 90) + ((t - RESCALE_AT) / 1000) * 300);
  for (let t = 10_000; t <= 110_000; t += 10_000) {
    const sample = syntheticSample({ t, vertices: 3, parallelism: 4 });
    const columns = sample.vertices[1].subtasks!;
    for (let k = 0; k < 4; k++) {
      columns.counters.accumulatedBusyMs[k] = busy(t, k);
      columns.counters.accumulatedBackPressuredMs[k] = 0;
      columns.counters.accumulatedIdleMs[k] = t - busy(t, k);
      columns.rates.busyTimeMsPerSecond[k] = t <= RESCALE_AT ? (k === 2 ? 900 : 90) : 300;
    }
    await store.samples.append(sample);
  }
  const journal = new OperationsJournal(store, { now: () => RESCALE_AT + 5_000 });
  const of = { clusterId: cluster.id, clusterName: 'staging', clusterUrl: cluster.url, jobId, jobName: 'synthetic', origin: 'app' as const, parentId: null };
  await journal.create({ ...newEntry('b'.repeat(32), RESCALE_AT, of), kind: 'rescale', phase: 'done', params: { parallelism: {} }, state: 'succeeded', finishedAt: RESCALE_AT + 5_000 });
  // Another job's rescale, and a failed one: not this job's before/after.
  await journal.create({ ...newEntry('c'.repeat(32), RESCALE_AT, { ...of, jobId: 'd'.repeat(32) }), kind: 'rescale', phase: 'done', params: {}, state: 'succeeded' });
  await journal.create({ ...newEntry('e'.repeat(32), RESCALE_AT + 1, of), kind: 'rescale', phase: 'done', params: {}, state: 'failed' });
});

afterAll(async () => {
  await store.close();
  dirs.removeAll();
});

describe('the skew report\u2019s Before/after', () => {
  it('has the rescale of the job in its window: skew before and after from the samples each side, in JSON (valid) and HTML', () => {
    const report = readSkewReport(store, cluster, jobId, 100_000);
    expect(report.operations).toHaveLength(1);
    const [op] = report.operations!;
    expect(op).toMatchObject({ entryId: 'b'.repeat(32), kind: 'rescale', startedAt: RESCALE_AT, runningAgainAt: RESCALE_AT, complete: false });
    expect(op.before).toMatchObject({ from: 10_000, to: RESCALE_AT, samples: 6 });
    expect(op.after).toMatchObject({ from: RESCALE_AT, to: 110_000, samples: 6 });
    // 900 against three at 90: max/mean 900 / 292.5; after, 300 each.
    expect(op.rows[0]).toMatchObject({ figure: 'skew' });
    expect(op.rows[0].before).toBeCloseTo(900 / 292.5, 9);
    expect(op.rows[0].after).toBeCloseTo(1, 9);
    expect(op.notes).toEqual(['The after window is still filling: 50 s of 120 s so far.']);

    const schema = JSON.parse(readFileSync(path.join(ROOT, 'resources/schemas/skew-report.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(JSON.parse(renderReport(report, 'json').content)), JSON.stringify(validate.errors)).toBe(true);
    const html = renderReport(report, 'html').content;
    expect(html).toContain('<section data-testid="report-before-after">');
    expect(html).toMatch(/<td>Skew \(max\/mean busy of the most skewed vertex\)<\/td><td>3\.08×<\/td><td>1\.00×<\/td><td>−67%<\/td>/);
  });

  it('has no Before/after section when the window holds no operation of the job', () => {
    const report = readSkewReport(store, cluster, jobId, 100_000, { endAt: 50_000 });
    expect(report.operations).toBeUndefined();
    expect(renderReport(report, 'html').content).not.toContain('report-before-after');
  });
});
