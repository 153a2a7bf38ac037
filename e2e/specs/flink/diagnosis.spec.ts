import path from 'node:path';
import { assignKeyToParallelOperator } from '../../../engine/analysis/key-groups/key-group-range-assignment';
import { DiagnosisPanel } from '../../pages/DiagnosisPanel';
import { expect, test } from '../../support/console';
import { fetchVertexNames, readFlinkCluster, type FlinkCluster } from '../../support/flinkCluster';
import { ROOT } from '../../support/paths';

let cluster: FlinkCluster;

test.beforeAll(() => {
  cluster = readFlinkCluster();
});

test('the job page names the throttle subtask that owns the hot tenant, against the real Flink', async ({ app, page }) => {
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
});
