import { readFileSync } from 'node:fs';
import path from 'node:path';
import { testIds } from '../../../renderer/testIds';
import { LogsPanel } from '../../pages/LogsPanel';
import { engineJson, expect, test, type ConsoleProcess } from '../../support/console';
import { ROOT } from '../../support/paths';

/**
 * Logs and thread dumps on the bundled local engine: a TaskManager's log paged and searched as the engine's own REST
 * serves it, its thread dump with its subtasks' threads, and one click from a subtask row to its task's lines.
 */
test.use({ withLocalEngine: true });

async function engineText(proc: ConsoleProcess, path: string): Promise<string> {
  const response = await fetch(`${proc.localEngineUrl}${path}`, { headers: { authorization: `Bearer ${proc.localEngineToken}` } });
  if (!response.ok) throw new Error(`GET ${path} on the local engine answered ${response.status}`);
  return response.text();
}

test('a TaskManager\'s log (paged, searched, downloaded whole) and thread dump, and a subtask\'s lines one click from its row', async ({ app, consoleProcess, page }) => {
  test.setTimeout(60_000);
  const { taskmanagers } = await engineJson<{ taskmanagers: Array<{ id: string }> }>(consoleProcess, '/taskmanagers');
  const tm = taskmanagers[0].id;

  await app.openCluster('Local engine');
  const logs = await LogsPanel.openFromTaskManagers(page, tm);
  // The end of the log, as the engine serves it, numbered from its start.
  const served = (await engineText(consoleProcess, `/taskmanagers/${tm}/log`)).split('\n').slice(0, -1);
  await expect(logs.lines.first()).toBeVisible();
  const shown = await logs.lineTexts();
  const numbers = await logs.lineNumbers();
  expect(shown).toEqual(numbers.map((n) => served[n - 1]));
  expect(numbers.at(-1)).toBe(served.length);
  await expect(logs.status).toContainText('to its end');

  // The whole file, streamed by web mode's server to the browser's download: the bytes the engine serves.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testIds.logs.downloadFile).click()]);
  expect(download.suggestedFilename()).toBe(`taskmanager-${tm}.log`);
  expect(await download.failure()).toBeNull();
  const saved = readFileSync((await download.path())!, 'utf8');
  expect(saved).toBe(await engineText(consoleProcess, `/taskmanagers/${tm}/log`));

  await logs.searchFor('switched from INITIALIZING to RUNNING');
  const running = served.filter((l) => l.toLowerCase().includes('switched from initializing to running'));
  await expect(logs.status).toContainText(`${running.length} matching lines of ${served.length}.`);
  expect(await logs.lineTexts()).toEqual(running);

  // Jump to a time: the page starts at the first line stamped with it.
  const stamp = served.at(-1)!.slice(0, 19);
  const firstAt = served.findIndex((l) => l.startsWith(stamp)) + 1;
  await logs.jumpTo(stamp);
  await expect.poll(async () => (await logs.lineNumbers())[0]).toBe(firstAt);
  expect((await logs.lineTexts())[0]).toBe(served[firstAt - 1]);

  await logs.openThreadDump();
  const dump = await engineJson<{ threadInfos: Array<{ threadName: string }> }>(consoleProcess, `/taskmanagers/${tm}/thread-dump`);
  const taskThreads = dump.threadInfos.map((t) => t.threadName).filter((n) => /\(\d+\/\d+\)#\d+$/.test(n));
  expect(taskThreads.length).toBeGreaterThan(0);
  await expect(logs.taskThreads).toHaveCount(taskThreads.length);
  await logs.threadFilter.fill(taskThreads[0]);
  await expect(logs.taskThreads).toHaveCount(1);
  await expect(logs.taskThreads.first()).toContainText(taskThreads[0]);
  await expect(page.getByTestId(testIds.logs.threadCount)).toContainText(`1 of ${dump.threadInfos.length} threads`);
  await logs.taskThreads.first().locator('summary').click();
  await logs.root.screenshot({ path: path.join(ROOT, 'test-results/screenshots/thread-dump.png') });
  await logs.close();

  // From a subtask's row: its TaskManager's log, filtered to its task's lines.
  const { jobs } = await engineJson<{ jobs: { jid: string; name: string }[] }>(consoleProcess, '/jobs/overview');
  const job = jobs.find((j) => j.name === 'gatewaymeter')!;
  const { vertices } = await engineJson<{ vertices: Array<{ id: string; name: string; parallelism: number }> }>(consoleProcess, `/jobs/${job.jid}`);
  const vertex = vertices.find((v) => v.name.startsWith('tenant-cost'))!;
  const cluster = await app.openCluster('Local engine');
  const graph = await cluster.openJob(job.jid);
  await graph.expectGraphShown();
  const subtasks = await graph.openSubtasks(vertex.id);
  await subtasks.expectRows(vertex.parallelism);
  const { subtasks: rows } = await engineJson<{ subtasks: Array<{ subtask: number; attempt: number; 'taskmanager-id': string }> }>(consoleProcess, `/jobs/${job.jid}/vertices/${vertex.id}`);
  const first = rows.find((r) => r.subtask === 0)!;
  await page.getByTestId(testIds.logs.subtaskLog(0)).click();
  const taskLogs = new LogsPanel(page);
  const task = `${vertex.name} (1/${vertex.parallelism})#${first.attempt}`;
  await expect(taskLogs.root).toContainText(task);
  const its = (await engineText(consoleProcess, `/taskmanagers/${first['taskmanager-id']}/log`)).split('\n').filter((l) => l.includes(task));
  expect(its.length).toBeGreaterThan(0);
  await expect(taskLogs.status).toContainText(`${its.length} matching line`);
  expect(await taskLogs.lineTexts()).toEqual(its);
  await taskLogs.root.screenshot({ path: path.join(ROOT, 'test-results/screenshots/subtask-log.png') });
});
