import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../engine/cli/testing/run-cli.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';

/**
 * Flink's profiler on a real cluster: e2e/flink/flink.sh turns `rest.profiling.enabled` on for 2.x and leaves it off
 * on 1.x (Flink's default). With it on, `flink-ops profile` runs a 2 s WALL profile of a TaskManager, and what it
 * prints and saves is Flink's: the file Flink serves for the entry Flink lists. WALL, not ITIMER: the test job's
 * throttle parks its threads, so a CPU-time profile of an idle TaskManager can hold a single sample (seen in CI); the
 * wall clock samples every thread, parked ones too.
 */
const cluster = readFlinkCluster();
const enabled = !cluster.version.startsWith('1.');
const dir = mkdtempSync(path.join(tmpdir(), 'flink-ops-profile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface FlinkProfiles {
  profilingList: Array<{ status: string; mode: string; outputFile: string | null }>;
}

describe(`the profiler on Flink ${cluster.version} (rest.profiling.enabled ${enabled ? 'on' : 'off'})`, () => {
  it(enabled ? "profiles a TaskManager: its frames, and the file Flink serves saved as it is" : 'says the profiler is off and how to turn it on, in one line', async () => {
    const { taskmanagers } = await getFromFlink<{ taskmanagers: Array<{ id: string }> }>(cluster, '/taskmanagers');
    const tm = taskmanagers[0].id;
    const out = path.join(dir, 'profile.html');
    const run = await runCli(['profile', '--url', cluster.restUrl, '--taskmanager', tm, '--mode', 'WALL', '--duration', '2', '--out', out], { timeout: 90_000 });
    if (!enabled) {
      expect([run.code, run.stderr.trim().split('\n').length]).toEqual([1, 1]);
      expect(run.stderr).toContain('rest.profiling.enabled: true');
      return;
    }
    expect(run.code, run.stderr).toBe(0);
    const listed = await getFromFlink<FlinkProfiles>(cluster, `/taskmanagers/${encodeURIComponent(tm)}/profiler`);
    const finished = listed.profilingList.filter((p) => p.status === 'FINISHED' && p.mode === 'WALL' && p.outputFile);
    const file = finished.map((p) => p.outputFile!).find((f) => run.stdout.includes(`Profile ${f} of TaskManager`));
    expect(file, `the profile printed is one Flink lists: ${run.stdout.split('\n')[0]}`).toBeDefined();
    const samples = Number(/(\d+) samples; most own time in /.exec(run.stdout)?.[1]);
    expect(samples, 'every thread sampled for 2 s').toBeGreaterThan(100);
    expect(run.stdout, 'the JVM\'s own threads on the heaviest stack').toMatch(/Heaviest stack[\s\S]*\bjava\.(lang|util)\./);
    const served = await fetch(`${cluster.restUrl}/taskmanagers/${encodeURIComponent(tm)}/profiler/${encodeURIComponent(file!)}`);
    expect(readFileSync(out, 'utf8')).toBe(await served.text());
    // --list shows it as Flink lists it.
    const list = await runCli(['profile', '--url', cluster.restUrl, '--taskmanager', tm, '--list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(file!);
  }, 120_000);
});
