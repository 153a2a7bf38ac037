import path from 'node:path';
import { assignKeyToParallelOperator } from '../../../engine/analysis/key-groups/key-group-range-assignment';
import { testIds } from '../../../renderer/testIds';
import { DiagnosisPanel } from '../../pages/DiagnosisPanel';
import { SubtasksPanel } from '../../pages/SubtasksPanel';
import { engineJson, expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';

interface EngineVertex {
  id: string;
  name: string;
  parallelism: number;
  maxParallelism: number;
}

const SHOTS = path.join(ROOT, 'test-results/screenshots');

/**
 * `npm start`'s default: the console attached to its bundled local engine running the hot-tenant seed scenario.
 * acme moves to 40% of the traffic 30 s after the start; one tenant-cost subtask saturates and `assemble`,
 * upstream, turns HIGH. The console must show it as it would on a real cluster, and its diagnosis must name it.
 * One test for both: each half waits for the same steady state of the same scenario (CI time).
 */
test.use({ withLocalEngine: true });

test("the local engine's hot-tenant scenario: a saturated tenant-cost subtask, HIGH backpressure upstream, and the diagnosis naming the subtask that owns acme", async ({ app, consoleProcess, page }) => {
  test.setTimeout(420_000);
  expect(consoleProcess.localEngineUrl, 'the console printed the local engine\'s URL').toBeTruthy();
  expect(consoleProcess.localEngineToken, 'and its token').toBeTruthy();
  const { jobs } = await engineJson<{ jobs: { jid: string; name: string }[] }>(consoleProcess, '/jobs/overview');
  const job = jobs.find((j) => j.name === 'gatewaymeter')!;
  const { vertices } = await engineJson<{ vertices: EngineVertex[] }>(consoleProcess, `/jobs/${job.jid}`);
  const assemble = vertices.find((v) => v.name === 'assemble')!;
  const tenantCost = vertices.find((v) => v.name.startsWith('tenant-cost'))!;
  expect(tenantCost.parallelism).toBe(32);
  // Where Flink puts acme: computed here from Flink's assignment, never read from the app.
  const acme = assignKeyToParallelOperator('acme', tenantCost.maxParallelism, tenantCost.parallelism);

  const cluster = await app.openCluster('Local engine');
  await expect(cluster.taskManagers).toHaveText('4');
  await cluster.expectJob(job.jid, 'gatewaymeter', 'RUNNING');

  const graph = await cluster.openJob(job.jid);
  await graph.expectGraphShown();
  for (const vertex of vertices) {
    await expect(graph.vertex(vertex.id).getByTestId(testIds.jobGraph.vertexName)).toHaveText(vertex.name);
    expect(await graph.vertexParallelism(vertex.id)).toBe(vertex.parallelism);
  }

  // The shift comes 30 s in; the backlog then fills the hot channel's buffers before assemble is blocked.
  // Steady state, read together on one refresh: assemble HIGH; tenant-cost's busiest subtask near 1000 ms/s while
  // the others are lightly loaded, so max/avg busy is around 24 (at most 32, the parallelism).
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(graph.vertex(assemble.id)).toHaveAttribute('data-backpressure', 'high', { timeout: 5_000 });
    const hot = graph.vertex(tenantCost.id);
    expect(Number(await hot.getAttribute('data-busy'))).toBeGreaterThan(900);
    const skew = Number(await hot.getAttribute('data-skew'));
    expect(skew).toBeGreaterThan(15);
    expect(skew).toBeLessThanOrEqual(32);
  }).toPass({ timeout: 240_000, intervals: [10_000] });
  await expect(graph.vertex(tenantCost.id)).toContainText(/skew max\/avg \d+(\.\d)?×/);

  // The diagnosis' sentence, and the cause marked on the graph; its busy-skew badge an alarm now that a subtask is saturated.
  const diagnosis = new DiagnosisPanel(page);
  const sentence = await diagnosis.waitForFinding('skew', 120_000);
  expect(sentence).toMatch(
    new RegExp(`^tenant-cost subtask ${acme} is (saturated|busy) \\(.*\\d+× the vertex's average\\) while its 31 siblings .*: data skew on the key\\. assemble is back-pressured because of it\\.$`),
  );
  await expect(diagnosis.finding).toHaveAttribute('data-severity', 'critical');
  await expect(graph.vertex(tenantCost.id)).toHaveAttribute('data-marked', 'true');
  await expect(graph.vertex(tenantCost.id)).toHaveAttribute('data-skew-alarm', 'true', { timeout: 30_000 });

  // The heatmap of busy time: acme's cell is the hottest, and hovering it gives its figures.
  await diagnosis.openSkewTab();
  await expect.poll(() => diagnosis.hottestCell(), { timeout: 30_000 }).toBe(`${tenantCost.id}:${acme}`);
  await expect(diagnosis.heatmap).toHaveAttribute('data-metric', 'busyTimeMsPerSecond');
  const tooltip = await diagnosis.hoverCell(tenantCost.id, acme);
  expect(tooltip).toContain(`Subtask ${acme} of ${tenantCost.parallelism}`);
  expect(tooltip).toMatch(/hot/);
  // The hottest cell of the busy-time heatmap: at least half busy (saturated once the window is past the shift).
  expect(Number(/Mean (\d+) ms\/s/.exec(tooltip)?.[1])).toBeGreaterThanOrEqual(500);
  await page.screenshot({ path: path.join(SHOTS, 'diagnosis-heatmap-hover.png') });

  // Why: the key groups of the hot subtask and the lopsided backpressure upstream.
  await diagnosis.finding.getByRole('button', { name: 'Why?' }).click();
  const range = `${Math.ceil((acme * tenantCost.maxParallelism) / tenantCost.parallelism)}–${Math.floor(((acme + 1) * tenantCost.maxParallelism - 1) / tenantCost.parallelism)}`;
  await expect(page.getByTestId(testIds.diagnosis.details)).toContainText(`Subtask ${acme} owns key groups ${range} of ${tenantCost.maxParallelism}`);
  await page.screenshot({ path: path.join(SHOTS, 'diagnosis-hot-tenant.png'), fullPage: true });

  // The evidence: the subtasks table sorted by busy time, the hot subtask first and marked — acme's key group
  // (50 of 128) lands on subtask 12 at parallelism 32, as on a real Flink.
  await diagnosis.evidence.click();
  await expect(page).toHaveURL(new RegExp(`vertex=${tenantCost.id}&sort=busyTimeMsPerSecond&subtask=${acme}$`));
  const subtasks = new SubtasksPanel(page);
  await subtasks.expectRows(tenantCost.parallelism);
  await expect(subtasks.rows.first()).toHaveAttribute('data-testid', testIds.subtasks.row(12));
  await expect(subtasks.rows.first()).toHaveAttribute('data-marked', 'true');
  await expect(subtasks.rows.first()).toHaveAttribute('data-busy', /^(9\d\d|1000)(\.\d+)?$/);
  // The README's picture (copied there only by `npm run screenshots`).
  await page.screenshot({ path: path.join(SHOTS, 'local-engine-hot-tenant.png'), fullPage: true });

  // The key lookup agrees with Flink's assignment.
  await diagnosis.openSkewTab();
  await diagnosis.lookUpKey('acme', tenantCost.id);
  await expect(diagnosis.keyLocation).toHaveAttribute('data-subtask', String(acme));
  await expect(diagnosis.keyLocation).toContainText(`tenant-cost -> Sink: usd-sink subtask ${acme} owns it`);
  await expect(page.getByTestId(testIds.diagnosis.skewRow(tenantCost.id))).toHaveAttribute('data-pattern', 'hot');
  await diagnosis.skewPanel.screenshot({ path: path.join(SHOTS, 'diagnosis-skew-panel.png') });

  // Click-through: a cell opens its subtask in its vertex's table (the source's subtask 2, by busy time).
  const source = vertices.find((v) => v.name.startsWith('Source'))!;
  await diagnosis.clickCell(source.id, 2);
  await expect(page).toHaveURL(new RegExp(`vertex=${source.id}&sort=busyTimeMsPerSecond&subtask=2$`));
  await expect(page.getByTestId(testIds.subtasks.row(2))).toHaveAttribute('data-marked', 'true');
});
