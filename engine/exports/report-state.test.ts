import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseState, type StateAnalysisInput } from '../analysis/state-analysis.ts';
import { HistoryStore } from '../history/history-store.ts';
import { syntheticSample } from '../history/testing/sample-fixtures.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { readSkewReport } from './read-skew-report.ts';
import { renderReport } from './render-report.ts';
import { esc } from './report-html.ts';
import { SKEW_REPORT_JSON_SCHEMA } from './report-schema.ts';
import { reportStateOf } from './report-state.ts';

const MIB = 1024 * 1024;
const MIN = 60_000;
const T0 = 1_700_000_000_000;
const dirs = tempDirs('flink-ops-report-state-');
const cluster = { id: 'c1', name: 'staging', url: 'http://127.0.0.1:8081', flinkVersion: '2.2.1' };
const jobId = 'a'.repeat(32);
let store: HistoryStore;

/** Four subtasks each growing 1 MiB a minute, over 20 checkpoints: keys that never expire (suspect B). */
function growingJob(): StateAnalysisInput {
  const checkpoints = Array.from({ length: 20 }, (_, i) => {
    const subtasks = Array.from({ length: 4 }, () => ({ stateBytes: (10 + i) * MIB, checkpointedBytes: (10 + i) * MIB }));
    return { checkpointId: i + 1, t: T0 + i * MIN, stateBytes: subtasks.length * (10 + i) * MIB, subtasks };
  });
  return {
    clusterId: 'c1',
    jobId,
    jobName: 'failed-logins',
    to: T0 + 19 * MIN,
    windowMs: 30 * MIN,
    vertices: [{ vertexId: 'v1', name: 'failed-logins', parallelism: 4, maxParallelism: 128, keyed: true, broadcastInput: false, checkpoints, rocksdb: null }],
    restores: [],
    rocksdbStatus: 'unknown',
    capacity: { bytes: 10 * 1024 * MIB, source: 'the limit set' },
  };
}

beforeAll(async () => {
  store = HistoryStore.open(dirs.make(), { now: () => 100_000 });
  for (let t = 10_000; t <= 40_000; t += 10_000) await store.samples.append(syntheticSample({ t, vertices: 2, parallelism: 4 }));
});

afterAll(async () => {
  await store.close();
  dirs.removeAll();
});

describe("a report's State section", () => {
  it('carries the sentence, the suspect, per-vertex totals, trend and growth, and the projection', () => {
    const state = analyseState(growingJob());
    const section = reportStateOf(state)!;
    expect(section).toMatchObject({ suspect: state.suspect, sentence: state.sentence, checkpoints: 20, projection: state.projection?.sentence ?? null });
    expect(state.suspect).toBe('B');
    expect(section.projection).toMatch(/reaches/);
    expect(section.vertices).toEqual([
      expect.objectContaining({ vertexId: 'v1', totalBytes: 4 * 29 * MIB, trend: 'growing', growthPerHour: expect.closeTo(4 * 60 * MIB, -3) as number }),
    ]);
  });

  it('is null without checkpoints: a report of a job without checkpointing has no State section', () => {
    const report = readSkewReport(store, cluster, jobId, 60_000);
    expect(report.state).toBeNull();
    expect(renderReport(report, 'html').content).not.toContain('data-testid="report-state"');
    expect(reportStateOf(analyseState({ ...growingJob(), vertices: [] }))).toBeNull();
  });

  it('renders in the HTML, validates against the schema, and a report made before the section still renders and validates', () => {
    const base = readSkewReport(store, cluster, jobId, 60_000);
    const state = reportStateOf(analyseState(growingJob()))!;
    const html = renderReport({ ...base, state }, 'html').content;
    expect(html).toContain('data-testid="report-state"');
    expect(html).toContain(`<span class="suspect">Keys that never expire (no TTL)</span> ${esc(state.sentence)}`);
    expect(html).toContain(`<p data-testid="report-state-projection">${esc(state.projection!)}</p>`);
    expect(html).toMatch(/<td>failed-logins<\/td><td>4<\/td><td>116\.0 MiB<\/td><td>growing<\/td><td>\+\d+\.\d MiB\/h<\/td>/);
    expect(html).not.toMatch(/NaN|(src|href)=/);

    const validate = new Ajv({ strict: false }).compile(SKEW_REPORT_JSON_SCHEMA);
    const json = (report: object) => JSON.parse(renderReport(report as typeof base, 'json').content) as Record<string, unknown>;
    expect(validate(json({ ...base, state })), JSON.stringify(validate.errors)).toBe(true);
    const { state: _dropped, ...older } = base;
    expect(validate(json(older)), JSON.stringify(validate.errors)).toBe(true);
    expect(renderReport(older, 'html').content).not.toContain('report-state');
    expect(validate(json({ ...base, state: { ...state, suspect: 'E' } }))).toBe(false);
  });
});
