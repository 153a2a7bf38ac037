import path from 'node:path';
import { testIds } from '../../../renderer/testIds';
import { ClusterFormPage } from '../../pages/ClusterFormPage';
import { expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';
import { startReplayFlink, type ReplayFlink } from '../../support/replayFlink';

/**
 * Every page against recorded responses of a real Flink 2.2.1, served from loopback:
 * no running cluster needed, and failures can be switched on at will.
 */
let replay: ReplayFlink;

test.beforeEach(async () => {
  replay = await startReplayFlink();
  // The recording predates the cluster page's Jars panel: what a Flink with web.submit.enable and no jar answers.
  replay.setExtra({ '/jars': { status: 200, contentType: 'application/json; charset=UTF-8', body: JSON.stringify({ address: replay.url, files: [] }) } });
});

test.afterEach(async () => {
  await replay.close();
});

test('save, open, graph and subtasks against a recorded Flink', async ({ app }) => {
  const form = await app.openAddCluster();
  await form.fill({ name: 'recorded', url: replay.url });
  await form.save();
  await expect(form.savedToast('recorded')).toContainText(`Detected Flink ${replay.version}`);
  await expect(app.clusterLink('recorded')).toBeVisible();

  const cluster = await form.openSavedCluster();
  await expect(cluster.flinkVersion).toHaveText(replay.version);
  await expect(cluster.taskManagers).toHaveText('2');
  await expect(cluster.slots.getByTitle('total')).toHaveText('4');
  await cluster.expectJob(replay.jobId, 'gatewaymeter-test', 'RUNNING');
  // The TaskManagers with what operators look at, from /taskmanagers and each one's metrics.
  const busy = app.page.getByTestId(testIds.taskManagers.row('127.0.0.1:38465-fa4202'));
  await expect(busy.getByRole('cell')).toHaveText([
    '127.0.0.1:38465-fa4202',
    '127.0.0.1:39975',
    '2 / 2',
    '36.9 MiB / 456 MiB',
    '0 B / 166 MiB',
    '0.5%',
    '41 / 2.66k',
    /ago|just now/,
    'Details',
    'Logs',
  ]);

  const job = await cluster.openJob(replay.jobId);
  await job.expectGraphShown();
  await expect(job.vertices()).toHaveCount(replay.vertices.length);
  for (const vertex of replay.vertices) {
    await expect(job.vertex(vertex.id).getByTestId(testIds.jobGraph.vertexName)).toHaveText(vertex.name);
  }
  expect(replay.shipStrategies.length).toBeGreaterThan(0);
  await expect(job.canvas.locator('.edge-label')).toHaveText(replay.shipStrategies);

  const subtasks = await job.openSubtasks(replay.vertices[0].id);
  await subtasks.expectRows(await job.vertexParallelism(replay.vertices[0].id));

  await app.page.getByTestId(testIds.jobTabs.tab('exceptions')).click();
  await expect(app.page.getByTestId(testIds.exceptions.empty)).toHaveText('No exceptions: this job has not failed or restarted since it was submitted.');
  // The background sampler also asks for a settled checkpoint's details, which the recording does not hold (a real
  // JobManager answers the same 404 once its history dropped them): every request of the pages was answered.
  // A recording without the vertices' figures per subtask refuses them, as a proxy with a shorter request line would:
  // the console reads Flink's aggregates instead (the graph above has its figures), and asks for them no more.
  const figures = replay.misses.filter((p) => /\/vertices\/[0-9a-f]{32}\/metrics\?get=0\./.test(p));
  // Each vertex asked once, by the page's first refresh and perhaps the sampler's graph at the same moment.
  expect(figures.length).toBeLessThanOrEqual(2 * replay.vertices.length);
  // The processes' round (memory and GC once a minute) is newer than this recording, which holds no JobManager metrics
  // and no list of a TaskManager's metric ids: refused, and proven against a real Flink in process-history.flink.
  const processes = replay.misses.filter((p) => p === '/jobmanager/metrics' || /^\/taskmanagers\/[^/]+\/metrics$/.test(p));
  expect(
    replay.misses.filter((p) => !p.includes('/checkpoints/details/') && !figures.includes(p) && !processes.includes(p)),
    'requests the recording could not answer',
  ).toEqual([]);
});

test('a failing refresh keeps the last data, marks it stale and names the endpoint', async ({ app, page }) => {
  const form = await app.openAddCluster();
  await form.fill({ name: 'flaky', url: replay.url });
  await form.save();
  const cluster = await form.openSavedCluster();
  await expect(cluster.flinkVersion).toHaveText(replay.version);
  await cluster.expectJob(replay.jobId, 'gatewaymeter-test', 'RUNNING');

  replay.setBroken(true);
  await page.getByRole('button', { name: 'Refresh now' }).click();

  const overviewError = cluster.overview.getByTestId(testIds.errors.banner);
  await expect(overviewError).toBeVisible();
  await expect(overviewError.getByTestId(testIds.errors.endpoint)).toContainText('GET /');
  await expect(cluster.overview.getByTestId(testIds.refresh.stale)).toBeVisible();
  await expect(cluster.flinkVersion).toHaveText(replay.version);

  const jobsError = cluster.jobsPanel.getByTestId(testIds.errors.banner);
  await expect(jobsError).toBeVisible();
  await expect(cluster.jobsPanel.getByTestId(testIds.refresh.stale)).toBeVisible();
  await expect(cluster.jobRow(replay.jobId)).toBeVisible();
  await app.expectNotBlank();
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/stale-cluster.png'), fullPage: true });

  // Back to health: the next refresh clears the banners and the stale marks.
  replay.setBroken(false);
  await cluster.overview.getByRole('button', { name: 'Retry' }).click();
  await expect(overviewError).toHaveCount(0);
  await expect(cluster.overview.getByTestId(testIds.refresh.stale)).toHaveCount(0);
});

test('edit and remove a cluster (removal asks first)', async ({ app, page }) => {
  const form = await app.openAddCluster();
  await form.fill({ name: 'before', url: replay.url, timeoutMs: 4000 });
  await form.save();
  await expect(app.clusterLink('before')).toBeVisible();

  await app.sidebar.getByRole('link', { name: 'Edit before' }).click();
  const edit = new ClusterFormPage(page);
  await expect(edit.heading).toHaveText('Edit cluster “before”');
  await expect(edit.timeout).toHaveValue('4000');
  await edit.name.fill('after');
  await edit.save();
  await expect(edit.success).toContainText('Saved “after”');
  await expect(app.clusterLink('after')).toBeVisible();
  await expect(app.clusterLink('before')).toHaveCount(0);

  await app.sidebar.getByRole('button', { name: 'Remove after' }).click();
  const confirm = app.sidebar.getByRole('alertdialog', { name: 'Remove after?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(app.clusterLink('after')).toBeVisible();

  await app.sidebar.getByRole('button', { name: 'Remove after' }).click();
  await app.sidebar.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(app.clusterLink('after')).toHaveCount(0);
  await app.expectNotBlank();
});

test('a job that is not on the cluster shows a way back', async ({ app, page }) => {
  const form = await app.openAddCluster();
  await form.fill({ name: 'recorded', url: replay.url });
  await form.save();
  const cluster = await form.openSavedCluster();
  await cluster.expectJob(replay.jobId, 'gatewaymeter-test', 'RUNNING');

  const hash = await page.evaluate(() => window.location.hash);
  await app.goToHash(`${hash}/jobs/${'0'.repeat(32)}`);
  await expect(page.getByTestId(testIds.jobGraph.notFound)).toBeVisible();
  await page.getByRole('link', { name: 'Back to the jobs list' }).click();
  await cluster.expectJob(replay.jobId, 'gatewaymeter-test', 'RUNNING');
});
