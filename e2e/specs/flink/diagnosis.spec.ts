import path from 'node:path';
import { assignKeyToParallelOperator } from '../../../engine/analysis/key-groups/key-group-range-assignment';
import { testIds } from '../../../renderer/testIds';
import { DiagnosisPanel } from '../../pages/DiagnosisPanel';
import { InspectTab } from '../../pages/InspectTab';
import { expect, test } from '../../support/console';
import { fetchVertexNames, readFlinkCluster, type FlinkCluster } from '../../support/flinkCluster';
import { ROOT } from '../../support/paths';

let cluster: FlinkCluster;

test.beforeAll(() => {
  cluster = readFlinkCluster();
});

test('the job page names the throttle subtask that owns the hot tenant, against the real Flink, and shows its flame graph one click away', async ({ app, page }) => {
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
