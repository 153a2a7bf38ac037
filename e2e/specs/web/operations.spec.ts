import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { testIds } from '../../../renderer/testIds';
import { OperationsPanel } from '../../pages/OperationsPanel';
import { engineJson, expect, test, type ConsoleProcess } from '../../support/console';

/**
 * The savepoint, stop and rescale flows in a real Chromium against the bundled local engine (hot-tenant): asked for,
 * confirmed with their impact, sent once however often the button is clicked, followed to their outcome, and kept
 * in the journal. Screenshots of the confirmations and results go to test-results/screenshots.
 */
test.use({ withLocalEngine: true });

/**
 * A fresh savepoint folder where the app's local engine may write: under `<data folder>/local-engine/` (it refuses
 * folders elsewhere); removed with the data folder.
 */
function savepointFolder(proc: ConsoleProcess): string {
  const parent = path.join(proc.dataDir, 'local-engine', 'savepoints');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(path.join(parent, 'e2e-'));
}

async function engineJob(proc: ConsoleProcess): Promise<{ jid: string; vertices: Array<{ id: string; name: string; parallelism: number }> }> {
  const { jobs } = await engineJson<{ jobs: Array<{ jid: string; name: string; state: string }> }>(proc, '/jobs/overview');
  const job = jobs.find((j) => j.state === 'RUNNING')!;
  const { vertices } = await engineJson<{ vertices: Array<{ id: string; name: string; parallelism: number }> }>(proc, `/jobs/${job.jid}`);
  return { jid: job.jid, vertices };
}

async function triggers(proc: ConsoleProcess): Promise<Array<{ triggerId: string; started: boolean; kind: string }>> {
  return (await engineJson<{ triggers: Array<{ triggerId: string; started: boolean; kind: string }> }>(proc, '/local-engine/v1/async-operations')).triggers;
}

test('savepoint: the cluster\'s default folder offered, another chosen; confirmed, sent once, its path copyable and journaled', async ({ app, consoleProcess, page }) => {
  const job = await engineJob(consoleProcess);
  const target = savepointFolder(consoleProcess);
  const cluster = await app.openCluster('Local engine');
  await cluster.openJob(job.jid);
  const ops = new OperationsPanel(page);
  await ops.open();

  await ops.action('savepoint').click();
  // The app runs its local engine with checkpoints: the cluster's savepoint folder is the default, said where from.
  await expect(ops.dialog).toContainText("The cluster's default, from execution.checkpointing.savepoint-dir.");
  const submit = ops.dialog.getByRole('button', { name: 'Take savepoint…' });
  await expect(submit).toBeEnabled();
  await ops.dialog.getByLabel('Target directory').fill(target);
  await ops.dialog.getByLabel('native').check();
  await submit.click();
  await expect(ops.confirm).toContainText(`Take a savepoint of job gatewaymeter ${job.jid} into ${target} (native).`);
  await expect(ops.confirm).toContainText('The job keeps running');
  await ops.screenshot('operations-savepoint-confirm.png');

  await ops.confirmButton().dblclick();
  await ops.expectOutcome('succeeded');
  const location = (await ops.resultPath.textContent())!;
  expect(location.startsWith(`file:${target}/savepoint-`) || location.startsWith(`file://${target}/savepoint-`)).toBe(true);
  expect(existsSync(path.join(location.replace(/^file:(\/\/)?/, ''), '_metadata'))).toBe(true);
  await expect(ops.status).toContainText(/took \d+/);
  await ops.screenshot('operations-savepoint-result.png');

  // A double click sent one trigger; the journal and the savepoints list have it.
  const sent = await triggers(consoleProcess);
  expect(sent.map((t) => [t.kind, t.started])).toEqual([['savepoint', true]]);
  await expect(ops.journal.getByTestId(testIds.operations.journalRow(sent[0].triggerId))).toHaveAttribute('data-state', 'succeeded');
  await expect(ops.savepoints).toContainText(location);
  await expect(ops.savepoints).toContainText('native');
});

