import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildJar } from '../../../engine/local/jars/jar-file';
import { testIds } from '../../../renderer/testIds';
import { JarsPanel } from '../../pages/JarsPanel';
import { OperationsPanel } from '../../pages/OperationsPanel';
import { ROOT } from '../../support/paths';
import { engineJson, expect, test } from '../../support/console';

/**
 * Jars and savepoint disposal in a real Chromium against the bundled local engine: a stop with savepoint, a jar
 * uploaded on the cluster page, planned (its graph, compared with the savepoint's job) and run from that savepoint;
 * then the savepoint disposed from the new job's list, its folder gone and only then forgotten; the jar deleted.
 */
test.use({ withLocalEngine: true });

test('upload, plan and run a jar from a savepoint; dispose the savepoint; delete the jar', async ({ app, consoleProcess, page }) => {
  const { jobs } = await engineJson<{ jobs: Array<{ jid: string; state: string }> }>(consoleProcess, '/jobs/overview');
  const jobId = jobs.find((j) => j.state === 'RUNNING')!.jid;
  const parent = path.join(consoleProcess.dataDir, 'local-engine', 'savepoints');
  mkdirSync(parent, { recursive: true });
  const target = mkdtempSync(path.join(parent, 'e2e-'));
  const jarDir = path.join(ROOT, 'test-results', 'jars');
  mkdirSync(jarDir, { recursive: true });
  const jarFile = path.join(jarDir, 'gatewaymeter-e2e.jar');
  writeFileSync(jarFile, buildJar('org.flinkops.local.GatewayMeterJob'));

  // A savepoint the journal knows: stop the job with one.
  let cluster = await app.openCluster('Local engine');
  await cluster.openJob(jobId);
  const ops = new OperationsPanel(page);
  await ops.open();
  await ops.action('stop').click();
  await ops.dialog.getByLabel('Target directory').fill(target);
  await ops.dialog.getByRole('button', { name: 'Stop…' }).click();
  await ops.confirmButton().click();
  await ops.expectOutcome('succeeded');
  const location = (await ops.resultPath.textContent())!;

  // Upload on the cluster page, then plan and run it from the savepoint.
  cluster = await app.openCluster('Local engine');
  const jars = new JarsPanel(page);
  await jars.upload(jarFile);
  const row = jars.rowNamed('gatewaymeter-e2e.jar');
  await expect(row).toContainText('org.flinkops.local.GatewayMeterJob');
  await row.getByRole('button', { name: 'Run…' }).click();
  await jars.dialog.getByLabel('Program arguments').fill('--scenario hot-tenant');
  await jars.dialog.getByLabel('Savepoint (or retained checkpoint)').fill(location);
  await jars.dialog.getByRole('button', { name: 'Show the plan…' }).click();
  await expect(jars.confirm).toContainText(`restoring ${location}`);
  await expect(jars.confirm).toContainText(`Compared with job ${jobId}, whose savepoint this is.`);
  await expect(jars.planGraph).toContainText('tenant-cost');
  await expect(jars.planGraph).toContainText('←');
  // A changed shape is never run without a yes.
  const accept = jars.confirm.getByRole('checkbox', { name: /Run it with/ });
  if (await accept.isVisible()) {
    await expect(jars.confirmButton()).toBeDisabled();
    await accept.check();
  }
  await jars.confirmButton().click();
  await expect(jars.status).toHaveAttribute('data-state', 'succeeded', { timeout: 60_000 });
  const { jobs: after } = await engineJson<{ jobs: Array<{ jid: string; state: string }> }>(consoleProcess, '/jobs/overview');
  const newJob = after.find((j) => j.state === 'RUNNING' && j.jid !== jobId)!.jid;
  const restored = await engineJson<{ latest: { restored: { external_path: string } | null } }>(consoleProcess, `/jobs/${newJob}/checkpoints`);
  expect(restored.latest.restored?.external_path).toBe(location);

  // Dispose the savepoint from the new job's list (its earlier run's savepoint).
  await cluster.openJob(newJob);
  await ops.open();
  await expect(ops.savepoints.getByTestId(/^savepoint-row-/).filter({ hasText: location })).toHaveCount(1);
  const index = (await ops.savepoints.getByTestId(/^savepoint-row-/).allTextContents()).findIndex((t) => t.includes(location));
  expect(index).toBeGreaterThanOrEqual(0);
  await ops.savepoints.getByTestId(testIds.operations.dispose(index)).click();
  await expect(ops.savepoints.getByTestId(testIds.operations.disposeImpact)).toContainText(`Deletes the savepoint ${location}`);
  await ops.savepoints.getByTestId(testIds.operations.confirmButton).click();
  await expect(ops.savepoints.getByTestId(testIds.operations.status)).toHaveAttribute('data-state', 'succeeded', { timeout: 30_000 });
  expect(existsSync(location.replace(/^file:(\/\/)?/, ''))).toBe(false);
  await expect(ops.savepoints.getByTestId(/^savepoint-row-/).filter({ hasText: location })).toHaveCount(0);

  // Delete the jar.
  cluster = await app.openCluster('Local engine');
  await jars.rowNamed('gatewaymeter-e2e.jar').getByRole('button', { name: 'Delete…' }).click();
  await jars.confirmButton().click();
  await expect(jars.rowNamed('gatewaymeter-e2e.jar')).toHaveCount(0);
});
