import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateKey } from '../analysis/key-groups/key-location.ts';
import { decodeBundle } from '../exports/incident-bundle.ts';
import type { SkewReport } from '../exports/skew-report.ts';
import type { LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { envWithEmptyHome, runCli } from './testing/run-cli.ts';
import { watchedHotTenant } from './testing/watched-hot-tenant.ts';

/**
 * `diagnose`, `report` and `bundle` on a job the app recorded but no longer watches: they read the samples the history
 * has for the window and say which part of it that is, instead of sampling the whole window anew (a 24 h window would
 * take 8,641 samples and a day); they sample only a window the history has nothing of.
 */
const dirs = tempDirs('flink-ops-recorded-');
const run = (args: string[], timeout = 30_000) => runCli(args, { timeout, env: envWithEmptyHome(dirs) });
const STOPPED_AGO_MS = 10 * 60_000;

/** hot-tenant, watched by the app for three minutes that ended ten minutes ago. */
let engine: LocalEngineHandle;
let dataDir: string;
let out: string;
beforeAll(async () => {
  ({ engine, dataDir } = await watchedHotTenant(dirs, { stoppedAgoMs: STOPPED_AGO_MS }));
  out = dirs.make();
}, 90_000);

afterAll(async () => {
  await engine?.close();
  dirs.removeAll();
});

const acme = locateKey({ key: 'acme', keyType: 'string', maxParallelism: 128, parallelism: 32 });
// The recording ended ten minutes before the setup, on the wall clock: a loaded machine's tests may run half a minute later.
const PART_LINE = (asked: string) =>
  new RegExp(
    `^From the console's history: 3 min of the ${asked} asked \\(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ to \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\); the app stopped watching the job 1[01] min ago, and the rest of the window is not sampled again\\.\\n$`,
  );

describe('a job the app recorded but no longer watches', () => {
  it('diagnose reads the part of the window the history has, says which in one line, and names the hot subtask', async () => {
    const { code, stdout, stderr } = await run(['diagnose', '--url', engine.url, '--job', 'gatewaymeter', '--window', '1h', '--data-dir', dataDir]);
    expect(stderr).toMatch(PART_LINE('60 min'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^gatewaymeter \([0-9a-f]{32}\) RUNNING: 18 samples over 3 min \(from the console's history, 3 min of the 60 min asked\), confidence \w+\n/);
    expect(stdout).toContain(`\ntenant-cost subtask ${acme.subtask} is saturated (busy `);
  }, 60_000);

  it('report reads the same samples over a 24 h window, ending at the last one the app took', async () => {
    const { code, stdout, stderr } = await run(['report', '--url', engine.url, '--job', 'gatewaymeter', '--window', '24h', '--format', 'json', '--data-dir', dataDir]);
    expect(stderr).toMatch(PART_LINE('24 h'));
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as SkewReport;
    expect(report.window.samples).toBe(18);
    expect(Date.now() - Date.parse(report.asOf!)).toBeGreaterThanOrEqual(STOPPED_AGO_MS);
    expect(report.finding.kind).toBe('skew');
    expect(report.finding.subtasks.map((s) => s.subtask)).toEqual([acme.subtask]);
  }, 60_000);

  it("bundle saves those samples, and the bundle's report is the live one", async () => {
    const file = path.join(out, 'recorded.flinkops-bundle');
    const saved = await run(['bundle', '--url', engine.url, '--job', 'gatewaymeter', '--window', '24h', '--data-dir', dataDir, '--out', file]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toMatch(/^From the console's history: 3 min of the 24 h asked \(.*\); the app stopped watching the job 10 min ago, .*\nSaved the incident bundle to /);
    expect(decodeBundle(readFileSync(file)).samples).toHaveLength(18);
    const live = await run(['report', '--url', engine.url, '--job', 'gatewaymeter', '--window', '24h', '--format', 'json', '--data-dir', dataDir]);
    const fromBundle = await run(['report', '--from-bundle', file, '--format', 'json']);
    expect(fromBundle.code, fromBundle.stderr).toBe(0);
    expect(fromBundle.stdout).toBe(live.stdout);
  }, 60_000);

  it('samples the job now for a window the history has nothing of', async () => {
    const { code, stdout, stderr } = await run(['diagnose', '--url', engine.url, '--job', 'gatewaymeter', '--window', '10s', '--data-dir', dataDir], 60_000);
    expect(stderr).toMatch(/^Sampling the job for 10 s \(3 samples, one every 5 s\)\.\.\.\n$/);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\(sampled now\)/);
  }, 60_000);
});
