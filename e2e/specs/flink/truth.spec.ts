import path from 'node:path';
import { DiagnosisPanel } from '../../pages/DiagnosisPanel';
import { expect, test } from '../../support/console';
import { type FlinkCluster, getFromFlink, readFlinkCluster } from '../../support/flinkCluster';
import { startWebUiPoller } from '../../flink/web-ui-poller';
import { ROOT } from '../../support/paths';

let cluster: FlinkCluster;

test.beforeAll(() => {
  cluster = readFlinkCluster();
});

const flinkGet = <T>(url: string): Promise<T> => getFromFlink<T>(cluster, url);

/** Flink's own backpressure level per vertex and Data Skew of records in, now. */
async function flinkNow(): Promise<Map<string, { level: string; dataSkew: number }>> {
  const job = await flinkGet<{ vertices: Array<{ id: string }> }>(`/jobs/${cluster.jobId}`);
  const out = new Map<string, { level: string; dataSkew: number }>();
  for (const v of job.vertices) {
    const [bp, metrics] = await Promise.all([
      flinkGet<{ backpressureLevel?: string }>(`/jobs/${cluster.jobId}/vertices/${v.id}/backpressure`),
      flinkGet<Array<{ id: string; skew: number }>>(`/jobs/${cluster.jobId}/vertices/${v.id}/subtasks/metrics?get=numRecordsIn&agg=skew`),
    ]);
    out.set(v.id, { level: bp.backpressureLevel ?? 'unknown', dataSkew: metrics[0]?.skew ?? Number.NaN });
  }
  return out;
}

test('@every-version from the first second on a job not yet watched: no green card while Flink says HIGH, the first look within one refresh, Flink\'s Data Skew on the graph', async ({ app, page }) => {
  test.setTimeout(180_000);
  const poller = startWebUiPoller(cluster.restUrl, cluster.jobId);
  try {
    const form = await app.openAddCluster();
    await form.fill({ name: 'truth', url: cluster.restUrl });
    await form.save();
    const clusterPage = await form.openSavedCluster();
    const opened = Date.now();
    const graph = await clusterPage.openJob(cluster.jobId);
    const diagnosis = new DiagnosisPanel(page);

    // Within one refresh of the page (5 s, and a margin for the first render), a finding that rests on Flink's figures.
    await expect(diagnosis.finding).toHaveAttribute('data-severity', /^(critical|warning)$/, { timeout: 10_000 });
    const firstAfterMs = Date.now() - opened;
    expect(firstAfterMs, 'the first look came within one refresh').toBeLessThan(10_000);
    await expect(diagnosis.basis).toHaveAttribute('data-basis', /flink-now|window/);
    await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots', `first-look-${cluster.version}.png`) });

    // For the next 30 s, watched every second beside Flink's own answer: never "all clear" while a vertex is HIGH.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      const [severity, flink] = await Promise.all([diagnosis.finding.getAttribute('data-severity'), flinkNow()]);
      const high = [...flink.values()].some((v) => v.level === 'high');
      if (high) expect(severity, `at ${Math.round((Date.now() - opened) / 1000)} s, Flink says HIGH`).not.toBe('ok');
      await page.waitForTimeout(1_000);
    }

    // The graph's Data Skew equals Flink's for the same moment: Flink's read on both sides of the node's, unchanged.
    await expect(async () => {
      const before = await flinkNow();
      const shown = await Promise.all([...before.keys()].map(async (id) => [id, await graph.vertex(id).getAttribute('data-data-skew')] as const));
      const after = await flinkNow();
      expect(JSON.stringify([...before])).toBe(JSON.stringify([...after]));
      for (const [id, value] of shown) {
        const flink = before.get(id)!;
        if (value === '' || value === null) continue; // parallelism 1: no Data Skew shown
        expect(Number(value)).toBeCloseTo(flink.dataSkew, 6);
      }
      expect(shown.some(([, v]) => v !== '' && v !== null)).toBe(true);
    }).toPass({ timeout: 60_000, intervals: [2_000] });
    await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots', `truth-${cluster.version}.png`) });
  } finally {
    await poller.stop();
  }
});
