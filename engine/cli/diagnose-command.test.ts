import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateKey } from '../analysis/key-groups/key-location.ts';
import { DIAGNOSIS_JSON_SCHEMA } from '../analysis/diagnosis-schema.ts';
import type { JobDiagnosis } from '../contracts/diagnosis.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { parseWindow } from './diagnose-command.ts';
import { envWithEmptyHome, runCli } from './testing/run-cli.ts';
import { watchedHotTenant } from './testing/watched-hot-tenant.ts';

const dirs = tempDirs('flink-ops-diagnose-');

const run = (args: string[], timeout = 20_000) => runCli(args, { timeout, env: envWithEmptyHome(dirs) });

/** The app's history of hot-tenant, three minutes watched: see watchedHotTenant. */
let engine: LocalEngineHandle;
let dataDir: string;
beforeAll(async () => {
  ({ engine, dataDir } = await watchedHotTenant(dirs));
}, 90_000);

afterAll(async () => {
  await engine?.close();
  dirs.removeAll();
});

describe('flink-ops diagnose', () => {
  it("reads a watched job's window from the console's history and prints the finding, the hot subtasks and what was not known", async () => {
    const acme = locateKey({ key: 'acme', keyType: 'string', maxParallelism: 128, parallelism: 32 });
    const { code, stdout, stderr } = await run(['diagnose', '--url', engine.url, '--job', 'gatewaymeter', '--window', '60s', '--data-dir', dataDir]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^gatewaymeter \([0-9a-f]{32}\) RUNNING: 7 samples over 60 s \(from the console's history\), confidence high\n/);
    expect(stdout).toContain(`\ntenant-cost subtask ${acme.subtask} is saturated (busy 1,000 ms/s`);
    expect(stdout).toMatch(/data skew on the key\. assemble is back-pressured because of it\.\n/);
    expect(stdout).toMatch(new RegExp(`\\ntenant-cost -> Sink: usd-sink\\s+Busy\\s+${acme.subtask}\\s+\\S+\\s+1,000 ms/s\\s+2\\d\\.\\d×\\s+100\\.0%`));
    // The newest completed checkpoint of the window names the hot subtask: its barrier waited behind the backlog.
    expect(stdout).toMatch(new RegExp(`Checkpoint outliers\\n {2}checkpoint \\d+: subtask ${acme.subtask} of tenant-cost started its checkpoint [\\d.]+ s late`));
  });

  it('reads the three minutes a watch has of a longer window from the history, and says so in one line, instead of sampling it', async () => {
    const { code, stdout, stderr } = await run(['diagnose', '--url', engine.url, '--job', 'gatewaymeter', '--window', '5m', '--data-dir', dataDir]);
    expect(stderr).toMatch(/^From the console's history: 3 min of the 5 min asked \(\S+Z to \S+Z\), since the app started watching the job; the time before is not sampled\.\n$/);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^gatewaymeter \([0-9a-f]{32}\) RUNNING: 18 samples over 3 min \(from the console's history, 3 min of the 5 min asked\)/);
  });

  it('prints the same as JSON that matches its documented schema', async () => {
    const { code, stdout } = await run(['diagnose', '--url', engine.url, '--job', 'gatewaymeter', '--data-dir', dataDir, '--json']);
    expect(code).toBe(0);
    const diagnosis = JSON.parse(stdout) as JobDiagnosis;
    expect(diagnosis.finding.kind).toBe('skew');
    const validate = new Ajv({ strict: false }).compile(DIAGNOSIS_JSON_SCHEMA);
    expect(validate(diagnosis), JSON.stringify(validate.errors)).toBe(true);
    const schema = await run(['diagnose', '--json-schema']);
    expect(JSON.parse(schema.stdout)).toEqual(JSON.parse(JSON.stringify(DIAGNOSIS_JSON_SCHEMA)));
  });

  it('samples the job for the window itself when the history does not cover it, and says "no skew" on a uniform run', async () => {
    const uniform = await startLocalEngine({ port: 0 });
    try {
      const { code, stdout, stderr } = await run(['diagnose', '--url', uniform.url, '--job', 'gatewaymeter', '--window', '20s'], 60_000);
      expect(stderr).toMatch(/^Sampling the job for 20 s \(3 samples, one every 10 s\)\.\.\.\n$/);
      expect(code).toBe(0);
      expect(stdout).toMatch(/\(sampled now\)/);
      // The first sample's figures are of unknown age: the verdict names the 10 s its evidence covers.
      expect(stdout).toMatch(/Nothing is back-pressured or busy and no subtask is hot over the last 10 s \(all the evidence there is of the 20 s asked\): no skew\./);
      expect(stdout).toMatch(/Hot subtasks\n {2}none/);
    } finally {
      await uniform.close();
    }
  }, 60_000);

  it.each([
    [['diagnose', '--job', 'x'], 2, /required option '--url <url>'/],
    [['diagnose', '--url', 'http://127.0.0.1:1'], 2, /required option '--job <id\|name>'/],
    [['diagnose', '--url', 'http://127.0.0.1:1', '--job', 'x', '--window', 'soon'], 2, /--window must be a duration from 10s to 24h .* got "soon"/],
    [['diagnose', '--url', 'http://127.0.0.1:1', '--job', 'x'], 3, /Connection refused/],
  ])('flink-ops %j exits %i with one line', async (args, code, message) => {
    const result = await run(args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 4 for a job that is not there', async () => {
    const result = await run(['diagnose', '--url', engine.url, '--job', 'nightly-etl']);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('flink-ops: No job with id or name "nightly-etl" on this cluster.\n');
  });
});

describe('parseWindow', () => {
  it('reads durations in ms, s, m and h', () => {
    expect(parseWindow('60s')).toBe(60_000);
    expect(parseWindow('5m')).toBe(300_000);
    expect(parseWindow('1.5 h')).toBe(5_400_000);
    expect(parseWindow('90000')).toBe(90_000);
    expect(() => parseWindow('5s')).toThrow(/from 10s to 24h/);
    expect(() => parseWindow('2d')).toThrow(/got "2d"/);
  });
});
