import { execFile } from 'node:child_process';
import { testIds } from '../../../renderer/testIds';
import { expect, test } from '../../support/console';
import { type FlinkCluster, getFromFlink, readFlinkCluster } from '../../support/flinkCluster';
import { ROOT } from '../../support/paths';

/**
 * A TaskManager process of the real test cluster is killed (SIGKILL, as a machine loss): the Exceptions tab shows why
 * the job restarted, as the JobManager recorded it. The cluster is shared with the other real-Flink specs, so it is
 * healed afterwards, whatever happened: `flink.sh up` starts a replacement TaskManager and waits until the cluster
 * has 2 TaskManagers / 4 slots and the job runs every task again.
 */
let cluster: FlinkCluster;

test.beforeAll(() => {
  cluster = readFlinkCluster();
});

test.afterAll(async () => {
  test.setTimeout(300_000);
  await flinkSh('up');
});

function flinkSh(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['e2e/flink/flink.sh', ...args, '--version', cluster.version], { cwd: ROOT, timeout: 280_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`flink.sh ${args.join(' ')} failed: ${stderr.trim().split('\n').slice(-3).join(' ')}`));
      else resolve(stdout.trim());
    });
  });
}

const get = <T>(path: string): Promise<T> => getFromFlink<T>(cluster, path);

test('after a TaskManager process is killed, the Exceptions tab says which one was lost, when, and folds the stack trace', async ({ app, page }) => {
  const form = await app.openAddCluster();
  await form.fill({ name: 'test-flink', url: cluster.restUrl });
  await form.save();
  const clusterPage = await form.openSavedCluster();
  await clusterPage.expectJob(cluster.jobId, cluster.jobName, 'RUNNING');
  const jobPage = await clusterPage.openJob(cluster.jobId);
  await page.getByTestId(testIds.jobTabs.tab('exceptions')).click();
  await expect(page.getByTestId(testIds.exceptions.panel)).toBeVisible();
  // Earlier runs may have left entries in this job's history: the new one must come on top of them.
  const before = await get<{ exceptionHistory: { entries: unknown[] } }>(`/jobs/${cluster.jobId}/exceptions`);

  // The TaskManager that runs the job's tasks (the adaptive scheduler packs a parallelism-2 job onto one).
  const { taskmanagers } = await get<{ taskmanagers: Array<{ id: string; freeSlots: number; slotsNumber: number }> }>('/taskmanagers');
  const victim = taskmanagers.find((tm) => tm.freeSlots < tm.slotsNumber);
  expect(victim, 'a TaskManager runs the test job').toBeDefined();
  await flinkSh('kill-tm', '--tm', victim!.id);

  // The JobManager notices when the heartbeats fail (seconds to tens of seconds), then records the loss.
  const root = page.getByTestId(testIds.exceptions.entry(0));
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(root).toContainText(victim!.id, { timeout: 3_000 });
  }).toPass({ timeout: 120_000, intervals: [3_000] });
  const after = await get<{ exceptionHistory: { entries: Array<{ stacktrace: string }> } }>(`/jobs/${cluster.jobId}/exceptions`);
  expect(after.exceptionHistory.entries.length).toBeGreaterThan(before.exceptionHistory.entries.length);

  await expect(root).toContainText('Root exception');
  await expect(root.locator('time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  // What the console shows is what the JobManager recorded: its first line, and the whole trace behind a fold.
  const firstLine = after.exceptionHistory.entries[0].stacktrace.split('\n')[0];
  await expect(root).toContainText(firstLine.slice(firstLine.indexOf(': ') + 2));
  const stack = root.getByTestId(testIds.exceptions.stack);
  await expect(stack.locator('pre')).toBeHidden();
  await stack.locator('summary').click();
  await expect(stack.locator('pre')).toBeVisible();
  await expect(stack.locator('pre')).toContainText(/\tat org\.apache\.flink\./);
  // A global failure (a lost TaskManager) names no task; a task failure names its task and subtask.
  await expect(root.locator('.exception__where')).toContainText(/global failure \(no task\)|Subtask/);
  await expect(jobPage.name).toHaveText(cluster.jobName);
  await app.expectNotBlank();
});
