import { testIds } from '../../../renderer/testIds';
import { engineJson, expect, test } from '../../support/console';

/**
 * Rehearsing a machine loss on the bundled local engine: the kill is confirmed with its impact, fires once even on a
 * double click, and says what the job's restart strategy does. The app runs its local engine with checkpoints, so
 * the restart strategy is exponential-delay (Flink 2.x's default then): the job restarts and runs again, with the
 * lost TaskManager in its exception history. (A job that fails for good: dead-job.spec.ts.)
 */
test.use({ withLocalEngine: true });

test('kill a TaskManager of the local engine from the app: confirmed, once, the outcome its restart strategy gives, and the job fails over', async ({
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

  // What will happen, read from the job's configuration: checkpoints on, restart strategy exponential-delay.
  const outcome = page.getByTestId(testIds.taskManagers.outcome);
  await expect(outcome).toContainText(`TaskManager ${victim.id} killed. Job ${job.name} (${job.jid}) restarts in about`);
  await expect(outcome).toContainText('exponential-delay');
  // Exactly one TaskManager is gone: a double click did not kill a second one.
  const after = await engineJson<{ taskmanagers: unknown[] }>(consoleProcess, '/taskmanagers');
  expect(after.taskmanagers).toHaveLength(taskmanagers.length - 1);
  const history = await engineJson<{ exceptionHistory: { entries: { stacktrace: string }[] } }>(consoleProcess, `/jobs/${job.jid}/exceptions`);
  expect(history.exceptionHistory.entries).toHaveLength(1);
  expect(history.exceptionHistory.entries[0].stacktrace).toContain(`TaskManager with id ${victim.id} is no longer reachable`);
  // Running again on a new attempt: every subtask restarted.
  const attempts = async (): Promise<string> => {
    const details = await engineJson<{ state: string; vertices: { id: string }[] }>(consoleProcess, `/jobs/${job.jid}`);
    const vertex = await engineJson<{ subtasks: { status: string; attempt: number }[] }>(consoleProcess, `/jobs/${job.jid}/vertices/${details.vertices[0].id}`);
    return `${details.state} ${vertex.subtasks.every((s) => s.status === 'RUNNING' && s.attempt >= 1)}`;
  };
  await expect.poll(attempts, { timeout: 60_000 }).toBe('RUNNING true');
  await expect(cluster.jobRow(job.jid).getByTestId(testIds.jobs.state)).toHaveText('RUNNING', { timeout: 30_000 });
  await app.expectNotBlank();
});
