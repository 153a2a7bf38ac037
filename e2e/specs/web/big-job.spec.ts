import path from 'node:path';
import { startSyntheticJobServer, type SyntheticJobServer } from '../../../engine/bench/synthetic-job-server';
import { taskManagerOf } from '../../../engine/bench/synthetic-job-model';
import { testIds } from '../../../renderer/testIds';
import { JobGraphPage } from '../../pages/JobGraphPage';
import { SubtasksPanel } from '../../pages/SubtasksPanel';
import { expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';

/**
 * A job of 200 vertices × parallelism 4,096 (engine/bench/synthetic-job-server.ts: one hot vertex, `tenant-cost`, with
 * one hot subtask), added as a cluster through the form, as a user would. What is checked here is behaviour; how fast
 * it is, is the bench's (`npm run bench`).
 */
let cluster: SyntheticJobServer;

test.beforeAll(async () => {
  cluster = await startSyntheticJobServer(200, { parallelism: 4096 });
});

test.afterAll(async () => {
  await cluster.close();
});

// 819,200 subtasks: the console's background sampler reads megabytes per vertex meanwhile.
test.setTimeout(180_000);

test('a 200-vertex job of parallelism 4,096: the vertex list finds tenant-cost, zoom to shows it, the table reads far down and sorts the busiest first', async ({ app, page }) => {
  const hot = cluster.job.hotVertex;
  const form = await app.openAddCluster();
  await form.fill({ name: 'synthetic', url: cluster.url });
  await form.save();
  const clusterPage = await form.openSavedCluster();
  await clusterPage.expectJob(cluster.jobId, cluster.job.name, 'RUNNING');
  const job: JobGraphPage = await clusterPage.openJob(cluster.jobId);
  await job.expectGraphShown();
  // ELK ran in its web worker: the CSP lets the page start it (a refusal would also fail the test as a CSP error).
  await expect(job.canvas).toHaveAttribute('data-layout-thread', 'worker');
  await expect(job.canvas).toHaveAttribute('data-layout', 'elk');

  // The vertex list: the hottest first; "tenant cost" finds it by name among 200.
  await expect(job.vertexList.getByTestId(testIds.vertexList.count)).toHaveText('200 vertices');
  await expect(job.vertexList.locator('tbody tr[data-testid]').first()).toHaveAttribute('data-testid', testIds.vertexList.row(hot.id));
  await job.findVertex('tenant cost');
  await expect(job.vertexList.getByTestId(testIds.vertexList.count)).toHaveText('1 of 200 vertices');
  const row = job.vertexListRow(hot.id);
  await expect(row).toContainText(hot.name);
  await expect(row).toContainText('1000');

  // "Zoom to" brings it into view, its figures readable. (The first look, on Flink's current figures, names it at
  // once, so the graph may already have gone to it: zoom to holds either way.)
  await row.getByRole('button', { name: `Zoom to ${hot.name}` }).click();
  await expect(job.vertex(hot.id)).toBeInViewport({ ratio: 0.99 });
  await expect(job.vertex(hot.id)).toHaveAttribute('data-lod', 'figures');
  const canvasBox = (await job.canvas.locator('.graph-canvas__flow').boundingBox())!;
  const vertexBox = (await job.vertex(hot.id).boundingBox())!;
  expect(vertexBox.x, 'inside the canvas').toBeGreaterThanOrEqual(canvasBox.x);
  expect(vertexBox.y).toBeGreaterThanOrEqual(canvasBox.y);
  expect(vertexBox.x + vertexBox.width).toBeLessThanOrEqual(canvasBox.x + canvasBox.width);
  expect(vertexBox.y + vertexBox.height).toBeLessThanOrEqual(canvasBox.y + canvasBox.height);
  await expect(job.vertex(hot.id).getByTestId(testIds.jobGraph.vertexParallelism)).toHaveText('Parallelism: 4096');
  await page.getByTestId(testIds.jobGraph.page).evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/big-job-zoomed-in.png') });

  // Zoomed out over the whole graph: colour only, and the hottest vertex called out.
  await page.getByRole('button', { name: 'Fit View' }).click();
  await expect(job.vertex(hot.id)).toHaveAttribute('data-lod', 'colour');
  // Called out as the hottest, or as the diagnosis' vertex once its first look names it.
  await expect(job.vertex(hot.id)).toHaveAttribute('data-mark', /^(hottest|focus)$/);
  await expect(page.locator('.vertex-callout')).toContainText(hot.name);
  // Once the diagnosis names it, the path from the sources to it stands out: it is drawn whole, a vertex it feeds
  // (off the path) faint.
  await expect(job.vertex(hot.id)).toHaveAttribute('data-mark', 'focus', { timeout: 60_000 });
  const fed = cluster.job.vertices.find((v) => v.inputs.includes(hot.index))!;
  await expect.poll(async () => (await job.opacities())[hot.id]).toBe(1);
  await expect.poll(async () => (await job.opacities())[fed.id]).toBeLessThan(0.5);
  const intoHot = job.canvas.locator(`.react-flow__edge[data-id$="->${hot.id}"] .react-flow__edge-path`).first();
  await expect(intoHot).toHaveCSS('stroke', 'rgb(255, 122, 217)');
  await page.getByTestId(testIds.jobGraph.page).evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/big-job-zoomed-out.png') });

  // Its subtasks: 4,096 rows, of which only those on screen are in the page.
  await row.click();
  const subtasks = new SubtasksPanel(page);
  await expect(subtasks.root.getByTestId(testIds.subtasks.count)).toHaveText('4096 subtasks', { timeout: 30_000 });
  expect(await subtasks.rows.count()).toBeLessThan(80);

  // Row 4,000, far down: the right subtask with its own figures.
  await subtasks.scrollToPosition(4000);
  const far = subtasks.row(4000);
  await expect(far).toBeInViewport();
  const expected = cluster.job.subtask(hot, 4000);
  const cells = far.getByRole('cell');
  await expect(cells.nth(0)).toHaveText('4000');
  await expect(cells.nth(1)).toHaveText('RUNNING');
  await expect(cells.nth(2)).toHaveText('OK');
  await expect(cells.nth(3)).toHaveText(String(expected.busyMsPerSecond));
  await expect(cells.nth(4)).toHaveText(String(expected.backPressuredMsPerSecond));
  await expect(cells.nth(5)).toHaveText(String(expected.idleMsPerSecond));
  await expect(cells.last()).toContainText(taskManagerOf(4000).id);

  // Sorted by busy: the hot subtask first, back at the top of the table.
  await subtasks.sortBy('Busy ms/s');
  const first = subtasks.rows.first();
  await expect(first).toHaveAttribute('data-testid', testIds.subtasks.row(cluster.job.hotSubtask));
  await expect(first.getByRole('cell').nth(3)).toHaveText('1000');
  await expect(first).toBeInViewport();

  // The filter finds one subtask by its index among 4,096.
  await subtasks.root.getByRole('searchbox', { name: 'Filter subtasks' }).fill('4000');
  await expect(subtasks.root.getByTestId(testIds.subtasks.count)).toHaveText('1 of 4096 subtasks');
  await expect(subtasks.row(4000)).toBeVisible();

  // The refresh's cost is shown: 1 + V requests for the graph.
  await expect(page.getByTestId(testIds.jobGraph.requestCount)).toHaveText('201');
  await expect(page.getByTestId(testIds.jobGraph.refreshCost)).toContainText(/201 requests · [\d.]+ KiB · [\d.]+ m?s this refresh/);
});
