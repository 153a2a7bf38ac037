import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GeneratorConfig } from '../gatewaymeter/generator.ts';
import { ABANDON_AFTER_MS, gatewayMeterJob, gatewayMeterSaltedJob, SALTED_ALLOWED_LATENESS_MS, WINDOW_MS } from '../gatewaymeter/pipelines.ts';
import { NdjsonUpsertLog, ResultStore, TenantCostSink } from '../gatewaymeter/sinks.ts';
import { LocalCluster } from '../runtime/cluster.ts';
import { ManualClock } from '../time/clock.ts';
import { compareTotals, findLateSubset } from './compare-totals.ts';
import {
  cellKey,
  computeExpectedTotals,
  ORACLE_ABANDON_AFTER_MS,
  ORACLE_SALTED_ALLOWED_LATENESS_MS,
  ORACLE_WINDOW_MS,
  windowStartOf,
  type OracleRecord,
} from './gatewaymeter-oracle.ts';
import { readUpsertLog, UpsertLogError } from './upsert-log.ts';

const T0 = 1_700_000_040_000;
const MIX: Pick<GeneratorConfig, 'tenants' | 'models'> = {
  tenants: { acme: 7, globex: 20, initech: 15, umbrella: 30, hooli: 28 },
  models: { 'model-a': 1, 'model-b': 2 },
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'oracle-'));
  dirs.push(d);
  return d;
}

/** Runs a built-in job to the end on the engine, writing the upsert log; returns the sink dir. */
function runJob(job: 'gatewaymeter' | 'gatewaymeter-salted', generator: GeneratorConfig, parallelism: number): string {
  const dir = tempDir();
  const cluster = new LocalCluster({ clock: new ManualClock(T0) });
  const build = job === 'gatewaymeter' ? gatewayMeterJob : gatewayMeterSaltedJob;
  const run = cluster.submitJob(build({ parallelism, generator, sink: new TenantCostSink(new ResultStore(), new NdjsonUpsertLog(dir, job)) }));
  expect(cluster.advanceUntil(() => run.status === 'FINISHED', 600_000), 'the bounded job finishes').toBe(true);
  return dir;
}

describe('the oracle restates the pipeline', () => {
  it('uses the pipeline\'s window, abandon timeout and salted lateness', () => {
    expect([ORACLE_WINDOW_MS, ORACLE_ABANDON_AFTER_MS, ORACLE_SALTED_ALLOWED_LATENESS_MS]).toEqual([WINDOW_MS, ABANDON_AFTER_MS, SALTED_ALLOWED_LATENESS_MS]);
    expect(windowStartOf(119_999)).toBe(60_000);
    expect(windowStartOf(-1)).toBe(-60_000);
  });

  it('is deterministic, counts every request once, and has no late records without late data', () => {
    const generator: GeneratorConfig = { seed: 3, rate: 2000, events: 20_000, ...MIX, lateFraction: 0 };
    const a = computeExpectedTotals({ generator, sourceParallelism: 2, startTime: T0 });
    const b = computeExpectedTotals({ generator, sourceParallelism: 2, startTime: T0 });
    expect([...a.cells]).toEqual([...b.cells]);
    expect(a.stats.events).toBe(20_000);
    expect(a.stats.uncertain).toBe(0);
    expect(a.stats.records).toBe(a.stats.completed + a.stats.abandoned);
    expect(a.stats.abandoned).toBeGreaterThan(0);
    expect(a.stats.completionsWithoutStart).toBeGreaterThan(0);
    const requests = [...a.cells.values()].reduce((s, c) => s + c.certain.requests, 0);
    expect(requests).toBe(a.stats.records);
    // Another source parallelism is another stream.
    expect(computeExpectedTotals({ generator, sourceParallelism: 3, startTime: T0 }).stats.records).not.toBe(a.stats.records);
  });
});

