import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalEngineProcess, type LocalEngineProcess } from '../../../engine/app/local-engine-process';
import { testIds } from '../../../renderer/testIds';
import { LogsPanel } from '../../pages/LogsPanel';
import { expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';

/**
 * A local engine with checkpoints (its own process, added as any cluster would be): a TaskManager killed with
 * `flink-ops engine-kill-tm` makes the job restart from its latest checkpoint, through the exponential-delay strategy
 * Flink 2.x uses when checkpointing is on. The CLI says so; the Exceptions tab shows why it restarted.
 */
const BIN = path.join(ROOT, 'engine/cli/flink-ops.mjs');
let engine: LocalEngineProcess;
let checkpointDir: string;

test.beforeAll(async () => {
  checkpointDir = mkdtempSync(path.join(tmpdir(), 'flink-ops-e2e-checkpoints-'));
  engine = await startLocalEngineProcess({ binPath: BIN, args: ['--checkpoint-dir', checkpointDir, '--checkpoint-interval', '2000'] });
});

test.afterAll(async () => {
  await engine?.stop();
  rmSync(checkpointDir, { recursive: true, force: true });
});

function killTaskManager(url: string, tm: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, FLINK_OPS_TOKEN: engine.token };
    execFile(process.execPath, [BIN, 'engine-kill-tm', '--url', url, '--tm', tm], { timeout: 30_000, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The engine answers only with its per-launch token (as every engine the app starts). */
async function get<T>(url: string): Promise<T> {
  return (await (await fetch(url, { headers: { authorization: `Bearer ${engine.token}` } })).json()) as T;
}

test('a TaskManager lost with checkpoints on: the job restarts, and the Exceptions tab says why', async ({ app, page }) => {
  const { jobs } = await get<{ jobs: { jid: string; name: string }[] }>(`${engine.url}/jobs/overview`);
  const job = jobs[0];
  // A completed checkpoint first, so the restart restores state rather than starting over.
  await expect.poll(async () => (await get<{ counts: { completed: number } }>(`${engine.url}/jobs/${job.jid}/checkpoints`)).counts.completed, { timeout: 30_000 }).toBeGreaterThan(0);

  const form = await app.openAddCluster();
  await form.fill({ name: 'rehearsal', url: engine.url, auth: { kind: 'bearer', token: engine.token } });
  await form.save();
  const cluster = await form.openSavedCluster();
  await cluster.expectJob(job.jid, job.name, 'RUNNING');
  const graph = await cluster.openJob(job.jid);
  await page.getByTestId(testIds.jobTabs.tab('exceptions')).click();
  await expect(page.getByTestId(testIds.exceptions.empty)).toContainText('No exceptions');

  const { taskmanagers } = await get<{ taskmanagers: { id: string; freeSlots: number; slotsNumber: number }[] }>(`${engine.url}/taskmanagers`);
  const victim = taskmanagers.find((tm) => tm.freeSlots < tm.slotsNumber)!;
  const killed = await killTaskManager(engine.url, victim.id);
  expect(killed.stderr).toBe('');
  expect(killed.code).toBe(0);
  expect(killed.stdout).toContain(
    `TaskManager ${victim.id} killed. Job ${job.name} (${job.jid}) restarts in about 1 s (exponential-delay: 1 s at first, ×1.5 per failure, at most 1 min).`,
  );

  await page.getByRole('button', { name: 'Refresh now' }).click();
  const root = page.getByTestId(testIds.exceptions.entry(0));
  await expect(root).toContainText(`TaskManager with id ${victim.id} is no longer reachable.`);
  await expect(root).toContainText('Root exception');
  await expect(root.getByTestId(testIds.exceptions.stack).locator('pre')).toBeHidden();
  // A global failure (no task): the JobManager's log, which outlives the TaskManager, says when it lost it.
  await root.getByTestId(testIds.exceptions.jobManagerLog).click();
  const logs = new LogsPanel(page);
  await expect(logs.root).toBeVisible();
  await expect(logs.lines.filter({ hasText: victim.id }).first()).toBeVisible({ timeout: 15_000 });

  // It runs again: the notice goes, the rates come back once the JobManager has samples of the new attempt.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(graph.state).toHaveText('RUNNING', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId(testIds.jobGraph.notRunning)).toHaveCount(0);
  const restored = await get<{ latest: { restored: { id: number } | null } }>(`${engine.url}/jobs/${job.jid}/checkpoints`);
  expect(restored.latest.restored?.id, 'the restart restored the latest checkpoint').toBeGreaterThan(0);
  await app.expectNotBlank();
});
