import { windowInfo } from './window-info.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobSample } from '../history/job-sample.ts';
import { SCENARIO_DIR } from '../local/scenarios/scenario.ts';
import { diagnoseSamples } from './diagnose-job.ts';
import { DIAGNOSIS_JSON_SCHEMA } from './diagnosis-schema.ts';
import { locateKey } from './key-groups/key-location.ts';
import { skewHeatmap } from './skew-heatmap.ts';
import { between, recordLocalEngine } from './testing/local-engine-window.ts';
import { RECORDED_FLINK_VERSIONS, recordedFlinkWindow } from './testing/recorded-flink-window.ts';
import { assignKeyToParallelOperator } from './key-groups/key-group-range-assignment.ts';
import { jobWindowStats } from './window-stats.ts';

/**
 * The diagnosis on data recorded from the local engine through its REST API, as the sampler takes it (virtual
 * clock: minutes in seconds, the same figures every run). The subtask that must be named is computed here from
 * Flink's key-group assignment, never read from the analysis.
 */
let hotTenant: JobSample[];
let rehearsal: JobSample[];
let uniform: JobSample[];
const dir = mkdtempSync(path.join(os.tmpdir(), 'diagnose-'));

beforeAll(async () => {
  // An operator's own rehearsal: globex jumps to half the traffic 20 s in, tenant-cost at 24 of 256 key groups.
  const file = path.join(dir, 'globex-rush.yaml');
  writeFileSync(
    file,
    readFileSync(path.join(SCENARIO_DIR, 'hot-tenant.yaml'), 'utf8')
      .replace('name: hot-tenant', 'name: globex-rush')
      .replace('tenant-cost: 32', 'tenant-cost: 24')
      .replace(/- at: 30s\n(\s+)share:\n(\s+)acme: 0.40/, '- at: 20s\n$1share:\n$2globex: 0.5'),
  );
  [hotTenant, rehearsal, uniform] = [
    await recordLocalEngine({ scenario: 'hot-tenant', seconds: 180 }),
    await recordLocalEngine({ scenario: file, maxParallelism: 256, seconds: 150 }),
    await recordLocalEngine({ seconds: 90 }),
  ];
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the diagnosis of the local engine', () => {
  it("names hot-tenant's tenant-cost subtask owning acme, says skew, and explains assemble's lopsided backpressure", () => {
    const acme = locateKey({ key: 'acme', keyType: 'string', maxParallelism: 128, parallelism: 32 });
    const d = diagnoseSamples(between(hotTenant, 120, 180), 60_000);
    expect(d.finding.kind).toBe('skew');
    expect(d.finding.vertexName).toBe('tenant-cost -> Sink: usd-sink');
    expect(d.finding.subtasks.map((s) => s.subtask)).toEqual([acme.subtask]);
    expect(d.finding.sentence).toMatch(
      new RegExp(`^tenant-cost subtask ${acme.subtask} is saturated \\(busy 1,000 ms/s, 2[2-4]× the vertex's average\\) while its 31 siblings are nearly idle \\(busy at most \\d+ ms/s\\): data skew on the key\\. assemble is back-pressured because of it\\.$`),
    );
    const details = d.finding.details.join('\n');
    expect(details).toContain(`Subtask ${acme.subtask} owns key groups ${acme.range.startKeyGroup}–${acme.range.endKeyGroup} of 128`);
    expect(details).toMatch(/Only assemble subtask \d is HIGH: it cannot send to tenant-cost subtask 12.*Source: gateway-events then blocks on its full input, so assemble's other 3 subtasks get little or no input and idle/);
    expect(details).toMatch(/16 of its 32 subtasks receive no records: fewer active keys than subtasks/);
    expect(d.finding.victims.map((v) => [v.name, v.level, v.direct])).toEqual([
      ['assemble', 'high', true],
      ['Source: gateway-events -> parse', 'high', false],
    ]);
    const tenantCost = d.vertices.find((v) => v.name.startsWith('tenant-cost'))!;
    expect(tenantCost).toMatchObject({ keyed: true, pattern: 'hot', loadMetric: 'busyTimeMsPerSecond' });
    const busy = tenantCost.metrics.find((m) => m.metric === 'busyTimeMsPerSecond')!;
    expect(busy.hot[0]).toMatchObject({ subtask: acme.subtask, taskManagerId: expect.any(String) });
    expect(busy.maxOverMean).toBeGreaterThan(21);
    expect(busy.maxOverMean).toBeLessThan(26);
    expect(busy.dataSkewPercent).toBe(100);
    expect(d.confidence.level).toBe('high');
  });

  it('says the few-keys picture before the shift calmly: nothing wrong, no skew', () => {
    // The first sample's figures are of unknown age (the watch's first): 10 s of evidence, a verdict over 20 s.
    const d = diagnoseSamples(between(hotTenant, 0, 30), 20_000);
    expect(d.finding).toMatchObject({ kind: 'nothing-wrong', severity: 'ok', subtasks: [] });
    expect(d.finding.sentence).toMatch(/no skew\.$/);
    expect(d.finding.details).toEqual([expect.stringMatching(/^tenant-cost: 16 of 32 subtasks receive no records — fewer active keys than subtasks, not skew\.$/)]);
    const tenantCost = d.vertices.find((v) => v.name.startsWith('tenant-cost'))!;
    expect(tenantCost.pattern).toBe('few-keys');
    // max/mean reads about 3×, which alone would look like an alarm.
    expect(tenantCost.metrics.find((m) => m.metric === 'busyTimeMsPerSecond')!.maxOverMean).toBeGreaterThan(2.5);
  });

  it("names the right subtask in an operator's own scenario at another parallelism and max parallelism", () => {
    const globex = locateKey({ key: 'globex', keyType: 'string', maxParallelism: 256, parallelism: 24 });
    const d = diagnoseSamples(between(rehearsal, 90, 150), 60_000);
    expect(d.finding.kind).toBe('skew');
    expect(d.finding.subtasks.map((s) => s.subtask)).toEqual([globex.subtask]);
    expect(d.finding.sentence).toMatch(new RegExp(`^tenant-cost subtask ${globex.subtask} is saturated .* while its 23 siblings .*: data skew on the key\\.`));
    expect(d.finding.details.join(' ')).toContain(`owns key groups ${globex.range.startKeyGroup}–${globex.range.endKeyGroup} of 256`);
    expect(d.vertices.map((v) => v.maxParallelism)).toEqual([256, 256, 256]);
  });

  it('says "no skew" for a uniform run and names no hot subtask', () => {
    const d = diagnoseSamples(between(uniform, 30, 90), 60_000);
    expect(d.finding.kind).toBe('nothing-wrong');
    expect(d.finding.sentence).toMatch(/no skew\.$/);
    expect(d.finding.subtasks).toEqual([]);
    for (const v of d.vertices) for (const m of v.metrics) expect(m.hot, `${v.name} ${m.metric}`).toEqual([]);
  });

  it('gives JSON that matches the documented schema, and survives a round trip unchanged', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(DIAGNOSIS_JSON_SCHEMA);
    for (const d of [diagnoseSamples(between(hotTenant, 120, 180), 60_000), diagnoseSamples(uniform, 90_000), diagnoseSamples([], 60_000)]) {
      const json = JSON.parse(JSON.stringify(d));
      expect(json).toEqual(d);
      expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('draws the heatmap hottest at the acme cell, as plain JSON', () => {
    const acme = locateKey({ key: 'acme', keyType: 'string', maxParallelism: 128, parallelism: 32 });
    const samples = between(hotTenant, 120, 180);
    const window = jobWindowStats(samples);
    const heatmap = skewHeatmap(window, 'busyTimeMsPerSecond', 'mean', windowInfo(window, 60_000));
    const row = heatmap.rows.find((r) => r.name.startsWith('tenant-cost'))!;
    expect(row.values).toHaveLength(32);
    expect(row.values[acme.subtask]).toBe(heatmap.max);
    expect(row.hot).toEqual([acme.subtask]);
    expect(row.keyed).toBe(true);
    expect(JSON.parse(JSON.stringify(heatmap))).toEqual(heatmap);
  });
});

describe.each(RECORDED_FLINK_VERSIONS)('the diagnosis of the real Flink %s test job (recorded window)', (version) => {
  it("names throttle's subtask owning acme as saturated by a hot key, with the source back-pressured", () => {
    const { samples } = recordedFlinkWindow(version);
    // Right after the start Flink reports the accumulated busy time as "NaN": read as missing, not as a broken vertex.
    expect(samples[0].vertices.every((v) => v.subtasks !== null)).toBe(true);
    const d = diagnoseSamples(samples, 70_000);
    const acme = assignKeyToParallelOperator('acme', 128, 2);
    expect(d.finding).toMatchObject({ kind: 'skew', severity: 'critical', vertexName: 'throttle' });
    expect(d.finding.subtasks.map((s) => s.subtask)).toEqual([acme]);
    expect(d.finding.sentence).toMatch(new RegExp(`^throttle subtask ${acme} is saturated \\(busy (9\\d\\d|1,000) ms/s, .*: data skew on the key\\. Source: events is back-pressured because of it\\.$`));
    expect(d.finding.subtasks[0].taskManagerId).toMatch(/^127\.0\.0\.1:\d+-/);
    const throttle = d.vertices.find((v) => v.name === 'throttle')!;
    expect(throttle.metrics.find((m) => m.metric === 'busyTimeMsPerSecond')!.hot.map((h) => h.subtask)).toEqual([acme]);
    const validate = new Ajv({ strict: false }).compile(DIAGNOSIS_JSON_SCHEMA);
    expect(validate(JSON.parse(JSON.stringify(d))), JSON.stringify(validate.errors)).toBe(true);
  });
});
