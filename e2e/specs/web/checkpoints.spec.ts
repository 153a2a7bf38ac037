import path from 'node:path';
import { formatBytes } from '../../../renderer/components/format';
import { testIds } from '../../../renderer/testIds';
import { CheckpointsTab } from '../../pages/CheckpointsTab';
import { engineJson, expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';

/**
 * `npm start`'s local engine takes a checkpoint every 10 s, so the Checkpoints tab has data out of the box. In the
 * hot-tenant scenario the saturated tenant-cost subtask (12) holds the barrier behind its backlog: a checkpoint after
 * the shift names it by its start delay. Screenshots go to test-results/screenshots (`npm run screenshots` copies
 * them into resources/screenshots for the README).
 */
test.use({ withLocalEngine: true });

const SHOTS = path.join(ROOT, 'test-results/screenshots');

interface EngineCheckpoints {
  history: Array<{ id: number; status: string; state_size: number; end_to_end_duration: number }>;
}

test('the Checkpoints tab of the hot-tenant job: real checkpoints, and the hot subtask named in a checkpoint\'s detail', async ({ app, consoleProcess, page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  const { jobs } = await engineJson<{ jobs: { jid: string; name: string }[] }>(consoleProcess, '/jobs/overview');
  const job = jobs.find((j) => j.name === 'gatewaymeter')!;

  const cluster = await app.openCluster('Local engine');
  const jobPage = await cluster.openJob(job.jid);
  await jobPage.openTab('checkpoints');
  await expect(page).toHaveURL(/tab=checkpoints/);
  const tab = new CheckpointsTab(page);

  // At least three completed checkpoints (every 10 s), sizes as the engine reports them.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    expect(await tab.rows('COMPLETED').count()).toBeGreaterThanOrEqual(3);
  }).toPass({ timeout: 90_000, intervals: [5_000] });
  const engine = await engineJson<EngineCheckpoints>(consoleProcess, `/jobs/${job.jid}/checkpoints`);
  const shown = await tab.rowFigures();
  const newestShown = shown.find((r) => r.status === 'COMPLETED')!;
  const truth = engine.history.find((c) => c.id === newestShown.id);
  expect(truth, `checkpoint ${newestShown.id} in the engine's own /checkpoints`).toBeDefined();
  expect(newestShown.fullSize).toBe(formatBytes(truth!.state_size));
  // The sizes follow the state: none empty, and they move with it from one checkpoint to the next.
  const sizes = shown.filter((r) => r.status === 'COMPLETED').map((r) => r.fullSize);
  expect(sizes.every((s) => /^\d+(\.\d+)? (KiB|MiB)$/.test(s))).toBe(true);
  expect(new Set(sizes).size).toBeGreaterThan(1);
  await expect(tab.counts).toContainText(/\d+ completed · 0 failed/);
  await expect(tab.summary).toContainText('End-to-end duration');
  await expect(tab.chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(tab.restored).toContainText('not restored');

  // After the shift (30 s in), the hot subtask's backlog holds the barrier: slow checkpoints, the start delay named.
  let slow = 0;
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    const rows = await tab.rowFigures();
    const found = rows.filter((r) => r.status === 'COMPLETED' && /^\d+(\.\d)? s$/.test(r.endToEnd));
    expect(found.length, 'completed checkpoints that took seconds').toBeGreaterThanOrEqual(2);
    slow = found[0].id;
  }).toPass({ timeout: 150_000, intervals: [5_000] });
  await tab.openCheckpoint(slow);
  await expect(tab.finding).toHaveText(
    /^subtask 12 of tenant-cost started its checkpoint \d+(\.\d)? s late while the others took < \d+ ms: data skew or backpressure on that subtask is the usual cause\.$/,
    { timeout: 30_000 },
  );
  await expect(tab.subtaskRow(12)).toHaveAttribute('data-outlier', 'true');
  await expect(tab.detail.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'checkpoints-tab.png'), fullPage: false });
  // The detail on its own, from the whole page (an element shot would slide it under the sticky top bar).
  const box = await tab.detail.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
  });
  await page.screenshot({ path: path.join(SHOTS, 'checkpoint-detail.png'), fullPage: true, clip: box });

  // Metrics over time: the hot subtask's busy time over the window, from the history.
  await jobPage.openTab('metrics');
  const tenantCostChart = page.locator(`[data-testid^="metrics-history-vertex-"]`).filter({ hasText: 'tenant-cost' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    expect(Number(await tenantCostChart.getAttribute('data-peak-busy'))).toBeGreaterThan(900);
  }).toPass({ timeout: 60_000, intervals: [5_000] });
  await expect(tenantCostChart.locator('.recharts-line-curve').first()).toBeVisible();
  // Which vertices the window's samples read per subtask (a 3-vertex job: all of them, at each reading).
  await expect(page.getByTestId(testIds.metricsHistory.readings)).toContainText(/Per-subtask figures: all 3 vertices read in this window, the least recent \d+s before/);
  await page.screenshot({ path: path.join(SHOTS, 'metrics-over-time.png'), fullPage: false });
  await page.getByTestId(testIds.metricsHistory.window).getByRole('radio', { name: '15 min' }).click();
  await expect(page.getByTestId(testIds.metricsHistory.tab)).toContainText('A fixed window');
  await expect(tenantCostChart.locator('.recharts-line-curve').first()).toBeVisible();

  // Watch this job: pinned, and still pinned after a reload.
  const toggle = page.getByTestId(testIds.history.watchToggle);
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.getByTestId(testIds.history.watchToggle)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId(testIds.jobTabs.tab('metrics'))).toHaveAttribute('aria-selected', 'true');

  // The cluster page offers the recording.
  await page.getByRole('link', { name: /all jobs/ }).click();
  await expect(page.getByTestId(testIds.history.recordedJobRow(job.jid))).toContainText('pinned');
});
