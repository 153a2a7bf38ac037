import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../local/time/random.ts';
import { killAll, startEngineProcess, type ConsoleChild } from './testing/console-processes.ts';
import { checkOutcomes, checkTriggers, killCli, type KillTarget } from './testing/kill-harness.ts';

/**
 * kill -9 of the CLI at random moments of a savepoint or a stop, 20 times, on a local engine started on its own with
 * `flink-ops engine` (it outlives every console). After each restart the journal holds exactly one outcome per
 * operation, and the engine's own trigger log shows one trigger per operation that reached it (none for those
 * resolved as not started), and no trigger the journal does not know. The app's kills are in the e2e suite
 * (e2e/specs/web/kill-app.spec.ts), which has the built UI the app serves.
 */

let root: string;
let engine: ConsoleChild;
let url: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-kill-'));
  ({ url, process: engine } = await startEngineProcess(['--scenario', 'exactly-once', '--rate', '200', '--checkpoint-dir', path.join(root, 'checkpoints'), '--allow-dir', path.join(root, 'savepoints')]));
}, 60_000);

afterAll(async () => {
  await engine?.kill();
  killAll();
  rmSync(root, { recursive: true, force: true });
});

async function runningJob(): Promise<string> {
  const { jobs } = (await (await fetch(`${url}/jobs/overview`)).json()) as { jobs: Array<{ jid: string; state: string }> };
  const running = jobs.find((j) => j.state === 'RUNNING');
  if (running) return running.jid;
  // The last kill was during a stop that went through: start the job again (the test's doing, not the console's).
  const response = await fetch(`${url}/jars/local-engine_gatewaymeter.jar/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ programArgsList: ['--scenario', 'exactly-once', '--rate', '200'] }),
  });
  return ((await response.json()) as { jobid: string }).jobid;
}

describe('kill -9 of the console during a savepoint or a stop', () => {
  it('20 times: one outcome per operation in the journal, one trigger per operation on the engine', async () => {
    const target: KillTarget = {
      url,
      dataDir: path.join(root, 'data'),
      targetDirectory: path.join(root, 'savepoints'),
      runningJob,
      random: mulberry32(20261130),
      log: (line) => process.stdout.write(`${line}\n`),
    };
    const records = await killCli(target, 20);
    expect(checkOutcomes(records)).toEqual([]);
    // The kills fell before, during and after the operations, not only after.
    expect(records.filter((r) => r.stateAtKill === 'pending' || r.stateAtKill === 'in-progress').length).toBeGreaterThanOrEqual(3);
    const { triggers } = (await (await fetch(`${url}/local-engine/v1/async-operations`)).json()) as { triggers: Array<{ triggerId: string; started: boolean }> };
    expect(await checkTriggers(target.dataDir, triggers)).toEqual([]);
  }, 900_000);
});