test('stop with savepoint, then resubmit from it: confirmation names job, target and drain; the new job is followed', async ({ app, consoleProcess, page }) => {
  const job = await engineJob(consoleProcess);
  const target = savepointFolder(consoleProcess);
  const cluster = await app.openCluster('Local engine');
  await cluster.openJob(job.jid);
  const ops = new OperationsPanel(page);
  await ops.open();

  await ops.action('stop').click();
  await ops.dialog.getByLabel('Target directory').fill(target);
  await expect(ops.dialog).toContainText('Drain advances the watermark to the end and fires every event-time window');
  await ops.dialog.getByRole('button', { name: 'Stop…' }).click();
  await expect(ops.confirm).toContainText(`Stop job gatewaymeter ${job.jid} with a savepoint into ${target} (canonical).`);
  await expect(ops.confirm).toContainText('Without drain. Flink takes the savepoint, then the sources stop and the job ends FINISHED.');
  await ops.screenshot('operations-stop-confirm.png');
  await ops.confirmButton().click();
  await ops.expectOutcome('succeeded');
  await expect(page.getByTestId(testIds.jobGraph.state)).toHaveText('FINISHED', { timeout: 30_000 });
  // Nothing else can be done to a finished job but run it again.
  await expect(ops.action('savepoint')).toBeDisabled();
  const location = (await ops.resultPath.textContent())!;
  await ops.screenshot('operations-stop-result.png');

  await ops.savepoints.getByRole('button', { name: 'Resubmit from this…' }).first().click();
  await expect(ops.dialog.getByLabel('Savepoint (or retained checkpoint)')).toHaveValue(location);
  await expect(ops.dialog.getByLabel('Jar')).toHaveValue('local-engine_gatewaymeter.jar');
  await expect(ops.dialog.getByLabel('Program arguments')).toHaveValue(/--scenario hot-tenant/);
  await ops.dialog.getByLabel('Parallelism').fill('8');
  await ops.dialog.getByRole('button', { name: 'Resubmit…' }).click();
  await expect(ops.confirm).toContainText(`restoring ${location}`);
  await ops.confirmButton().click();
  await ops.expectOutcome('succeeded');
  const newJob = ops.status.getByRole('link');
  await expect(newJob).toHaveText(/^[0-9a-f]{32}$/);
  const newJobId = (await newJob.textContent())!;
  const details = await engineJson<{ state: string }>(consoleProcess, `/jobs/${newJobId}`);
  expect(details.state).toBe('RUNNING');
  await newJob.click();
  await expect(page.getByTestId(testIds.jobGraph.state)).toHaveText('RUNNING');
  await ops.open();
  await expect(ops.savepoints).toContainText(location);
});

test('rescale: the plan shows a hot key rescaling cannot fix and the uneven key groups; an adaptive rescale reaches its target', async ({ app, consoleProcess, page }) => {
  test.setTimeout(240_000);
  const job = await engineJob(consoleProcess);
  const tenantCost = job.vertices.find((v) => v.name.startsWith('tenant-cost'))!;
  const cluster = await app.openCluster('Local engine');
  await cluster.openJob(job.jid);
  const ops = new OperationsPanel(page);
  await ops.open();

  await ops.action('rescale').click();
  await expect(ops.dialog).toContainText('adaptive scheduler');
  await ops.dialog.getByLabel('Vertices').selectOption(tenantCost.id);
  await ops.dialog.getByLabel('New parallelism').fill('48');
  await ops.dialog.getByLabel('Known hot keys (optional)').fill('acme 400');
  // acme's shift comes 30 s in: plan once tenant-cost's hot subtask is saturated, so the plan knows what one subtask sustains.
  const vertexPlan = ops.plan.getByTestId(testIds.operations.planVertex(tenantCost.id));
  await expect(async () => {
    await ops.dialog.getByRole('button', { name: /Plan (the rescale|again)/ }).click();
    await expect(vertexPlan.getByTestId(testIds.operations.planFinding).first()).toContainText(/above the ~\d+ records\/s one subtask sustains/, { timeout: 60_000 });
  }).toPass({ timeout: 180_000, intervals: [15_000] });
  // Only tenant-cost changes: the other keyed vertex keeps its key groups and is not planned.
  await expect(ops.plan.locator('section')).toHaveCount(1);
  await expect(vertexPlan).toContainText(/At parallelism 48, acme still lands alone on subtask 18 at 400 records\/s, above the ~\d+ records\/s one subtask sustains: rescaling will not fix this; consider two-stage aggregation \(salting\)\./);
  await expect(vertexPlan).toContainText('128 key groups over 48 subtasks: 32 subtasks get 3 key groups and 16 get 2');
  await expect(ops.plan).toContainText('Parallelism 48 needs 48 slots; the cluster has 32 for this job');
  await expect(ops.plan).toContainText('Flink does not measure load per key group.');
  await ops.screenshot('operations-rescale-plan.png');

  await ops.dialog.getByLabel('New parallelism').fill('16');
  await ops.dialog.getByRole('button', { name: 'Plan the rescale' }).click();
  await expect(vertexPlan).toContainText('parallelism 32 → 16');
  await ops.dialog.getByRole('button', { name: 'Rescale…' }).click();
  await expect(ops.confirm).toContainText(`Rescale gatewaymeter to parallelism 16 for ${tenantCost.name}.`);
  await ops.screenshot('operations-rescale-confirm.png', ops.confirm);
  await ops.confirmButton().click();
  await ops.expectOutcome('succeeded', 120_000);
  const rescaled = await engineJson<{ vertices: Array<{ id: string; parallelism: number }> }>(consoleProcess, `/jobs/${job.jid}`);
  expect(rescaled.vertices.find((v) => v.id === tenantCost.id)!.parallelism).toBe(16);
  const outcome = ops.root.getByTestId(testIds.operations.outcome);
  await outcome.getByRole('button', { name: 'Compare the prediction with what happened' }).click();
  await expect(outcome).toContainText('predicted', { timeout: 90_000 });
  await expect(outcome).toContainText('observed');
  // The journal keeps the rescale with its plan, to compare again later.
  await expect(ops.journal.getByRole('button', { name: 'Compare the prediction with what happened' })).toHaveCount(1);
  await ops.screenshot('operations-rescale-result.png');
});
