import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignKeyToParallelOperator } from '../analysis/key-groups/key-group-range-assignment.ts';
import type { Rehearsal } from '../contracts/rehearsal.ts';
import type { LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { envWithEmptyHome, FLINK_OPS_BIN, runCli } from './testing/run-cli.ts';
import { watchedHotTenant } from './testing/watched-hot-tenant.ts';

/**
 * `flink-ops rehearse` on hot-tenant as the app watched it (resources/scenarios/hot-tenant.yaml): acme's ~400 records/s
 * saturate tenant-cost subtask 12 (250 records/s a subtask, parallelism 32, max parallelism 128), back-pressure holds
 * the source at ~625 of its 1,000 records/s. The live job's figures are read from its REST API here, apart from the CLI.
 */
const dirs = tempDirs('flink-ops-rehearse-');
const run = (args: string[]) => runCli(args, { timeout: 90_000, env: envWithEmptyHome(dirs) });

let engine: LocalEngineHandle;
let dataDir: string;
let live: { busy: number[]; maxOverMean: number };
beforeAll(async () => {
  ({ engine, dataDir } = await watchedHotTenant(dirs));
  const jobId = [...engine.engine.cluster.jobs.values()][0].jobId;
  const details = (await (await fetch(`${engine.url}/jobs/${jobId}`)).json()) as { vertices: Array<{ id: string; name: string }> };
  const tenantCost = details.vertices.find((v) => v.name.startsWith('tenant-cost'))!.id;
  const busy = await Promise.all(
    Array.from({ length: 32 }, async (_, s) => {
      const [m] = (await (await fetch(`${engine.url}/jobs/${jobId}/vertices/${tenantCost}/subtasks/${s}/metrics?get=busyTimeMsPerSecond`)).json()) as Array<{ value: string }>;
      return Number(m.value);
    }),
  );
  live = { busy, maxOverMean: Math.max(...busy) / (busy.reduce((a, b) => a + b, 0) / busy.length) };
}, 90_000);

afterAll(async () => {
  await engine?.close();
  dirs.removeAll();
});

const base = () => ['rehearse', '--url', engine.url, '--job', 'gatewaymeter', '--key', 'acme', '--data-dir', dataDir];

describe('flink-ops rehearse', () => {
  it('--salt 8: the baseline twin is the live job (hot subtask 12, max/mean within 20%), the salted twin halves max/mean and lifts throughput 1.5×, and says its salted keys collide', async () => {
    const { code, stdout, stderr } = await run([...base(), '--salt', '8', '--seconds', '30', '--json']);
    expect(stderr).toBe(
      "Rehearsing the job's current shape on the local engine (60 simulated seconds; Ctrl-C cancels)...\nRehearsing the proposal on the local engine (60 simulated seconds; Ctrl-C cancels)...\n",
    );
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Rehearsal;
    expect(r).toMatchObject({ key: 'acme', keyGiven: true, proposal: { kind: 'salt', buckets: 8 } });
    expect(r.vertexName).toMatch(/^tenant-cost/);
    // Production as the CLI read it is the live job.
    expect(r.observed.hotSubtask).toBe(assignKeyToParallelOperator('acme', 128, 32));
    expect(live.busy[12]).toBeGreaterThanOrEqual(980);
    expect(Math.abs(r.observed.busy.maxOverMean! - live.maxOverMean) / live.maxOverMean).toBeLessThan(0.1);
    expect(r.observed.demandBasis).toBe('watermark-lag');
    expect(r.observed.demandRecordsPerSecond).toBeGreaterThan(900);
    expect(r.observed.demandRecordsPerSecond).toBeLessThan(1100);
    // The baseline twin.
    expect(r.baseline.hotSubtask).toBe(12);
    expect(Math.abs(r.baseline.busy.maxOverMean! - live.maxOverMean) / live.maxOverMean).toBeLessThanOrEqual(0.2);
    expect(r.match.matches).toBe(true);
    expect(r.baseline.upstreamBackPressuredTimeMsPerSecond).toBeGreaterThan(500);
    expect(r.baseline.checkpoint!.stateSizeBytes).toBeGreaterThan(0);
    // The salted twin.
    const salted = r.proposed!;
    expect(salted).toMatchObject({ job: 'gatewaymeter-salted', parallelism: 32, saltBuckets: 8 });
    expect(salted.busy.maxOverMean!).toBeLessThanOrEqual(r.baseline.busy.maxOverMean! / 2);
    expect(salted.throughputRecordsPerSecond).toBeGreaterThanOrEqual(1.5 * r.baseline.throughputRecordsPerSecond);
    expect(salted.checkpoint).not.toBeNull();
    // acme#0..7 where Flink puts them. At 32 they happen to reach 8 subtasks; about 7 is what hashing gives on average,
    // and the prediction says that salted keys collide rather than promising an even spread.
    const subtasks = Array.from({ length: 8 }, (_, i) => assignKeyToParallelOperator(`acme#${i}`, 128, 32));
    expect(r.placement!.saltedKeys.map((k) => k.subtask)).toEqual(subtasks);
    expect(r.placement!.distinctSubtasks).toBe(new Set(subtasks).size);
    expect(r.placement!.expectedDistinctSubtasks).toBeCloseTo(7.2, 1);
    expect(r.sentence).toContain(`8 salted keys of acme over 32 subtasks reach ${new Set(subtasks).size} (about 7.2 expected at random)`);
    expect(r.sentence).toContain('salted keys collide more often than not');
    expect(r.sentence).toMatch(/^The twin matches production/);
  }, 120_000);

  it('--parallelism 64: the baseline, then the rescaled twin, whose hot key still saturates one subtask; as text', async () => {
    const { code, stdout, stderr } = await run([...base(), '--parallelism', '64', '--seconds', '20']);
    expect(stderr).toMatch(/^Rehearsing the job's current shape on the local engine \(50 simulated seconds; Ctrl-C cancels\)\.\.\.\nRehearsing the proposal/);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^gatewaymeter \([0-9a-f]{32}\): tenant-cost\S* .*acme, rehearsing parallelism 64 \(parallelism 32, max parallelism 128\)/);
    expect(stdout).toMatch(/\nThe twin matches production: .*At parallelism 64, the twin predicts: throughput \d{3} records\/s → \d{3} records\/s/);
    const hot = assignKeyToParallelOperator('acme', 128, 64);
    expect(stdout).toMatch(new RegExp(`\\nPARALLELISM 64 +\\d{3} +${hot} +1,000 `));
    expect(stdout).toMatch(/\nSUBTASK +PRODUCTION +BASELINE +PROPOSAL\n/);
    expect(stdout).toMatch(/\n63 +- +- +\d+\n/);
  }, 120_000);

  it('Ctrl-C while the twin runs cancels it: one line and exit 1', async () => {
    const child = spawn(process.execPath, [FLINK_OPS_BIN, ...base(), '--salt', '8', '--seconds', '300'], { env: envWithEmptyHome(dirs) });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      const first = stderr === '';
      stderr += chunk.toString();
      if (first && stderr.startsWith('Rehearsing')) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toMatch(/\nflink-ops: The rehearsal was cancelled\.\n$/);
    expect(stderr).not.toContain('Rehearsing the proposal');
  }, 120_000);

  it('refuses what its limits do not allow, and bad proposals: one line and exit 2', async () => {
    const tooLong = await run([...base(), '--salt', '8', '--seconds', '1000']);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toBe('flink-ops: A rehearsal measures from 5 to 300 simulated seconds per run, not 1000.\n');
    const both = await run([...base(), '--salt', '8', '--parallelism', '64']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('flink-ops: Rehearse one proposal: --salt N (buckets) or --parallelism P.\n');
    const above = await run([...base(), '--parallelism', '200']);
    expect(above.code).toBe(2);
    expect(above.stderr).toMatch(/^flink-ops: The parallelism must be a whole number from 1 to the max parallelism 128 of tenant-cost/);
  }, 120_000);
});
