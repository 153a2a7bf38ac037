import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../engine/contracts/operations.ts';
import { mulberry32 } from '../../engine/local/time/random.ts';
import { killAll, runFlinkOps } from '../../engine/operations/testing/console-processes.ts';
import { checkOutcomes, killApp, killCli, type KillTarget } from '../../engine/operations/testing/kill-harness.ts';
import { ROOT } from '../support/paths.ts';
import { readFlinkCluster } from '../support/flinkCluster.ts';
import { cancelQuietly, jobDetails, runTestJob } from './testJobs.ts';

/**
 * kill -9 of the console (10 times the CLI, 10 times the app) at random moments of a savepoint or a stop on a real
 * Flink, which outlives it. After each restart the journal holds exactly one outcome per operation; what the cluster
 * did is read from disk: the savepoint folders in this run's target directory are exactly the paths the journal
 * recorded as succeeded (a doubled trigger would leave a folder more, a lost one a folder without its entry).
 */
const cluster = readFlinkCluster();
const root = path.join(ROOT, '.cache/test-operations', cluster.version);
const started: string[] = [];
let work: string | undefined;

afterAll(async () => {
  for (const jobId of started) await cancelQuietly(cluster, jobId);
  killAll();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`kill -9 of the console on a real Flink ${cluster.version}`, () => {
  it('20 times: one outcome per operation, and one savepoint on disk per succeeded operation', async () => {
    if (!existsSync(path.join(ROOT, 'renderer/dist/index.html'))) throw new Error('The app serves the built UI: run `npm run build` first (test-flink.sh does).');
    mkdirSync(root, { recursive: true });
    work = mkdtempSync(path.join(root, 'kill-'));
    const savepoints = path.join(work, 'savepoints');
    let current: string | undefined;
    const runningJob = async (): Promise<string> => {
      if (current && (await jobDetails(cluster, current)).state === 'RUNNING') return current;
      current = await runTestJob(cluster, 1);
      started.push(current);
      return current;
    };
    const target: KillTarget = {
      url: cluster.restUrl,
      dataDir: path.join(work, 'data'),
      targetDirectory: `file://${savepoints}`,
      runningJob,
      random: mulberry32(7),
      log: (line) => process.stdout.write(`${line}\n`),
    };
    const records = [...(await killCli(target, 10)), ...(await killApp(target, 10))];
    expect(checkOutcomes(records)).toEqual([]);
    expect(records.filter((r) => r.stateAtKill === 'pending' || r.stateAtKill === 'in-progress').length).toBeGreaterThanOrEqual(3);

    const { stdout } = await runFlinkOps(['journal', '--data-dir', target.dataDir, '--json', '--limit', '100000']);
    const entries = (JSON.parse(stdout) as { entries: JournalEntry[] }).entries.filter((e) => e.kind === 'savepoint' || e.kind === 'stop');
    expect(entries.filter((e) => e.state === 'pending' || e.state === 'in-progress' || e.state === 'unknown')).toEqual([]);
    const onDisk = existsSync(savepoints) ? readdirSync(savepoints).map((f) => path.join(savepoints, f)).sort() : [];
    const recorded = entries.filter((e) => e.state === 'succeeded').map((e) => e.resultPath!.replace(/^file:(\/\/)?/, '')).sort();
    expect(onDisk).toEqual(recorded);
    for (const folder of onDisk) expect(existsSync(path.join(folder, '_metadata'))).toBe(true);
  }, 1_500_000);
});
