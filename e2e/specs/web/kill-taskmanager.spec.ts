import { testIds } from '../../../renderer/testIds';
import { engineJson, expect, test } from '../../support/console';

/**
 * Rehearsing a machine loss on the bundled local engine: the kill is confirmed with its impact, fires once even on a
 * double click, and the job fails over as Flink would (the local engine runs without checkpoints by default, so its
 * restart strategy is `none` and the job fails, with the lost TaskManager in its exception history).
 */
test.use({ withLocalEngine: true });

test('kill a TaskManager of the local engine from the app: confirmed, once, and the job fails over', async ({ app, consoleProcess, page }) => {
  const { taskmanagers } = await engineJson<{ taskmanagers: { id: string; freeSlots: number; slotsNumber: number }[] }>(consoleProcess, '/taskmanagers');
  const victim = taskmanagers.find((tm) => tm.freeSlots < tm.slotsNumber)!;
  const { jobs } = await engineJson<{ jobs: { jid: string }[] }>(consoleProcess, '/jobs/overview');

  const cluster = await app.openCluster('Local engine');
  const row = page.getByTestId(testIds.taskManagers.row(victim.id));
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Kill TaskManager ${victim.id}` }).click();
  const confirm = page.getByTestId(testIds.taskManagers.confirmKill);
  await expect(confirm).toContainText(/busy slot.* fail; each job with tasks on it restarts from its latest checkpoint/);
  await confirm.getByRole('button', { name: 'Kill TaskManager' }).dblclick();

  await expect(page.getByTestId(testIds.taskManagers.outcome)).toContainText(`TaskManager ${victim.id} killed; jobs failing over: ${jobs[0].jid}`);
  // Exactly one TaskManager is gone: a double click did not kill a second one.
  const after = await engineJson<{ taskmanagers: unknown[] }>(consoleProcess, '/taskmanagers');
  expect(after.taskmanagers).toHaveLength(taskmanagers.length - 1);
  const history = await engineJson<{ exceptionHistory: { entries: { stacktrace: string }[] } }>(consoleProcess, `/jobs/${jobs[0].jid}/exceptions`);
  expect(history.exceptionHistory.entries).toHaveLength(1);
  expect(history.exceptionHistory.entries[0].stacktrace).toContain(`TaskManager with id ${victim.id} is no longer reachable`);
  await expect(cluster.jobRow(jobs[0].jid).getByTestId(testIds.jobs.state)).toHaveText('FAILED', { timeout: 30_000 });
});
