import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assignKeyToParallelOperator } from '../../../engine/analysis/key-groups/key-group-range-assignment';
import { startLocalEngineProcess, type LocalEngineProcess } from '../../../engine/app/local-engine-process';
import { testIds } from '../../../renderer/testIds';
import { DiagnosisPanel } from '../../pages/DiagnosisPanel';
import type { JobGraphPage } from '../../pages/JobGraphPage';
import type { ConsolePage } from '../../pages/ConsolePage';
import { expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';

interface EngineVertex {
  id: string;
  name: string;
  parallelism: number;
  maxParallelism: number;
}

const SHOTS = path.join(ROOT, 'test-results/screenshots');

/** The running job of an engine and its vertices, straight from its REST API (the test's ground truth). */
/** The engine answers only with its per-launch token (every engine the app or a test starts has one). */
async function engineJob(url: string, token: string): Promise<{ jobId: string; vertices: EngineVertex[] }> {
  const get = async <T>(path: string): Promise<T> => (await (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;
  const { jobs } = await get<{ jobs: { jid: string; name: string }[] }>('/jobs/overview');
  const job = jobs.find((j) => j.name === 'gatewaymeter')!;
  const { vertices } = await get<{ vertices: EngineVertex[] }>(`/jobs/${job.jid}`);
  return { jobId: job.jid, vertices };
}

/** A `flink-ops engine` of its own, added to the console through the form like any cluster. */
async function attachEngine(app: ConsolePage, args: string[]): Promise<{ engine: LocalEngineProcess; graph: JobGraphPage; jobId: string; vertices: EngineVertex[] }> {
  const engine = await startLocalEngineProcess({ binPath: path.join(ROOT, 'engine/cli/flink-ops.mjs'), args });
  try {
    const { jobId, vertices } = await engineJob(engine.url, engine.token);
    const form = await app.openAddCluster();
    await form.fill({ name: 'rehearsal', url: engine.url, auth: { kind: 'bearer', token: engine.token } });
    await form.save();
    const cluster = await form.openSavedCluster();
    const graph = await cluster.openJob(jobId);
    await graph.expectGraphShown();
    return { engine, graph, jobId, vertices };
  } catch (error) {
    await engine.stop();
    throw error;
  }
}

test.describe('a local engine added like any cluster', () => {
  test("an operator's own scenario at parallelism 24 of 256 key groups: calm before the shift, the right subtask after", async ({ app, page }, testInfo) => {
    test.setTimeout(420_000);
    // globex takes half the traffic 60 s in (after the calm first look, which comes ~20 s in); tenant-cost at 24 subtasks over 256 key groups; metrics every 5 s.
    const scenario = readFileSync(path.join(ROOT, 'resources/scenarios/hot-tenant.yaml'), 'utf8')
      .replace('name: hot-tenant', 'name: globex-rush')
      .replace('tenant-cost: 32', 'tenant-cost: 24')
      .replace('taskmanager.memory.segment-size: 4kb', "taskmanager.memory.segment-size: 4kb\n  metrics.fetcher.update-interval: '5000'")
      .replace(/- at: 30s\n(\s+)share:\n(\s+)acme: 0.40/, '- at: 60s\n$1share:\n$2globex: 0.5');
    const file = testInfo.outputPath('globex-rush.yaml');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, scenario);
    const { engine, graph, vertices } = await attachEngine(app, ['--scenario', file, '--max-parallelism', '256']);
    try {
      const tenantCost = vertices.find((v) => v.name.startsWith('tenant-cost'))!;
      expect([tenantCost.parallelism, tenantCost.maxParallelism]).toEqual([24, 256]);
      const globex = assignKeyToParallelOperator('globex', 256, 24);
      const diagnosis = new DiagnosisPanel(page);

      // Before the shift: 16 tenants over 24 subtasks leave some idle; said calmly, and the badge is no alarm.
      const calm = await diagnosis.waitForFinding('nothing-wrong', 60_000);
      expect(calm).toMatch(/no skew\.$/);
      await expect(graph.vertex(tenantCost.id)).not.toHaveAttribute('data-skew', '', { timeout: 30_000 });
      await expect(graph.vertex(tenantCost.id)).toHaveAttribute('data-skew-alarm', 'false');
      await expect(graph.vertex(tenantCost.id)).toHaveAttribute('data-marked', 'false');

      const sentence = await diagnosis.waitForFinding('skew', 330_000);
      expect(sentence).toMatch(new RegExp(`^tenant-cost subtask ${globex} is (saturated|busy) .* while its 23 siblings .*: data skew on the key\\.`));
      await diagnosis.openSkewTab();
      await expect.poll(() => diagnosis.hottestCell(), { timeout: 30_000 }).toBe(`${tenantCost.id}:${globex}`);
      await page.screenshot({ path: path.join(SHOTS, 'diagnosis-rehearsal.png'), fullPage: true });
    } finally {
      await engine.stop();
    }
  });

  test('a uniform run (no scenario) says "no skew" and names no hot subtask', async ({ app, page }) => {
    test.setTimeout(180_000);
    const { engine, vertices } = await attachEngine(app, []);
    try {
      const diagnosis = new DiagnosisPanel(page);
      const sentence = await diagnosis.waitForFinding('nothing-wrong', 120_000);
      expect(sentence).toMatch(/no skew\.$/);
      await expect(diagnosis.finding).toHaveAttribute('data-severity', 'ok');
      await expect(diagnosis.evidence).toHaveCount(0);
      await diagnosis.openSkewTab();
      await expect(diagnosis.heatmap).toBeVisible();
      await expect(diagnosis.skewTable.locator('tbody tr')).toHaveCount(vertices.length);
      for (const vertex of vertices) await expect(page.getByTestId(testIds.diagnosis.skewRow(vertex.id))).not.toHaveAttribute('data-pattern', 'hot');
      await expect(diagnosis.skewTable.getByRole('button', { name: /@/ })).toHaveCount(0);
    } finally {
      await engine.stop();
    }
  });
});
