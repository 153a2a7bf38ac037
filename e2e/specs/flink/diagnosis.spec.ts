import path from 'node:path';
import { assignKeyToParallelOperator } from '../../../engine/analysis/key-groups/key-group-range-assignment';
import { testIds } from '../../../renderer/testIds';
import { DiagnosisPanel } from '../../pages/DiagnosisPanel';
import { InspectTab } from '../../pages/InspectTab';
import { LogsPanel } from '../../pages/LogsPanel';
import { expect, test } from '../../support/console';
import { fetchVertexNames, readFlinkCluster, type FlinkCluster } from '../../support/flinkCluster';
import { ROOT } from '../../support/paths';

let cluster: FlinkCluster;

test.beforeAll(() => {
  cluster = readFlinkCluster();
});

test('the job page names the throttle subtask that owns the hot tenant, against the real Flink, and shows its log lines, its thread and its flame graph one click away', async ({ app, page }) => {
  test.setTimeout(240_000);
  const names = await fetchVertexNames(cluster);
  const throttle = [...names].find(([, name]) => name === 'throttle')![0];
  const acme = assignKeyToParallelOperator('acme', 128, 2);

  const form = await app.openAddCluster();
  await form.fill({ name: 'test-flink', url: cluster.restUrl });
  await form.save();
  const clusterPage = await form.openSavedCluster();
  const graph = await clusterPage.openJob(cluster.jobId);
  await graph.expectGraphShown();

  const diagnosis = new DiagnosisPanel(page);
  const sentence = await diagnosis.waitForFinding('skew', 180_000);
  expect(sentence).toMatch(new RegExp(`^throttle subtask ${acme} is (saturated|busy) .*: data skew on the key\\. Source: events is back-pressured because of it\\.$`));
  await expect(graph.vertex(throttle)).toHaveAttribute('data-marked', 'true');
  await diagnosis.openSkewTab();
  await expect.poll(() => diagnosis.hottestCell(), { timeout: 30_000 }).toBe(`${throttle}:${acme}`);
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/diagnosis-real-flink.png'), fullPage: true });

  // From the sentence to that subtask's TaskManager log, filtered to its task's lines: the lines Flink's own log holds.
  const vertex = await (await fetch(`${cluster.restUrl}/jobs/${cluster.jobId}/vertices/${throttle}`)).json() as { parallelism: number; subtasks: Array<{ subtask: number; attempt: number; 'taskmanager-id': string }> };
  const row = vertex.subtasks.find((s) => s.subtask === acme)!;
  const task = `throttle (${acme + 1}/${vertex.parallelism})#${row.attempt}`;
  const tm = encodeURIComponent(row['taskmanager-id']);
  await page.getByTestId(testIds.diagnosis.subtaskLog).click();
  const logs = new LogsPanel(page);
  await expect(logs.root).toContainText(task);
  await expect(logs.root).toContainText(row['taskmanager-id']);
  const flinkLog = (await (await fetch(`${cluster.restUrl}/taskmanagers/${tm}/log`)).text()).split('\n').filter((l) => l.includes(task));
  expect(flinkLog.length, `Flink's log of ${row['taskmanager-id']} names ${task}`).toBeGreaterThan(0);
  await expect(logs.status).toContainText(/\d+ matching lines?/, { timeout: 30_000 });
  // The log grows while the test reads it: the console's lines are Flink's first ones for the task, in order.
  const shown = await logs.lineTexts();
  expect(shown.length).toBeGreaterThan(0);
  expect(shown.every((line) => line.includes(task))).toBe(true);
  expect(shown.slice(0, flinkLog.length)).toEqual(flinkLog.slice(0, shown.length));
  await logs.close();

  // Its thread, in a fresh thread dump of that TaskManager: Flink names the task's thread after the subtask.
  await page.getByTestId(testIds.diagnosis.subtaskThread).click();
  const threads = new LogsPanel(page);
  await expect(threads.threadDump).toBeVisible({ timeout: 30_000 });
  const flinkDump = await (await fetch(`${cluster.restUrl}/taskmanagers/${tm}/thread-dump`)).json() as { threadInfos: Array<{ threadName: string }> };
  expect(flinkDump.threadInfos.map((t) => t.threadName)).toContain(task);
  const itsThread = threads.taskThreads.filter({ hasText: task });
  await expect(itsThread).toHaveCount(1);
  await expect(itsThread).toHaveAttribute('open', '');
  await threads.close();

  // Why that subtask is busy, one click from the finding: Flink's flame graph of it (flink.sh turns flame graphs on for
  // 2.x, off for 1.x), its frames the job's own throttle code, drawn as text.
  await page.getByTestId(testIds.diagnosis.flameGraph).click();
  const inspect = new InspectTab(page);
  await expect(inspect.flameSubtask).toHaveValue(String(acme));
  if (cluster.version.startsWith('1.')) {
    await expect(inspect.flameSentence).toHaveAttribute('data-status', 'disabled', { timeout: 30_000 });
    await expect(inspect.flameSentence).toContainText('rest.flamegraph.enabled: true');
    return;
  }
  await expect(inspect.flameSentence).toHaveAttribute('data-status', 'ready', { timeout: 45_000 });
  await expect(inspect.flameSentence).toContainText(`samples of subtask ${acme}`);
  await expect(inspect.flameFrames(/^dev\.flinkops\.testjob\.GatewayMeterJob\$Throttle\.map:\d+$/).first()).toBeVisible();
  await inspect.searchFrames('Throttle');
  await expect(inspect.flameMatches).toContainText(/“Throttle”: \d+ of \d+ samples/);
  await expect(inspect.flameHotFrames).toBeVisible();
  await inspect.flameGraph.screenshot({ path: path.join(ROOT, 'test-results/screenshots/flame-graph-real-flink.png') });
});
