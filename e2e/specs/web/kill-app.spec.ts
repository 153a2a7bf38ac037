import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { mulberry32 } from '../../../engine/local/time/random.ts';
import { killAll, startEngineProcess } from '../../../engine/operations/testing/console-processes.ts';
import { checkOutcomes, checkTriggers, killApp } from '../../../engine/operations/testing/kill-harness.ts';

/**
 * kill -9 of the app (web mode) at random moments of a savepoint or a stop, 20 times, on a local engine started on
 * its own with `flink-ops engine`. Each restart of the app settles what the killed one left open: the journal holds
 * exactly one outcome per operation, and the engine saw one trigger per operation that reached it.
 */
test('kill -9 of the app during a savepoint or a stop, 20 times: one outcome each, one trigger each', async () => {
  test.setTimeout(1_200_000);
  const root = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-kill-app-'));
  const { url, process: engine } = await startEngineProcess(['--scenario', 'exactly-once', '--rate', '200', '--checkpoint-dir', path.join(root, 'checkpoints'), '--allow-dir', path.join(root, 'savepoints')]);
  try {
    const runningJob = async (): Promise<string> => {
      const { jobs } = (await (await fetch(`${url}/jobs/overview`)).json()) as { jobs: Array<{ jid: string; state: string }> };
      const running = jobs.find((j) => j.state === 'RUNNING');
      if (running) return running.jid;
      // A stop went through before the kill: the test (not the console) starts the job again.
      const response = await fetch(`${url}/jars/local-engine_gatewaymeter.jar/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ programArgsList: ['--scenario', 'exactly-once', '--rate', '200'] }),
      });
      return ((await response.json()) as { jobid: string }).jobid;
    };
    const target = { url, dataDir: path.join(root, 'data'), targetDirectory: path.join(root, 'savepoints'), runningJob, random: mulberry32(11), log: (line: string) => console.log(line) };
    const records = await killApp(target, 20);
    expect(checkOutcomes(records)).toEqual([]);
    expect(records.filter((r) => r.stateAtKill === 'pending' || r.stateAtKill === 'in-progress').length).toBeGreaterThanOrEqual(3);
    const { triggers } = (await (await fetch(`${url}/local-engine/v1/async-operations`)).json()) as { triggers: Array<{ triggerId: string; started: boolean }> };
    expect(await checkTriggers(target.dataDir, triggers)).toEqual([]);
  } finally {
    await engine.kill();
    killAll();
    rmSync(root, { recursive: true, force: true });
  }
});
