import type { Page } from '@playwright/test';
import path from 'node:path';
import type { JobAdvice } from '../../../engine/contracts/advice';
import type { Rehearsal } from '../../../engine/contracts/rehearsal';
import { formatRate } from '../../../renderer/components/format';
import { runCli } from '../../../engine/cli/testing/run-cli';
import { testIds } from '../../../renderer/testIds';
import { AdvicePanel } from '../../pages/AdvicePanel';
import { DiagnosisPanel } from '../../pages/DiagnosisPanel';
import { expect, test } from '../../support/console';
import { flinkKeyGroupOf, flinkSubtaskOf } from '../../support/flinkKeyGroups';
import { ROOT } from '../../support/paths';

const SHOTS = path.join(ROOT, 'test-results/screenshots');

/** The advice the page got from the engine: the bridge's answer to its `advice.advise` call. */
async function adviceAnswer(page: Page, ask: () => Promise<void>): Promise<JobAdvice> {
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/rpc') && (r.request().postDataJSON() as { call?: string } | null)?.call === 'advice.advise');
  await ask();
  const body = (await (await answered).json()) as { ok: boolean; value: JobAdvice };
  expect(body.ok).toBe(true);
  return body.value;
}

const ACME_RECORDS_PER_SECOND = 400;
const BUCKETS = 8;

