import path from 'node:path';
import { testIds } from '../../../renderer/testIds';
import { engineJson, expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';

interface EngineVertex {
  id: string;
  name: string;
  parallelism: number;
}

/**
 * `npm start`'s default: the console attached to its bundled local engine running the hot-tenant seed scenario.
 * acme moves to 40% of the traffic 30 s after the start; one tenant-cost subtask saturates and `assemble`,
 * upstream, turns HIGH. The console must show it as it would on a real cluster.
 */
test.use({ withLocalEngine: true });

test('the local engine\'s hot-tenant scenario: a saturated tenant-cost subtask and HIGH backpressure upstream', async ({ app, consoleProcess, page }) => {
  test.setTimeout(300_000);
  expect(consoleProcess.localEngineUrl, 'the console printed the local engine\'s URL').toBeTruthy();
  expect(consoleProcess.localEngineToken, 'and its token').toBeTruthy();
  const { jobs } = await engineJson<{ jobs: { jid: string; name: string }[] }>(consoleProcess, '/jobs/overview');
  const job = jobs.find((j) => j.name === 'gatewaymeter')!;
  const { vertices } = await engineJson<{ vertices: EngineVertex[] }>(consoleProcess, `/jobs/${job.jid}`);

  const cluster = await app.openCluster('Local engine');
  await expect(cluster.taskManagers).toHaveText('4');
  await cluster.expectJob(job.jid, 'gatewaymeter', 'RUNNING');

  const graph = await cluster.openJob(job.jid);
  await graph.expectGraphShown();
  for (const vertex of vertices) {
    await expect(graph.vertex(vertex.id).getByTestId(testIds.jobGraph.vertexName)).toHaveText(vertex.name);
    expect(await graph.vertexParallelism(vertex.id)).toBe(vertex.parallelism);
  }
  const assemble = vertices.find((v) => v.name === 'assemble')!;
  const tenantCost = vertices.find((v) => v.name.startsWith('tenant-cost'))!;
  expect(tenantCost.parallelism).toBe(32);

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

  const subtasks = await graph.openSubtasks(tenantCost.id);
  await subtasks.expectRows(32);
  await subtasks.sortBy('Busy');
  // acme's key group (50 of 128) lands on subtask 12 at parallelism 32, as on a real Flink.
  await expect(subtasks.rows.first()).toHaveAttribute('data-testid', testIds.subtasks.row(12));
  await expect(subtasks.rows.first()).toHaveAttribute('data-busy', /^(9\d\d|1000)(\.\d+)?$/);

  // The README's picture (copied there only by `npm run screenshots`).
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/local-engine-hot-tenant.png'), fullPage: true });
});
