import path from 'node:path';
import { testIds } from '../../../renderer/testIds';
import { expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';
import { startReplayFlink, type ReplayFlink } from '../../support/replayFlink';

/**
 * A cluster that fails one vertex's metrics (a 503 during a leader election, a JobManager that lost the metrics of
 * one TaskManager): the graph still shows every vertex, the others with their metrics, that one marked "metrics
 * unavailable" with the reason, and the page says how many.
 */
let replay: ReplayFlink;

test.beforeEach(async () => {
  replay = await startReplayFlink();
});

test.afterEach(async () => {
  await replay.close();
});

test('one vertex whose metrics fail: the graph shows all vertices, that one marked "metrics unavailable"', async ({ app, page }) => {
  const [healthy, broken] = replay.vertices;
  replay.setFault({
    path: new RegExp(`/vertices/${broken.id}/subtasks/metrics`),
    status: 503,
    message: 'Service temporarily unavailable due to an ongoing leader election. Please refresh.',
  });
  const form = await app.openAddCluster();
  await form.fill({ name: 'half-broken', url: replay.url });
  await form.save();
  const cluster = await form.openSavedCluster();
  const job = await cluster.openJob(replay.jobId);
  await job.expectGraphShown();

  await expect(job.vertices()).toHaveCount(replay.vertices.length);
  const marked = job.vertex(broken.id);
  await expect(marked).toHaveAttribute('data-metrics', 'unavailable');
  await expect(marked.getByTestId(testIds.jobGraph.vertexName)).toHaveText(broken.name);
  await expect(marked.getByTestId(testIds.jobGraph.vertexMetricsUnavailable)).toHaveText('⚠ metrics unavailable');
  await expect(marked).toHaveAttribute('title', /Metrics unavailable: .*failed GET \/jobs\/:jobid\/vertices\/:vertexid\/subtasks\/metrics with 503: Service temporarily unavailable/);
  await expect(job.vertex(healthy.id)).toHaveAttribute('data-metrics', 'current');
  await expect(job.vertex(healthy.id)).toHaveAttribute('data-busy', /^\d/);
  await expect(page.getByTestId(testIds.jobGraph.metricsUnavailableCount)).toHaveText('⚠ 1 vertex without metrics');
  await expect(page.getByTestId(testIds.errors.banner)).toHaveCount(0);
  await app.expectNotBlank();
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/vertex-metrics-unavailable.png'), fullPage: true });

  // The cluster recovers: the next refresh brings the vertex's metrics back.
  replay.setFault(null);
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expect(marked).toHaveAttribute('data-metrics', 'current');
  await expect(marked.getByTestId(testIds.jobGraph.vertexMetricsUnavailable)).toHaveCount(0);
  await expect(page.getByTestId(testIds.jobGraph.metricsUnavailableCount)).toHaveCount(0);
});