const busy = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms/s`;
const ratio = (n: number | null | undefined) => (n == null ? '—' : `${n.toFixed(2)}×`);

test.describe('the built-in local engine (hot-tenant)', () => {
  test.use({ withLocalEngine: true });

  test('from the skew finding and the Skew tab, the Advice panel shows the service\u2019s salting for acme beside the rescale, placed as Flink places keys', async ({ app, consoleProcess, page }) => {
    test.setTimeout(480_000);
    const token = consoleProcess.localEngineToken!;
    const get = async <T,>(p: string): Promise<T> => (await (await fetch(`${consoleProcess.localEngineUrl}${p}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;
    const { jobs } = await get<{ jobs: Array<{ jid: string }> }>('/jobs/overview');
    const jobId = jobs[0].jid;
    const { vertices } = await get<{ vertices: Array<{ id: string; name: string; parallelism: number; maxParallelism: number }> }>(`/jobs/${jobId}`);
    const tenantCost = vertices.find((v) => v.name.startsWith('tenant-cost'))!;

    const cluster = await app.openCluster('Local engine');
    const graph = await cluster.openJob(jobId);
    await graph.expectGraphShown();
    const diagnosis = new DiagnosisPanel(page);
    await diagnosis.waitForFinding('skew', 150_000);

    // One click from the finding: the panel asks for the key it does not know, and says why it cannot advise without it.
    const advice = new AdvicePanel(page);
    await advice.openFromFinding();
    await expect(advice.status).toHaveText(/^Give the hot key/);
    await advice.panel.getByRole('button', { name: 'Advise' }).click();
    await expect(advice.error).toContainText('Give the hot key');

    // acme's demand in the scenario: 40% of 1,000 requests/s (its subtask lets only 250 through). By the rule, the
    // buckets depend on the capacity the history's last minutes show (it falls to 250 records/s as the saturation fills
    // them): whatever the engine answers now is what the panel says.
    const byRule = await adviceAnswer(page, () => advice.advise('acme', { rate: ACME_RECORDS_PER_SECOND }));
    await advice.waitForAdvice();
    await expect(advice.salting).toHaveAttribute('data-verdict', byRule.salting.verdict);
    await expect(advice.salting).toHaveAttribute('data-buckets', String(byRule.salting.buckets ?? ''));
    await expect(advice.saltingSentence).toHaveText(byRule.salting.sentence);
    if (byRule.salting.verdict === 'salt') expect(byRule.salting.perBucketRecordsPerSecond!).toBeLessThan(byRule.salting.capacity!.recordsPerSecond);

    // Eight buckets, as the course's example: about 7 distinct subtasks of 32, said rather than an even spread promised.
    const answer = await adviceAnswer(page, () => advice.advise('acme', { rate: ACME_RECORDS_PER_SECOND, buckets: BUCKETS }));
    await advice.waitForAdvice();
    const s = answer.salting;
    expect(s).toMatchObject({ verdict: 'salt', buckets: BUCKETS });
    // The panel names the vertex of the finding it was opened from.
    expect(answer).toMatchObject({ vertexId: tenantCost.id, basis: { vertex: 'option' } });
    expect(s.perBucketRecordsPerSecond! * s.buckets!).toBeCloseTo(ACME_RECORDS_PER_SECOND, 6);
    expect(s.subtask).toBe(flinkSubtaskOf('acme', tenantCost.maxParallelism, tenantCost.parallelism));

    // The panel's figures are the engine's answer, only formatted.
    await expect(advice.salting).toHaveAttribute('data-buckets', String(s.buckets));
    await expect(advice.saltingSentence).toHaveText(s.sentence);
    const listed = await advice.saltedKeys();
    expect(listed).toEqual(s.saltedKeys.map((k) => ({ key: k.key, keyGroup: k.keyGroup, subtask: k.subtask })));
    // acme#0..N-1 where Flink puts them, computed here independently of the engine.
    expect(listed.map((k) => k.key)).toEqual(Array.from({ length: s.buckets! }, (_, i) => `acme#${i}`));
    for (const k of listed) {
      expect(k.keyGroup, k.key).toBe(flinkKeyGroupOf(k.key, tenantCost.maxParallelism));
      expect(k.subtask, k.key).toBe(flinkSubtaskOf(k.key, tenantCost.maxParallelism, tenantCost.parallelism));
    }
    const distinct = new Set(listed.map((k) => k.subtask)).size;
    expect(s.distinctSubtasks).toBe(distinct);
    await expect(advice.spread).toHaveAttribute('data-distinct', String(distinct));
    await expect(advice.spread).toHaveAttribute('data-expected', String(s.expectedDistinctSubtasks));
    await expect(advice.spread).toContainText(`${listed.length} salted keys over ${tenantCost.parallelism} subtasks: ${distinct} distinct subtask`);
    for (const p of s.predicted.filter((x) => x.saltedKeys.length > 0)) {
      const cells = await advice.predictedRow(p.subtask);
      expect(cells[0]).toBe(String(p.subtask));
      expect(cells[1]).toBe(p.saltedKeys.join(', '));
      expect(cells[3]).toBe(busy(p.busyTimeMsPerSecond));
    }
    await expect(advice.busyMaxOverMean).toContainText(`${ratio(s.before.maxOverMean)} now (max ${busy(s.before.max)}) → ${ratio(s.after?.maxOverMean)} after`);
    expect(s.after!.maxOverMean!).toBeLessThan(s.before.maxOverMean!);
    await expect(advice.costs.locator('li')).toHaveText(s.costs);
    await expect(advice.rescaleSentence).toHaveText(answer.rescale.sentence);
    for (const plan of answer.rescale.plans) {
      const key = plan.hotKeys.find((k) => k.key === 'acme')!;
      await expect(advice.rescalePlan(plan.to)).toHaveAttribute('data-key-subtask', String(key.subtaskAfter));
      expect(key.subtaskAfter).toBe(flinkSubtaskOf('acme', tenantCost.maxParallelism, plan.to));
    }
    await page.screenshot({ path: path.join(SHOTS, 'advice-panel.png'), fullPage: false });

    // Rehearse it before touching production: the twin of the job as it runs must be production (its hot subtask, its
    // max/mean within 20%) before the salted twin counts as a prediction; the page shows the service's figures.
    // Production is read as it is: while acme's subtask still fills its backlog, the twin of its steady state does not
    // match it, and the panel says so rather than predict. Once it is saturated, the twin matches.
    await expect.poll(async () => Math.max(...(await get<Array<{ id: string; max?: number }>>(`/jobs/${jobId}/vertices/${tenantCost.id}/subtasks/metrics?get=busyTimeMsPerSecond&agg=max`)).map((m) => m.max ?? 0)), { timeout: 120_000 }).toBeGreaterThan(950);
    const result = advice.rehearsal.getByTestId(testIds.rehearsal.result);
    let rehearsal: Rehearsal | undefined;
    await expect(async () => {
      const rehearsed = page.waitForResponse((r) => r.url().endsWith('/api/rpc') && (r.request().postDataJSON() as { call?: string } | null)?.call === 'rehearsal.rehearse', { timeout: 150_000 });
      await advice.rehearsal.getByTestId(testIds.rehearsal.salt).click();
      rehearsal = ((await (await rehearsed).json()) as { ok: boolean; value: Rehearsal }).value;
      await expect(result).toHaveAttribute('data-matches', String(rehearsal.match.matches), { timeout: 5_000 });
      expect(rehearsal.match.matches, rehearsal.sentence).toBe(true);
    }).toPass({ timeout: 200_000 });
    if (!rehearsal) throw new Error('no rehearsal');
    expect(rehearsal).toMatchObject({ key: 'acme', proposal: { kind: 'salt', buckets: BUCKETS }, baseline: { hotSubtask: s.subtask } });
    await expect(advice.rehearsal.getByTestId(testIds.rehearsal.sentence)).toHaveText(rehearsal.sentence);
    // The sentence says where the salted keys land, collisions included, rather than promise an even spread.
    expect(rehearsal.sentence).toContain(rehearsal.placement!.sentence);
    expect(rehearsal.placement!.distinctSubtasks).toBe(distinct);
    // What the salted twin predicts: the skew at most half the baseline's, no less throughput (how much more depends on
    // the demand read from the job at that moment: the 1.5× of a steady saturation is rehearse-command.test.ts's).
    expect(rehearsal.proposed!.busy.maxOverMean!).toBeLessThanOrEqual(rehearsal.baseline.busy.maxOverMean! / 2);
    expect(rehearsal.proposed!.throughputRecordsPerSecond).toBeGreaterThanOrEqual(rehearsal.baseline.throughputRecordsPerSecond * 0.98);
    const throughputRow = advice.rehearsal.getByTestId(testIds.rehearsal.table).locator('tbody tr').first().locator('td');
    await expect(throughputRow).toHaveText([rehearsal.observed.throughputRecordsPerSecond, rehearsal.baseline.throughputRecordsPerSecond, rehearsal.proposed!.throughputRecordsPerSecond].map(formatRate));
    await advice.rehearsal.screenshot({ path: path.join(SHOTS, 'rehearsal-panel.png') });

    // `flink-ops advise --json` over the same history, with the panel's buckets: the same placement and costs; the load
    // figures move a little with each sample the console takes meanwhile.
    const cli = await runCli(['advise', '--url', consoleProcess.localEngineUrl!, '--job', jobId, '--vertex', tenantCost.id, '--key', 'acme', '--rate', String(ACME_RECORDS_PER_SECOND), '--buckets', String(s.buckets), '--data-dir', consoleProcess.dataDir, '--json'], {
      env: { ...process.env, FLINK_OPS_TOKEN: token },
    });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    const fromCli = JSON.parse(cli.stdout) as JobAdvice;
    expect(fromCli).toMatchObject({ vertexId: answer.vertexId, basis: { vertex: 'option' } });
    expect(fromCli.salting).toMatchObject({ verdict: s.verdict, buckets: s.buckets, saltedKeys: s.saltedKeys, distinctSubtasks: s.distinctSubtasks, expectedDistinctSubtasks: s.expectedDistinctSubtasks, costs: s.costs });
    // The load figures: between the engine's answers just before and just after the CLI's (the window slides
    // meanwhile), when all three read the history (the service measures now when the history's newest sample lacks
    // the vertex's subtasks: then the figures are of other seconds).
    const next = await adviceAnswer(page, () => advice.advise('acme', { rate: ACME_RECORDS_PER_SECOND, buckets: BUCKETS }));
    if ([answer, fromCli, next].every((a) => a.basis.load === 'history')) {
      const bounds = [s.before.maxOverMean!, next.salting.before.maxOverMean!];
      expect(fromCli.salting.before.maxOverMean!).toBeGreaterThanOrEqual(Math.min(...bounds) * 0.9);
      expect(fromCli.salting.before.maxOverMean!).toBeLessThanOrEqual(Math.max(...bounds) * 1.1);
    }

    // From the Skew tab's key lookup: the panel opens with the key filled in and asks at once.
    await advice.panel.getByTestId(testIds.advice.close).click();
    await expect(advice.panel).toHaveCount(0);
    await diagnosis.openSkewTab();
    const again = await adviceAnswer(page, () => advice.openFromKeyLookup('acme'));
    await advice.waitForAdvice();
    await expect(advice.panel.getByLabel('Hot key')).toHaveValue('acme');
    expect(again).toMatchObject({ basis: { rate: 'estimated' }, salting: { key: 'acme', keyGroup: s.keyGroup, subtask: s.subtask } });
    await expect(advice.salting).toHaveAttribute('data-verdict', again.salting.verdict);
    await expect(advice.saltingSentence).toHaveText(again.salting.sentence);
  });
});
