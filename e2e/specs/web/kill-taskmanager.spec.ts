import { testIds } from '../../../renderer/testIds';
import { engineJson, expect, test } from '../../support/console';

/**
 * Rehearsing a machine loss on the bundled local engine: the kill is confirmed with its impact, fires once even on a
 * double click, and says what the job's restart strategy does. The engine `npm start` starts runs without
 * checkpoints, so its restart strategy is `none` (as Flink 2.x's default): the job fails for good. Then the job page
 * shows it: FAILED, prominently, no rates anywhere on the graph, and the Exceptions tab says why.
 */
test.use({ withLocalEngine: true });

test('kill a TaskManager of the local engine from the app: confirmed, once, the outcome its restart strategy gives, and the dead job shown as dead', async ({
  app,
  consoleProcess,
  page,
  context,
}) => {
  const engineUrl = consoleProcess.localEngineUrl!;
  const { taskmanagers } = await engineJson<{ taskmanagers: { id: string; freeSlots: number; slotsNumber: number }[] }>(consoleProcess, '/taskmanagers');
  const victim = taskmanagers.find((tm) => tm.freeSlots < tm.slotsNumber)!;
  const { jobs } = await engineJson<{ jobs: { jid: string; name: string }[] }>(consoleProcess, '/jobs/overview');
  const job = jobs[0];

  const cluster = await app.openCluster('Local engine');
  // Its REST URL (a new port each start) is on the page, copyable, and was printed beside the console's own.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: consoleProcess.origin });
  const restUrl = page.getByTestId(testIds.clusters.restUrl);
  await expect(restUrl.locator('code')).toHaveText(engineUrl);
  await restUrl.getByRole('button', { name: 'Copy the REST URL' }).click();
  await expect(restUrl.getByRole('button', { name: 'Copy the REST URL' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(engineUrl);
  expect(consoleProcess.output()).toMatch(/Flink Ops Console \(web mode\): http:\/\/127\.0\.0\.1:\d+\/\?token=\S+\nLocal engine \(scenario hot-tenant\): http:\/\/127\.0\.0\.1:\d+\n/);

  const row = page.getByTestId(testIds.taskManagers.row(victim.id));
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Kill TaskManager ${victim.id}` }).click();
  const confirm = page.getByTestId(testIds.taskManagers.confirmKill);
  await expect(confirm).toContainText(/busy slot.* fail; each job with tasks on it restarts from its latest checkpoint/);
  await confirm.getByRole('button', { name: 'Kill TaskManager' }).dblclick();

  // What will happen, read from the job's configuration: no checkpoints, restart strategy none.
  const outcome = page.getByTestId(testIds.taskManagers.outcome);
  await expect(outcome).toContainText(`TaskManager ${victim.id} killed. Job ${job.name} (${job.jid}) fails for good: its restart strategy is none (restart deactivated).`);
  await expect(outcome).not.toContainText('failing over');
  // Exactly one TaskManager is gone: a double click did not kill a second one.
  const after = await engineJson<{ taskmanagers: unknown[] }>(consoleProcess, '/taskmanagers');
  expect(after.taskmanagers).toHaveLength(taskmanagers.length - 1);
  await expect(cluster.jobRow(job.jid).getByTestId(testIds.jobs.state)).toHaveText('FAILED', { timeout: 30_000 });

  // The dead job: its state said prominently, and not one rate on the graph.
  const graph = await cluster.openJob(job.jid);
  await graph.expectGraphShown();
  await expect(graph.state).toHaveText('FAILED');
  const notice = page.getByTestId(testIds.jobGraph.notRunning);
  await expect(notice).toContainText(/^This job FAILED at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\. It processes nothing any more: the graph shows no rates\./);
  await expect(graph.vertices()).toHaveCount(3);
  for (const vertex of await graph.vertices().all()) {
    await expect(vertex.getByTestId(testIds.jobGraph.vertexNoRates)).toHaveText('no rates: the job is FAILED');
    await expect(vertex).not.toContainText(/\/s|busy max|BP (OK|LOW|HIGH)|skew max\/avg/);
    await expect(vertex).toHaveAttribute('data-busy', '');
    await expect(vertex).toHaveAttribute('data-backpressure', '');
  }

  // Why: the Exceptions tab, from the banner's link.
  await notice.getByRole('link', { name: 'See the exceptions for why.' }).click();
  await expect(page).toHaveURL(/tab=exceptions/);
  const root = page.getByTestId(testIds.exceptions.entry(0));
  await expect(root).toContainText('Root exception');
  await expect(root).toContainText(`TaskManager with id ${victim.id} is no longer reachable.`);
  await expect(root).toContainText('ResourceManagerException');
  await expect(root).toContainText('global failure (no task)');
  await expect(root.locator('time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  // The stack trace is folded until asked for.
  const stack = root.getByTestId(testIds.exceptions.stack);
  await expect(stack.locator('pre')).toBeHidden();
  await stack.locator('summary').click();
  await expect(stack.locator('pre')).toContainText('at org.apache.flink.runtime.resourcemanager.ResourceManager$TaskManagerHeartbeatListener.notifyTargetUnreachable');
  await expect(page.getByTestId(testIds.exceptions.entry(1))).toHaveCount(0);
  await app.expectNotBlank();
});
