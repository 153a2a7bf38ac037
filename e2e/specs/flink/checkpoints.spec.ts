import { testIds } from '../../../renderer/testIds';
import { CheckpointsTab } from '../../pages/CheckpointsTab';
import { expect, test } from '../../support/console';
import { readFlinkCluster, type FlinkCluster } from '../../support/flinkCluster';

let cluster: FlinkCluster;

test.beforeAll(() => {
  cluster = readFlinkCluster();
});

/**
 * The Checkpoints tab from a real Flink's checkpoint statistics (every Flink version of `npm run test:flink`): the
 * chart, Flink's summary, and a checkpoint's detail naming the test job's hot subtask (throttle subtask 0 holds the
 * hot tenant: its barrier waits behind a full input queue).
 */
test('@every-version checkpoints of a real Flink job: chart, summary and the hot subtask named in a checkpoint\'s detail', async ({ app, page }) => {
  test.setTimeout(240_000);
  const form = await app.openAddCluster();
  await form.fill({ name: 'test-flink', url: cluster.restUrl });
  await form.save();
  const clusterPage = await form.openSavedCluster();
  const jobPage = await clusterPage.openJob(cluster.jobId);
  await jobPage.openTab('checkpoints');
  const tab = new CheckpointsTab(page);

  // Slow checkpoints (seconds) are the ones after the backpressure built up.
  let slow = 0;
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    const rows = await tab.rowFigures();
    expect(rows.filter((r) => r.status === 'COMPLETED').length).toBeGreaterThanOrEqual(2);
    const found = rows.find((r) => r.status === 'COMPLETED' && /^\d+(\.\d)? s$/.test(r.endToEnd));
    expect(found, 'a completed checkpoint that took seconds').toBeDefined();
    slow = found!.id;
  }).toPass({ timeout: 180_000, intervals: [5_000] });
  await expect(tab.chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(tab.summary).toContainText('End-to-end duration');
  await expect(tab.counts).toContainText(/\d+ completed/);

  await tab.openCheckpoint(slow);
  await expect(tab.finding).toHaveText(/^subtask 0 of throttle (started its checkpoint [\d.]+ s late|waited [\d.]+ m?s for the barrier)/, { timeout: 30_000 });
  await expect(tab.subtaskRow(0)).toHaveAttribute('data-outlier', 'true');
  await expect(tab.detail.getByTestId(testIds.checkpoints.subtaskTable).locator('tbody tr')).toHaveCount(2);
  await app.expectNotBlank();
});
