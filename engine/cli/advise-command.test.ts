import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobAdvice } from '../contracts/advice.ts';
import type { LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { javaStringHashCode } from '../analysis/key-groups/java-hash.ts';
import { murmurHash } from '../analysis/key-groups/murmur.ts';
import { envWithEmptyHome, runCli } from './testing/run-cli.ts';
import { watchedHotTenant } from './testing/watched-hot-tenant.ts';

/**
 * `flink-ops advise` on hot-tenant as the app watched it (resources/scenarios/hot-tenant.yaml): acme brings ~400
 * records/s to tenant-cost, whose subtasks sustain 250 records/s each, at parallelism 32 and max parallelism 128.
 */
const dirs = tempDirs('flink-ops-advise-');
const run = (args: string[]) => runCli(args, { timeout: 60_000, env: envWithEmptyHome(dirs) });

let engine: LocalEngineHandle;
let dataDir: string;
beforeAll(async () => {
  ({ engine, dataDir } = await watchedHotTenant(dirs));
}, 90_000);

afterAll(async () => {
  await engine?.close();
  dirs.removeAll();
});

/** Flink's KeyGroupRangeAssignment spelled out step by step, apart from the advisor's own placement helper. */
function flinkSubtask(key: string, maxParallelism: number, parallelism: number): number {
  const keyGroup = murmurHash(javaStringHashCode(key)) % maxParallelism;
  return Math.floor((keyGroup * parallelism) / maxParallelism);
}

describe('flink-ops advise', () => {
  it('on hot-tenant: salts acme into buckets one subtask can carry, names where Flink places each, and says a rescale does not split it', async () => {
    const { code, stdout, stderr } = await run(['advise', '--url', engine.url, '--job', 'gatewaymeter', '--key', 'acme', '--data-dir', dataDir, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const advice = JSON.parse(stdout) as JobAdvice;
    expect(advice.vertexName).toMatch(/^tenant-cost/);
    expect(advice.basis).toMatchObject({ vertex: 'diagnosis', load: 'history', rate: 'estimated' });
    const s = advice.salting;
    expect(s).toMatchObject({ verdict: 'salt', key: 'acme', keyGroup: 50, subtask: 12, parallelism: 32, maxParallelism: 128, keyRateIsLowerBound: true });
    expect(advice.hotSubtask).toBe(12);
    expect(s.capacity!.recordsPerSecond).toBeGreaterThan(225);
    expect(s.capacity!.recordsPerSecond).toBeLessThan(275);
    // acme's ~400 records/s over the buckets: each under what one subtask sustains.
    expect(400 / s.buckets!).toBeLessThan(s.capacity!.recordsPerSecond);
    expect(s.saltedKeys.map((k) => k.key)).toEqual(Array.from({ length: s.buckets! }, (_, i) => `acme#${i}`));
    for (const k of s.saltedKeys) expect(k.subtask, k.key).toBe(flinkSubtask(k.key, 128, 32));
    expect(s.distinctSubtasks).toBe(new Set(s.saltedKeys.map((k) => flinkSubtask(k.key, 128, 32))).size);
    expect(s.before.maxOverMean!).toBeGreaterThan(20);
    expect(s.after!.maxOverMean!).toBeLessThan(s.before.maxOverMean! * 0.6);
    expect(s.notes.join(' ')).toMatch(/its demand is higher/);
    expect(advice.rescale.sentence).toMatch(/^A rescale does not split acme: one key is one key group, and one key group is on one subtask at any parallelism\. acme alone keeps its subtask saturated wherever it lands/);
    expect(advice.rescale.plans.map((p) => p.to)).toEqual([64, 128]);
    for (const plan of advice.rescale.plans) expect(plan.hotKeys[0]).toMatchObject({ key: 'acme', keyGroup: 50, subtaskAfter: flinkSubtask('acme', 128, plan.to) });
  }, 120_000);

  it('with the measured demand (--rate 400): three buckets, the other keys lifted as the back-pressure lets go, max/mean far below ~24; as text', async () => {
    const { code, stdout, stderr } = await run(['advise', '--url', engine.url, '--job', 'gatewaymeter', '--key', 'acme', '--rate', '400', '--data-dir', dataDir]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const buckets = [0, 1, 2].map((i) => `acme#${i}`);
    expect(stdout).toMatch(/^gatewaymeter \([0-9a-f]{32}\): acme on tenant-cost\S* .*\(parallelism 32, max parallelism 128\), load the console's history/);
    expect(stdout).toContain('acme: key group 50, subtask 12 (the hot subtask); 400 records/s (given).');
    expect(stdout).toMatch(/\nSalting: Salt acme into 3 buckets \(133 records\/s each, under 70% of the ~2\d\d records\/s one subtask sustains\)/);
    for (const key of buckets) expect(stdout).toMatch(new RegExp(`\\n${key} +\\d+ +${flinkSubtask(key, 128, 32)}\\n`));
    const [, now, after] = /Busy max\/mean: ([\d.]+)× now .* → ([\d.]+)× after/.exec(stdout)!.map(Number);
    expect(now).toBeGreaterThan(20);
    expect(after).toBeLessThan(now / 2);
    expect(stdout).toMatch(/\nWhat it costs:\n {2}- State: stage A keeps one pane per salted key and open window/);
    expect(stdout).toMatch(/\nRescale: A rescale does not split acme/);
    expect(stdout).toMatch(/\n {2}at parallelism 64: records max\/mean/);
  }, 120_000);

  it('without --key, or with a format without {i}: one line and exit 2', async () => {
    const noKey = await run(['advise', '--url', engine.url, '--job', 'gatewaymeter', '--data-dir', dataDir]);
    expect(noKey.code).toBe(2);
    expect(noKey.stdout).toBe('');
    expect(noKey.stderr).toBe("flink-ops: Give the hot key (--key K): the console has no sample of the job's keys to take it from.\n");
    const badFormat = await run(['advise', '--url', engine.url, '--job', 'gatewaymeter', '--key', 'acme', '--format', '{key}-salt', '--data-dir', dataDir]);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toMatch(/^flink-ops: The salted key format "\{key\}-salt" has no \{i\}/);
  }, 120_000);
});
