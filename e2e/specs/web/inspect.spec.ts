import path from 'node:path';
import { testIds } from '../../../renderer/testIds';
import { InspectTab } from '../../pages/InspectTab';
import { engineJson, expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';

/**
 * The Inspect tab on the bundled local engine: the vertex's low-watermark subtask as the engine's own REST names it,
 * the timeline of its subtasks' states, its accumulators, its flame graph (none: the engine answers as a Flink without
 * them), the configuration with a filter, and a TaskManager's memory (and why it has no profiler), as figures and over time.
 */
test.use({ withLocalEngine: true });

type Watermarks = Array<{ id: string; value: string }>;

test('a vertex\'s watermarks, timeline and accumulators, the configuration, and a TaskManager\'s memory', async ({ app, consoleProcess, page }) => {
  test.setTimeout(180_000);
  const { jobs } = await engineJson<{ jobs: { jid: string; name: string }[] }>(consoleProcess, '/jobs/overview');
  const job = jobs.find((j) => j.name === 'gatewaymeter')!;
  const { vertices } = await engineJson<{ vertices: Array<{ id: string; name: string }> }>(consoleProcess, `/jobs/${job.jid}`);
  const tenantCost = vertices.find((v) => v.name.startsWith('tenant-cost'))!;

  const cluster = await app.openCluster('Local engine');
  const graph = await cluster.openJob(job.jid);
  await graph.expectGraphShown();
  const inspect = await InspectTab.open(page);
  await inspect.chooseVertex(tenantCost.id);

  // The sentence names the subtask the engine's REST reports lowest (read as the page refreshes: poll until they agree).
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    const watermarks = await engineJson<Watermarks>(consoleProcess, `/jobs/${job.jid}/vertices/${tenantCost.id}/watermarks`);
    const values = watermarks.map((w) => Number(w.value)).filter((v) => v > 0);
    expect(values.length).toBeGreaterThan(0);
    await expect(inspect.lowWatermark).toContainText(/Subtask \d+ holds the vertex's watermark/, { timeout: 2_000 });
    const named = Number(/Subtask (\d+) holds/.exec((await inspect.lowWatermark.textContent())!)![1]);
    await expect(page.getByTestId(testIds.inspect.watermarkRow(named))).toHaveClass(/is-marked/);
  }).toPass({ timeout: 60_000 });
  await expect(inspect.timeline).toContainText('reached RUNNING last');
  await expect(inspect.accumulators).toContainText('local-engine.numRecordsIn');
  // The engine has no task threads to sample: it answers as a Flink without flame graphs, and the panel says why
  // (not how to turn on a setting the engine has no use for).
  await expect(inspect.flameSentence).toHaveAttribute('data-status', 'disabled');
  await expect(inspect.flameSentence).toHaveText(/^The local engine has no flame graphs/);

  await inspect.filterConfiguration('parallelism');
  await expect(inspect.configuration.locator('tbody tr').first()).toBeVisible();
  await expect(inspect.configuration).not.toContainText('rest.port');

  await app.openCluster('Local engine');
  const { taskmanagers } = await engineJson<{ taskmanagers: Array<{ id: string }> }>(consoleProcess, '/taskmanagers');
  await page.getByTestId(testIds.inspect.processButton(taskmanagers[0].id)).click();
  const memory = page.getByTestId(testIds.inspect.processPanel);
  await expect(memory).toContainText('Heap');
  await expect(memory).toContainText('Node.js process');
  await expect(memory).toContainText('Network buffers');
  // Beside it, the profiler: the engine is no JVM, and says so rather than how to turn a setting on.
  await expect(page.getByTestId(testIds.profiler.unavailable)).toHaveText(/^The local engine has no profiler/);

  // Over time, from the history: the job page opened above started its watch, and with it the processes' sampling.
  const latest = page.getByTestId(testIds.processHistory.latest);
  await expect(latest).toBeVisible({ timeout: 30_000 });
  const served = new Map(
    (await engineJson<Array<{ id: string; value: string }>>(consoleProcess, `/taskmanagers/${taskmanagers[0].id}/metrics?get=Status.JVM.Memory.Heap.Max,Status.Flink.Memory.Managed.Total,Status.Shuffle.Netty.TotalMemorySegments,Status.JVM.GarbageCollector.All.Count`)).map((m) => [m.id, m.value]),
  );
  await expect(latest).toHaveAttribute('data-heap-max', served.get('Status.JVM.Memory.Heap.Max')!);
  await expect(latest).toHaveAttribute('data-managed-total', served.get('Status.Flink.Memory.Managed.Total')!);
  await expect(latest).toHaveAttribute('data-network-total', served.get('Status.Shuffle.Netty.TotalMemorySegments')!);
  // The process's collections only grow: the sample's count is at most what the engine says now.
  expect(Number(await latest.getAttribute('data-gc-count'))).toBeLessThanOrEqual(Number(served.get('Status.JVM.GarbageCollector.All.Count')));
  for (const chart of ['memory', 'network', 'gc'] as const) await expect(page.getByTestId(testIds.processHistory.chart(chart))).toBeVisible();
  await memory.screenshot({ path: path.join(ROOT, 'test-results/screenshots/taskmanager-over-time.png') });

  // The JobManager's: memory and GC, no network buffers of its own.
  await page.getByTestId(testIds.inspect.processButton('jobmanager')).click();
  await expect(memory).toContainText('JobManager memory');
  await expect(page.getByTestId(testIds.processHistory.chart('memory'))).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId(testIds.processHistory.chart('network'))).toHaveCount(0);
});
