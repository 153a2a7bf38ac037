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

test('stop with savepoint, then resubmit from it: confirmation names job, target and drain; the plan names each vertex it changes; the page follows the new job', async ({ app, consoleProcess, page }) => {
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
  const args = ops.dialog.getByLabel('Program arguments');
  await expect(args).toHaveValue(/--scenario hot-tenant/);
  const proposedArgs = await args.inputValue();
  // The defaults restore the stopped run: its job parallelism (4); tenant-cost keeps its own 32.
  await expect(ops.dialog.getByLabel('Parallelism')).toHaveValue('4');
  const planned = (vertexId: string) => ops.confirm.getByTestId(testIds.operations.resubmitPlanVertex(vertexId)).getByRole('cell');
  const tenantCost = job.vertices.find((v) => v.name.startsWith('tenant-cost'))!;
  const source = job.vertices.find((v) => v.name.startsWith('Source'))!;
  await ops.dialog.getByRole('button', { name: 'Resubmit…' }).click();
  await expect(planned(tenantCost.id)).toHaveText([tenantCost.name, '32', '128', '32']);
  await expect(ops.confirm.getByTestId(testIds.operations.shapeChanges)).toHaveText('Same shape as the stopped run: every vertex at its parallelism.');
  await ops.confirm.getByRole('button', { name: 'Back' }).click();

  // Arguments the program refuses: Flink cannot plan it, the dialog says why, nothing is sent.
  await args.fill(`${proposedArgs} --speed fast`);
  await ops.dialog.getByRole('button', { name: 'Resubmit…' }).click();
  await expect(ops.dialog).toContainText('Flink could not plan this run: nothing was sent');
  await expect(ops.dialog).toContainText('Unknown program argument "--speed"');
  await args.fill(proposedArgs);

  // Another job parallelism: the plan names each vertex it changes; tenant-cost keeps its own parallelism.
  await ops.dialog.getByLabel('Parallelism').fill('8');
  await ops.dialog.getByRole('button', { name: 'Resubmit…' }).click();
  await expect(ops.confirm).toContainText(`restoring ${location}`);
  await expect(ops.confirm).toContainText('at job parallelism 8');
  await expect(planned(source.id)).toHaveText([source.name, '4', '128', '8']);
  await expect(planned(tenantCost.id)).toHaveText([tenantCost.name, '32', '128', '32']);
  const changes = ops.confirm.getByTestId(testIds.operations.shapeChanges);
  await expect(changes.getByRole('listitem')).toHaveText([`${source.name}: 4 → 8`, 'assemble: 4 → 8']);
  await ops.screenshot('operations-resubmit-plan.png', ops.confirm);
  // A changed shape is sent only once accepted.
  await expect(ops.confirmButton()).toBeDisabled();
  await ops.confirm.getByLabel('Run it with these changes').check();
  await ops.confirmButton().click();

  // The page follows the new job once the cluster has it, and reports its shape beside the stopped run.
  await expect(page).not.toHaveURL(new RegExp(job.jid), { timeout: 30_000 });
  const newJobId = /[0-9a-f]{32}/.exec(new URL(page.url()).hash)![0];
  await expect(page.getByTestId(testIds.jobGraph.state)).toHaveText('RUNNING', { timeout: 30_000 });
  await ops.open();
  await ops.expectOutcome('succeeded');
  await expect(ops.status.getByRole('link')).toHaveText(newJobId);
  await expect(ops.status.getByTestId(testIds.operations.shapeReport).getByRole('listitem')).toHaveText([`${source.name}: 4 → 8`, 'assemble: 4 → 8']);
  const details = await engineJson<{ state: string; vertices: Array<{ name: string; parallelism: number }> }>(consoleProcess, `/jobs/${newJobId}`);
  expect(details.state).toBe('RUNNING');
  expect(details.vertices.map((v) => [v.name, v.parallelism])).toEqual(job.vertices.map((v) => [v.name, v === tenantCost ? 32 : 8]));
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

test('a savepoint under backpressure: the confirmation says how long checkpoints took, the journal has it at once, and it shows what Flink is doing', async ({ app, consoleProcess, page }) => {
  test.setTimeout(240_000);
  const job = await engineJob(consoleProcess);
  // hot-tenant: 30 s in, acme saturates its tenant-cost subtask; barriers then wait behind its backlog for seconds.
  await expect
    .poll(
      async () => {
        const body = await engineJson<{ history: Array<{ status: string; end_to_end_duration: number }> }>(consoleProcess, `/jobs/${job.jid}/checkpoints`);
        return Math.max(0, ...body.history.filter((h) => h.status === 'COMPLETED').map((h) => h.end_to_end_duration));
      },
      { timeout: 150_000, intervals: [2_000] },
    )
    .toBeGreaterThan(2_000);
  const cluster = await app.openCluster('Local engine');
  await cluster.openJob(job.jid);
  const ops = new OperationsPanel(page);
  await ops.open();

  await ops.action('savepoint').click();
  await ops.dialog.getByRole('button', { name: 'Take savepoint…' }).click();
  const durations = ops.confirm.getByTestId(testIds.operations.checkpointDurations);
  await expect(durations).toContainText(/^Recent checkpoints took .+ \(p50 .+, last \d+\): this savepoint will likely take about as long, under backpressure longer\./);
  await ops.screenshot('operations-savepoint-confirm-durations.png', ops.confirm);

  const rows = ops.journal.locator('[data-testid^="journal-row-"]');
  const before = await rows.count();
  await ops.confirmButton().click();
  // The journal panel reads at once when the operation starts, not at its next poll.
  await expect(rows).toHaveCount(before + 1, { timeout: 1_000 });

  const progress = ops.status.getByTestId(testIds.operations.savepointProgress);
  await expect(progress).toBeVisible({ timeout: 15_000 });
  await expect(progress).toContainText(/Savepoint \d+: \d+ of 40 subtasks acknowledged/);
  const acknowledged = Number(await progress.getAttribute('data-acknowledged'));
  expect(acknowledged).toBeLessThan(Number(await progress.getAttribute('data-total')));
  await expect(progress).toContainText('tenant-cost');
  await expect(ops.status.getByTestId(testIds.operations.elapsed)).toHaveText(/so far$/);
  await ops.screenshot('operations-savepoint-progress.png', ops.status);

  await ops.expectOutcome('succeeded', 120_000);
  await expect(progress).toHaveCount(0);
  await expect(rows.first()).toHaveAttribute('data-state', 'succeeded', { timeout: 5_000 });
});
