import { assignKeyToParallelOperator } from '../../../engine/analysis/key-groups/key-group-range-assignment';
import { testIds } from '../../../renderer/testIds';
import { DiagnosisPanel } from '../../pages/DiagnosisPanel';
import { LogsPanel } from '../../pages/LogsPanel';
import { engineJson, expect, test } from '../../support/console';
import { HOT_TENANT_AT_ONCE, writeHotTenantAtOnce } from '../../support/scenarios';

/**
 * The finding's Log and Thread buttons on the bundled local engine (the real-Flink diagnosis spec clicks them on
 * Flink): from the root-cause sentence to the hot subtask's TaskManager log, filtered to its task's lines as the
 * engine's own REST serves them, and to its thread in a fresh dump. acme is hot from the start (HOT_TENANT_AT_ONCE),
 * so the first look names tenant-cost's hot subtask within seconds of the page.
 */
test.beforeAll(writeHotTenantAtOnce);
test.use({ withLocalEngine: true, localEngineScenario: HOT_TENANT_AT_ONCE });

async function engineText(url: string, token: string, p: string): Promise<string> {
  const response = await fetch(`${url}${p}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET ${p} on the local engine answered ${response.status}`);
  return response.text();
}

test('from the finding\'s sentence: the hot subtask\'s log lines on its TaskManager, and its thread in a fresh dump', async ({ app, consoleProcess, page }) => {
  test.setTimeout(90_000);
  const { jobs } = await engineJson<{ jobs: Array<{ jid: string; name: string }> }>(consoleProcess, '/jobs/overview');
  const jobId = jobs.find((j) => j.name === 'gatewaymeter')!.jid;
  const { vertices } = await engineJson<{ vertices: Array<{ id: string; name: string; parallelism: number; maxParallelism: number }> }>(consoleProcess, `/jobs/${jobId}`);
  const tenantCost = vertices.find((v) => v.name.startsWith('tenant-cost'))!;
  const acme = assignKeyToParallelOperator('acme', tenantCost.maxParallelism, tenantCost.parallelism);

  const cluster = await app.openCluster('Local engine');
  const graph = await cluster.openJob(jobId);
  await graph.expectGraphShown();
  const diagnosis = new DiagnosisPanel(page);
  // Flink's current figures (the first look) or the window's, whichever names it first: the buttons are the same.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(diagnosis.finding).toHaveAttribute('data-kind', 'skew', { timeout: 5_000 });
  }).toPass({ timeout: 60_000, intervals: [2_000] });
  await expect(diagnosis.sentence).toContainText(`tenant-cost subtask ${acme} is`);

  // Where the engine runs that subtask now, and the name its TaskManager's log gives the task.
  const { subtasks } = await engineJson<{ subtasks: Array<{ subtask: number; attempt: number; 'taskmanager-id': string }> }>(consoleProcess, `/jobs/${jobId}/vertices/${tenantCost.id}`);
  const row = subtasks.find((s) => s.subtask === acme)!;
  const task = `${tenantCost.name} (${acme + 1}/${tenantCost.parallelism})#${row.attempt}`;
  const tm = row['taskmanager-id'];

  await page.getByTestId(testIds.diagnosis.subtaskLog).click();
  const logs = new LogsPanel(page);
  await expect(logs.root).toContainText(tm);
  await expect(logs.root).toContainText(task);
  await expect(logs.taskFilter).toHaveValue(task);
  const its = (await engineText(consoleProcess.localEngineUrl!, consoleProcess.localEngineToken!, `/taskmanagers/${encodeURIComponent(tm)}/log`)).split('\n').filter((l) => l.includes(task));
  expect(its.length, `the engine's log of ${tm} names ${task}`).toBeGreaterThan(0);
  await expect(logs.status).toContainText(`${its.length} matching line`);
  expect(await logs.lineTexts()).toEqual(its);
  await logs.close();

  await page.getByTestId(testIds.diagnosis.subtaskThread).click();
  const threads = new LogsPanel(page);
  await expect(threads.threadDump).toBeVisible();
  await expect(threads.root).toContainText(tm);
  const dump = await engineJson<{ threadInfos: Array<{ threadName: string }> }>(consoleProcess, `/taskmanagers/${encodeURIComponent(tm)}/thread-dump`);
  expect(dump.threadInfos.map((t) => t.threadName)).toContain(task);
  const itsThread = threads.taskThreads.filter({ hasText: task });
  await expect(itsThread).toHaveCount(1);
  await expect(itsThread).toHaveAttribute('open', '');
  await threads.close();
});
