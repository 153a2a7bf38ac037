import path from 'node:path';
import { testIds } from '../../../renderer/testIds';
import { expect, test } from '../../support/console';
import { fetchPlan, fetchVertexNames, operatorNames, readFlinkCluster, type FlinkCluster } from '../../support/flinkCluster';
import { ROOT } from '../../support/paths';

let cluster: FlinkCluster;

test.beforeAll(() => {
  // Fails every test of this file with "run `npm run flink:up`" when no cluster is up.
  cluster = readFlinkCluster();
});

test('from adding the cluster to a vertex’s subtasks, against the real Flink', async ({ app, page }) => {
  // Add the cluster by its REST URL: the engine checks it, the console opens it and says the detected version.
  const form = await app.openAddCluster();
  await form.fill({ name: 'test-flink', url: cluster.restUrl });
  await form.save();
  await expect(form.error).toHaveCount(0);
  await expect(form.savedToast('test-flink')).toContainText(`Detected Flink ${cluster.version}`);

  // Overview: version, 2 TaskManagers, 4 slots; the test job in the jobs table, RUNNING.
  const clusterPage = await form.openSavedCluster();
  await expect(clusterPage.flinkVersion).toHaveText(cluster.version);
  await expect(clusterPage.taskManagers).toHaveText('2');
  await expect(clusterPage.slots.getByTitle('total')).toHaveText('4');
  await expect(clusterPage.jobCount('running')).not.toHaveText('0');
  await clusterPage.expectJob(cluster.jobId, cluster.jobName, 'RUNNING');
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/cluster-overview.png'), fullPage: true });

  // The job graph: one node per plan node (same id, same parallelism). Flink 2.x plans carry only HTML
  // descriptions, so names are compared with the job detail's vertex names, and each must share at
  // least one operator with its plan node's description (e.g. "sink: Writer").
  const jobPage = await clusterPage.openJob(cluster.jobId);
  await expect(jobPage.name).toHaveText(cluster.jobName);
  await expect(jobPage.state).toHaveText('RUNNING');
  await jobPage.expectGraphShown();
  const plan = await fetchPlan(cluster);
  const names = await fetchVertexNames(cluster);
  await expect(jobPage.vertices()).toHaveCount(plan.length);
  for (const node of plan) {
    const vertex = jobPage.vertex(node.id);
    await expect(vertex).toBeVisible();
    expect(await jobPage.vertexParallelism(node.id), `parallelism of ${node.id}`).toBe(node.parallelism);
    const name = (await vertex.getByTestId(testIds.jobGraph.vertexName).textContent()) ?? '';
    expect(name, `name of vertex ${node.id}`).toBe(names.get(node.id));
    const operators = operatorNames(node.description);
    expect(
      operators.some((operator) => name.includes(operator)),
      `vertex "${name}" shares an operator with its plan description ${JSON.stringify(operators)}`,
    ).toBe(true);
  }
  await expect(jobPage.requestCount).toHaveText(String(1 + plan.length));

  // A vertex's subtasks: one row per parallel instance, sortable by busy time.
  const source = plan[0];
  const subtasks = await jobPage.openSubtasks(source.id);
  await expect(page).toHaveURL(new RegExp(`vertex=${source.id}`));
  await subtasks.expectRows(source.parallelism);
  await subtasks.sortBy('Busy');
  await expect(subtasks.table.getByRole('columnheader', { name: 'Busy' })).toHaveAttribute('aria-sort', 'descending');
  await subtasks.expectRows(source.parallelism);

  // Let the metrics arrive (busy time and rates are null right after start), then keep the picture.
  await expect(jobPage.vertex(source.id)).not.toHaveAttribute('data-busy', '', { timeout: 60_000 });
  await expect(subtasks.rows.first()).not.toHaveAttribute('data-busy', '', { timeout: 60_000 });
  // A viewport tall enough for graph and table, and a fresh fit, so the picture needs no scrolling.
  await page.setViewportSize({ width: 1440, height: 1080 });
  await page.getByRole('button', { name: 'Fit View' }).click();
  // The README's picture (copied there only by `npm run screenshots`).
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/job-graph.png'), fullPage: true });

  // A reload keeps the place: same job, same vertex open.
  await page.reload();
  await expect(jobPage.name).toHaveText(cluster.jobName);
  await subtasks.expectRows(source.parallelism);
  await subtasks.close();
  await expect(page).not.toHaveURL(/vertex=/);
  await app.expectNotBlank();
});

test('a job that is gone shows a clear message and the way back to the jobs list', async ({ app, page }) => {
  const form = await app.openAddCluster();
  await form.fill({ name: 'test-flink', url: cluster.restUrl });
  await form.save();
  const clusterPage = await form.openSavedCluster();
  await clusterPage.expectJob(cluster.jobId, cluster.jobName, 'RUNNING');

  const hash = await page.evaluate(() => window.location.hash);
  await app.goToHash(`${hash}/jobs/${'0'.repeat(32)}`);
  await expect(page.getByTestId(testIds.jobGraph.notFound)).toBeVisible();
  await expect(page.getByTestId(testIds.jobGraph.notFound)).toContainText('no longer on the cluster');
  await app.expectNotBlank();
  await page.getByRole('link', { name: 'Back to the jobs list' }).click();
  await clusterPage.expectJob(cluster.jobId, cluster.jobName, 'RUNNING');
});