describe('the oracle against the engine', () => {
  it('plain run without late data: exact equality', () => {
    const generator: GeneratorConfig = { seed: 11, rate: 3000, events: 40_000, ...MIX, lateFraction: 0, abandonFraction: 0.01, orphanFraction: 0.01 };
    const dir = runJob('gatewaymeter', generator, 3);
    const expected = computeExpectedTotals({ generator, sourceParallelism: 3, startTime: T0 });
    const result = compareTotals(expected, readUpsertLog(dir).rows);
    expect(result.ok, result.report()).toBe(true);
    expect(result.actual.requests).toBe(expected.stats.records);
  });

  it('plain run with late data: the dropped records are among the oracle\'s late ones', () => {
    const generator: GeneratorConfig = { seed: 5, rate: 500, events: 30_000, ...MIX, lateFraction: 0.02, lateDelayMs: [20_000, 90_000] };
    const dir = runJob('gatewaymeter', generator, 2);
    const expected = computeExpectedTotals({ generator, sourceParallelism: 2, startTime: T0 });
    expect(expected.stats.uncertain).toBeGreaterThan(0);
    const result = compareTotals(expected, readUpsertLog(dir).rows);
    expect(result.ok, result.report()).toBe(true);
    expect(result.lateDropped).toBeGreaterThan(0);
  });

  it('salted run with late data within its 2 minutes of lateness: exact, every late record counted', () => {
    const generator: GeneratorConfig = { seed: 5, rate: 500, events: 30_000, ...MIX, lateFraction: 0.02, lateDelayMs: [20_000, 90_000] };
    const dir = runJob('gatewaymeter-salted', generator, 2);
    const expected = computeExpectedTotals({ generator, sourceParallelism: 2, startTime: T0, allowedLatenessMs: ORACLE_SALTED_ALLOWED_LATENESS_MS });
    expect(expected.stats.uncertain).toBe(0);
    const log = readUpsertLog(dir, 'gatewaymeter-salted');
    expect(log.lines).toBeGreaterThan(log.rows.size); // late firings appended more lines
    const result = compareTotals(expected, log.rows);
    expect(result.ok, result.report()).toBe(true);
  });
});

describe('compareTotals explains differences', () => {
  const generator: GeneratorConfig = { seed: 9, rate: 1000, events: 8000, ...MIX, lateFraction: 0 };
  const expected = computeExpectedTotals({ generator, sourceParallelism: 1, startTime: T0 });
  const perfect = () =>
    new Map(
      [...expected.cells].map(([k, c]) => [k, { tenant_id: c.tenant_id, window_start: c.window_start, window_end: c.window_end, usd: c.certain.nanoUsd / 1e9, requests: c.certain.requests }]),
    );

  it('accepts the exact answer', () => {
    expect(compareTotals(expected, perfect()).ok).toBe(true);
  });

  it('reports a missing row, a wrong value and an unexpected row', () => {
    const rows = perfect();
    const [k1, k2] = [...rows.keys()];
    rows.delete(k1);
    rows.set(k2, { ...rows.get(k2)!, requests: rows.get(k2)!.requests + 1, usd: rows.get(k2)!.usd + 0.000001 });
    rows.set(cellKey('nobody', 0), { tenant_id: 'nobody', window_start: 0, window_end: 60_000, usd: 1, requests: 1 });
    const result = compareTotals(expected, rows);
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => p.kind).sort()).toEqual(['mismatch', 'missing', 'unexpected']);
    expect(result.report()).toMatch(/3 problem\(s\)/);
    expect(result.problems.find((p) => p.kind === 'mismatch')!.message).toMatch(/difference \+1 request\(s\), \+0\.000001000 USD/);
  });
});

describe('late-record subsets', () => {
  const rec = (nanoUsd: number): OracleRecord => ({ request_id: String(nanoUsd), tenant_id: 't', model: 'm', timestamp: 0, status: 'completed', nanoUsd, sourceSubtask: 0, certain: false });
  it('finds which late records a window counted', () => {
    const late = [5, 7, 11, 13, 7].map(rec);
    const two = findLateSubset(late, 2, 18)!;
    expect(two).toHaveLength(2);
    expect(two[0].nanoUsd + two[1].nanoUsd).toBe(18);
    expect(findLateSubset(late, 0, 0)).toEqual([]);
    expect(findLateSubset(late, 2, 100)).toBeUndefined();
    expect(findLateSubset(late, 6, 43)).toBeUndefined();
  });
});

describe('readUpsertLog', () => {
  it('keeps the last line per key, skips a torn last line, and rejects bad lines with file:line', () => {
    const dir = tempDir();
    const file = path.join(dir, 'gatewaymeter.ndjson');
    const line = (usd: number, requests: number) => JSON.stringify({ tenant_id: 'acme', window_start: 60_000, window_end: 120_000, usd, requests });
    writeFileSync(file, `${line(1, 1)}\n${line(2, 3)}\n{"tenant_id":"ac`);
    const log = readUpsertLog(dir);
    expect(log.rows.get('acme|60000')).toMatchObject({ usd: 2, requests: 3 });
    expect(log).toMatchObject({ lines: 2, tornLastLine: true });
    writeFileSync(file, `${line(1, 1)}\n{"tenant_id":"acme","window_start":60000,"window_end":120000,"usd":-1,"requests":1}\n`);
    expect(() => readUpsertLog(file)).toThrow(new UpsertLogError(`${file}:2: "usd" must be a number >= 0.`));
    expect(readUpsertLog(path.join(dir, 'none.ndjson')).rows.size).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('acme');
  });
});
