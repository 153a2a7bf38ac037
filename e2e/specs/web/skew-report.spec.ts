import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { assignKeyToParallelOperator } from '../../../engine/analysis/key-groups/key-group-range-assignment';
import { testIds } from '../../../renderer/testIds';
import { DiagnosisPanel } from '../../pages/DiagnosisPanel';
import { expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';
import { HOT_TENANT_AT_ONCE, writeHotTenantAtOnce } from '../../support/scenarios';

const SHOTS = path.join(ROOT, 'test-results/screenshots');

test.describe('the built-in local engine (hot-tenant, acme hot from the start)', () => {
  test.beforeAll(writeHotTenantAtOnce);
  test.use({ withLocalEngine: true, localEngineScenario: HOT_TENANT_AT_ONCE });

  test('exports the HTML skew report, which opens with the network blocked: the root cause and its charts; saves the incident bundle, with the flame graph and log lines asked for', async ({ app, consoleProcess, page, context }) => {
    test.setTimeout(180_000);
    const token = consoleProcess.localEngineToken!;
    const { jobs } = (await (await fetch(`${consoleProcess.localEngineUrl}/jobs/overview`, { headers: { authorization: `Bearer ${token}` } })).json()) as { jobs: Array<{ jid: string }> };
    const cluster = await app.openCluster('Local engine');
    const graph = await cluster.openJob(jobs[0].jid);
    await graph.expectGraphShown();
    // A finding means the history holds samples of the job: the report reads the same history.
    const diagnosis = new DiagnosisPanel(page);
    await expect(diagnosis.finding).toHaveAttribute('data-kind', /.+/, { timeout: 60_000 });
    await expect.poll(async () => Number(/(\d+) samples/.exec((await diagnosis.finding.textContent()) ?? '')?.[1] ?? 0), { timeout: 60_000 }).toBeGreaterThanOrEqual(3);

    await page.getByTestId(testIds.exports.reportMenu).locator('summary').click();
    await page.getByTestId(testIds.exports.reportFormat).selectOption('html');
    await page.screenshot({ path: path.join(SHOTS, 'skew-report-menu.png') });
    const downloading = page.waitForEvent('download');
    await page.getByTestId(testIds.exports.skewReport).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^skew-report-gatewaymeter-${jobs[0].jid.slice(0, 8)}-\\d{8}-\\d{6}\\.html$`));
    await expect(page.getByTestId(testIds.toasts.toast)).toContainText('Skew report finished');
    const html = readFileSync(await download.path(), 'utf8');

    // A new page, every request refused: the report needs none.
    const report = await context.newPage();
    const requests: string[] = [];
    await report.route('**/*', (route) => {
      requests.push(route.request().url());
      return route.abort();
    });
    await report.setContent(html);
    const sentence = report.getByTestId('report-finding').locator('.sentence');
    await expect(sentence).toHaveText(/\S.*\.$/);
    await expect(report.locator('h1')).toContainText('Skew report: gatewaymeter');
    const heatmap = report.getByTestId('report-heatmap');
    await expect(heatmap.locator('text.label').filter({ hasText: 'tenant-cost' })).toHaveCount(1);
    // 3 vertices: 4 + 4 + 32 subtask cells, and the legend's 5 swatches.
    await expect(heatmap.locator('rect')).toHaveCount(4 + 4 + 32 + 5);
    await expect(report.getByTestId('report-vertex-bars').locator('rect')).toHaveCount(6);
    await expect(report.getByTestId('report-checkpoint-chart')).toBeVisible();
    const box = await heatmap.boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    expect(requests).toEqual([]);
    await report.screenshot({ path: path.join(SHOTS, 'skew-report-html.png'), fullPage: false });

    // The incident bundle of the same window: one gzipped JSON file with the samples, the graph and the report.
    const saving = page.waitForEvent('download');
    await page.getByTestId(testIds.exports.incidentBundle).click();
    const bundleDownload = await saving;
    expect(bundleDownload.suggestedFilename()).toMatch(new RegExp(`^incident-gatewaymeter-${jobs[0].jid.slice(0, 8)}-\\d{8}-\\d{6}\\.flinkops-bundle$`));
    const bundle = JSON.parse(gunzipSync(readFileSync(await bundleDownload.path())).toString('utf8')) as { jobId: string; samples: unknown[]; jobGraph: { vertices: unknown[] } | null; report: { job: { id: string } } };
    expect(bundle.jobId).toBe(jobs[0].jid);
    expect(bundle.samples.length).toBeGreaterThanOrEqual(3);
    expect(bundle.jobGraph?.vertices).toHaveLength(3);
    expect(bundle.report.job.id).toBe(jobs[0].jid);

    // Asked for, the flame graph and log lines of the subtask the finding names (acme's): the engine has no flame
    // graphs, and the manifest says so; its log lines are the engine's.
    await diagnosis.waitForFinding('skew', 120_000);
    await page.getByTestId(testIds.exports.attachFlameGraph).check();
    await page.getByTestId(testIds.exports.attachLogExcerpt).check();
    const attaching = page.waitForEvent('download');
    await page.getByTestId(testIds.exports.incidentBundle).click();
    type Manifest = { attachments: Array<{ name: string; included: boolean; description: string }> };
    type Finding = { vertexName: string | null; subtasks: Array<{ subtask: number }> };
    const withAttachments = JSON.parse(gunzipSync(readFileSync(await (await attaching).path())).toString('utf8')) as { manifest: Manifest; report: { finding: Finding } };
    const [flame, log] = withAttachments.manifest.attachments;
    expect(flame).toMatchObject({ name: 'flameGraph', included: false, description: expect.stringContaining('Not included: The local engine has no flame graphs') });
    const hot = withAttachments.report.finding.subtasks[0].subtask;
    expect(hot).toBe(assignKeyToParallelOperator('acme', 128, 32));
    expect(log).toMatchObject({ name: 'logExcerpt', included: true, description: expect.stringContaining(`The lines of tenant-cost -> Sink: usd-sink (${hot + 1}/32)#0 in TaskManager `) });

    // The HTML report with them: their sections beside the finding.
    const reporting = page.waitForEvent('download');
    await page.getByTestId(testIds.exports.skewReport).click();
    const withSections = readFileSync(await (await reporting).path(), 'utf8');
    expect(withSections).toContain('<section data-testid="report-flame-graph" data-included="false"><h2>Flame graph</h2><p>Not included: The local engine has no flame graphs');
    expect(withSections).toContain('data-testid="report-log-excerpt"');
  });
});
