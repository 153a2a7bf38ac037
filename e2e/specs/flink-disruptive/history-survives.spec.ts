import path from 'node:path';
import { testIds } from '../../../renderer/testIds';
import { CheckpointsTab } from '../../pages/CheckpointsTab';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/console';
import { flinkVersion, readFlinkCluster, runFlinkScript, taskManagerPidRunning } from '../../support/flinkCluster';
import { ROOT } from '../../support/paths';

/** For `forMs`, every second: whenever Flink's `/backpressure` says a vertex is HIGH, the card's severity is not "ok". */
async function expectNoGreenWhileHigh(page: Page, restUrl: string, jobId: string, forMs: number): Promise<void> {
  const card = page.getByTestId(testIds.diagnosis.finding);
  const levels = async (): Promise<string[]> => {
    try {
      const job = (await (await fetch(`${restUrl}/jobs/${jobId}`, { signal: AbortSignal.timeout(5_000) })).json()) as { vertices: Array<{ id: string }> };
      const answers = await Promise.all(job.vertices.map(async (v) => (await fetch(`${restUrl}/jobs/${jobId}/vertices/${v.id}/backpressure`, { signal: AbortSignal.timeout(5_000) })).json()));
      return answers.map((a) => (a as { backpressureLevel?: string }).backpressureLevel ?? 'unknown');
    } catch {
      return []; // the JobManager is busy restarting the job: nothing HIGH to hold the card to
    }
  };
  for (const deadline = Date.now() + forMs; Date.now() < deadline; ) {
    const [severity, flink] = await Promise.all([card.getAttribute('data-severity'), levels()]);
    if (flink.includes('high')) expect(severity, 'Flink says HIGH').not.toBe('ok');
    await page.waitForTimeout(1_000);
  }
}

/**
 * The console's memory against a real Flink: a TaskManager killed (the job restarts), then the whole cluster stopped
 * and started again at the same address, as after a JobManager loss without HA — the job is gone from it. The
 * history from before is still there: the checkpoints, the restart and the gap marked, and the job the cluster no
 * longer knows still viewable, said to be a recording. Leaves the cluster running (with a new test job).
 */
test('the history survives a TaskManager loss and a restart of the whole cluster', async ({ app, page }) => {
  const version = flinkVersion();
  const restPort = new URL(readFlinkCluster().restUrl).port;
  // A whole cluster to start from (an earlier run may have left one TaskManager short): `up` keeps a healthy one.
  runFlinkScript('up', version, ['--rest-port', restPort]);
  const cluster = readFlinkCluster();

  const form = await app.openAddCluster();
  await form.fill({ name: 'test-flink', url: cluster.restUrl });
  await form.save();
  const clusterPage = await form.openSavedCluster();
  const jobPage = await clusterPage.openJob(cluster.jobId);
  await page.getByTestId(testIds.history.watchToggle).click();
  await expect(page.getByTestId(testIds.history.watchToggle)).toHaveAttribute('aria-pressed', 'true');

  await jobPage.openTab('checkpoints');
  const tab = new CheckpointsTab(page);
  const refreshNow = () => page.getByRole('button', { name: 'Refresh now' }).click();
  await expect(async () => {
    await refreshNow();
    expect(await tab.rows('COMPLETED').count()).toBeGreaterThanOrEqual(2);
  }).toPass({ timeout: 120_000, intervals: [5_000] });

  // A TaskManager lost: the job restarts (fixed-delay) on the slots left, and the history marks it.
  process.kill(await taskManagerPidRunning(cluster), 'SIGKILL');
  await jobPage.openTab('metrics');
  const events = page.getByTestId(testIds.metricsHistory.events);
  await expect(async () => {
    await refreshNow();
    await expect(events.locator('li[data-kind="restart"]')).not.toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 180_000, intervals: [5_000] });
  // Through the restart and after it: the diagnosis card is never green while Flink reports a vertex HIGH.
  await expectNoGreenWhileHigh(page, cluster.restUrl, cluster.jobId, 30_000);
  await jobPage.openTab('checkpoints');
  await expect(async () => {
    await refreshNow();
    await expect(tab.restored).not.toContainText('not restored', { timeout: 1_000 });
  }).toPass({ timeout: 120_000, intervals: [5_000] });
  const before = (await tab.rowFigures()).filter((r) => r.status === 'COMPLETED').map((r) => r.id);
  expect(before.length).toBeGreaterThanOrEqual(2);

  // The whole cluster stopped, then started again at the same address: the job is gone from it.
  runFlinkScript('down', version);
  await expect(async () => {
    await refreshNow();
    await expect(page.getByTestId('error-banner').first()).toContainText(/Connection refused|refused/i, { timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [3_000] });
  // The watcher's own sample fails too, at its own next round, and its history says why: the cluster comes back only
  // once the gap is recorded (the page's refused request above may come first).
  const refusedGap = events.locator('li[data-kind="gap"]').filter({ hasText: /no samples: No sample: .*(refused|Connection)/i });
  await jobPage.openTab('metrics');
  await expect(async () => {
    await refreshNow();
    await expect(refusedGap).not.toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [3_000] });
  await jobPage.openTab('checkpoints');
  runFlinkScript('up', version, ['--rest-port', restPort]);
  expect(readFlinkCluster().jobId).not.toBe(cluster.jobId);

  // The page says it shows a recording; the checkpoints from before are all there.
  const banner = page.getByTestId(testIds.history.recordingBanner);
  await expect(async () => {
    await refreshNow();
    await expect(banner).toContainText('The cluster no longer knows this job', { timeout: 2_000 });
  }).toPass({ timeout: 120_000, intervals: [5_000] });
  await expect(page.getByTestId(testIds.jobGraph.name)).toHaveText(cluster.jobName);
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots', `recorded-job-${version}.png`) });
  await refreshNow();
  const after = (await tab.rowFigures()).filter((r) => r.status === 'COMPLETED').map((r) => r.id);
  expect(after).toEqual(expect.arrayContaining(before));

  // Metrics over time: the restart and the gap while the cluster was down are marked. The watcher learns the job is
  // gone at its own next sample, which may come after the page's request did: wait for it on the live window (a fixed
  // window ends where it was chosen), then look back 15 minutes.
  await jobPage.openTab('metrics');
  await expect(async () => {
    await refreshNow();
    await expect(events.locator('li[data-kind="gone"]')).toContainText('no longer knows the job', { timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [3_000] });
  await page.getByTestId(testIds.metricsHistory.window).getByRole('radio', { name: '15 min' }).click();
  await expect(events.locator('li[data-kind="restart"]')).not.toHaveCount(0);
  // One gap at least (a sample may also fail while the job restarts): the one while the cluster was down says why.
  await expect(refusedGap).not.toHaveCount(0);
  await expect(events.locator('li[data-kind="gone"]')).toContainText('no longer knows the job');

  // The graph tab shows the job as last sampled; the cluster page offers the recording.
  await jobPage.openTab('graph');
  await jobPage.expectGraphShown();
  await page.getByRole('link', { name: /all jobs/ }).click();
  await expect(page.getByTestId(testIds.history.recordedJobRow(cluster.jobId))).toContainText('ended');
  await app.expectNotBlank();
});
