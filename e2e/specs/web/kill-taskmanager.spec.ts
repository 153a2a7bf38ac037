import { testIds } from '../../../renderer/testIds';
import { expect, test } from '../../support/console';

/**
 * Rehearsing a machine loss on the bundled local engine: the kill is confirmed with its impact, fires once even on a
 * double click, and the job fails over as Flink would (the app runs its local engine with checkpoints, so the
 * restart strategy is exponential-delay, as Flink 2.x's default: the job restarts and runs again, with the lost
 * TaskManager in its exception history).
 */
test.use({ withLocalEngine: true });

test('kill a TaskManager of the local engine from the app: confirmed, once, and the job fails over', async ({ app, consoleProcess, page }) => {
  const engineUrl = consoleProcess.localEngineUrl!;
  const { taskmanagers } = (await (await fetch(`${engineUrl}/taskmanagers`)).json()) as { taskmanagers: { id: string; freeSlots: number; slotsNumber: number }[] };
  const victim = taskmanagers.find((tm) => tm.freeSlots < tm.slotsNumber)!;
  const { jobs } = (await (await fetch(`${engineUrl}/jobs/overview`)).json()) as { jobs: { jid: string }[] };

  const cluster = await app.openCluster('Local engine');
  const row = page.getByTestId(testIds.taskManagers.row(victim.id));
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Kill TaskManager ${victim.id}` }).click();
  const confirm = page.getByTestId(testIds.taskManagers.confirmKill);
  await expect(confirm).toContainText(/busy slot.* fail; each job with tasks on it restarts from its latest checkpoint/);
  await confirm.getByRole('button', { name: 'Kill TaskManager' }).dblclick();

  await expect(page.getByTestId(testIds.taskManagers.outcome)).toContainText(`TaskManager ${victim.id} killed; jobs failing over: ${jobs[0].jid}`);
  // Exactly one TaskManager is gone: a double click did not kill a second one.
  const after = (await (await fetch(`${engineUrl}/taskmanagers`)).json()) as { taskmanagers: unknown[] };
  expect(after.taskmanagers).toHaveLength(taskmanagers.length - 1);
  const history = (await (await fetch(`${engineUrl}/jobs/${jobs[0].jid}/exceptions`)).json()) as { exceptionHistory: { entries: { stacktrace: string }[] } };
  expect(history.exceptionHistory.entries).toHaveLength(1);
  expect(history.exceptionHistory.entries[0].stacktrace).toContain(`TaskManager with id ${victim.id} is no longer reachable`);
  // Running again on a new attempt: every subtask restarted.
  const attempts = async (): Promise<string> => {
    const job = (await (await fetch(`${engineUrl}/jobs/${jobs[0].jid}`)).json()) as { state: string; vertices: { id: string }[] };
    const vertex = (await (await fetch(`${engineUrl}/jobs/${jobs[0].jid}/vertices/${job.vertices[0].id}`)).json()) as { subtasks: { status: string; attempt: number }[] };
    return `${job.state} ${vertex.subtasks.every((s) => s.status === 'RUNNING' && s.attempt >= 1)}`;
  };
  await expect.poll(attempts, { timeout: 60_000 }).toBe('RUNNING true');
  await expect(cluster.jobRow(jobs[0].jid).getByTestId(testIds.jobs.state)).toHaveText('RUNNING', { timeout: 30_000 });
});
