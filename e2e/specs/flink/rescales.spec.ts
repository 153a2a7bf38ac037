import { formatDuration } from '../../../renderer/components/format';
import { testIds } from '../../../renderer/testIds';
import { OperationsPanel } from '../../pages/OperationsPanel';
import { expect, test } from '../../support/console';
import { type FlinkCluster, getFromFlink, readFlinkCluster } from '../../support/flinkCluster';

/**
 * The Rescales tab against a real Flink. With a rescale history (2.3+, adaptive scheduler, size > 0): a job of this
 * spec's own (parallelism 1, from the uploaded test jar: the shared test job is never touched) is rescaled in place to
 * 2 through the console; its Rescales tab shows Flink's COMPLETED record with each vertex's parallelism before and
 * after as Flink's own `/rescales/details` says, and links to the console's journal entry of it. Without a history,
 * the tab says why and how to turn it on.
 */
let cluster: FlinkCluster;
let ownJobId: string | null = null;

test.beforeAll(() => {
  cluster = readFlinkCluster();
});

test.afterAll(async () => {
  if (ownJobId) await fetch(`${cluster.restUrl}/jobs/${ownJobId}?mode=cancel`, { method: 'PATCH', signal: AbortSignal.timeout(10_000) });
});

const get = <T>(path: string): Promise<T> => getFromFlink<T>(cluster, path);

async function hasRescaleHistory(): Promise<boolean> {
  const response = await fetch(`${cluster.restUrl}/jobs/${cluster.jobId}/rescales/history`, { signal: AbortSignal.timeout(10_000) });
  if (response.status === 404) return false;
  if (!response.ok) throw new Error(`GET /jobs/:id/rescales/history answered ${response.status}`);
  return true;
}

/** A job of the spec's own at parallelism 1, once 2 slots are free (the cluster's spare slots are shared: wait politely). */
async function runOwnJob(): Promise<string> {
  await expect.poll(async () => (await get<{ 'slots-available': number }>('/overview'))['slots-available'], { timeout: 300_000, intervals: [5_000] }).toBeGreaterThanOrEqual(2);
  const response = await fetch(`${cluster.restUrl}/jars/${cluster.jarId}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ programArgsList: ['--rate', '200', '--hot-share', '0'], parallelism: 1 }),
    signal: AbortSignal.timeout(120_000),
  });
  const body = (await response.json()) as { jobid?: string; errors?: string[] };
  if (!body.jobid) throw new Error(`POST /jars/:jarid/run answered ${response.status}: ${(body.errors ?? []).join(' ').slice(0, 300)}`);
  ownJobId = body.jobid;
  await expect
    .poll(async () => {
      const job = await get<{ state: string; vertices: Array<{ status: string }> }>(`/jobs/${body.jobid}`);
      return job.state === 'RUNNING' && job.vertices.every((v) => v.status === 'RUNNING');
    }, { timeout: 120_000, intervals: [2_000] })
    .toBe(true);
  return body.jobid;
}

interface FlinkRescale {
  rescaleUuid: string;
  terminalState: string | null;
  vertices: Record<string, { jobVertexId: string; preRescaleParallelism: number | null; postRescaleParallelism: number | null }>;
}

test('@every-version the Rescales tab: Flink\'s record of the console\'s in-place rescale, as /rescales/details has it, linked to its journal entry; or why there is none', async ({ app, page }) => {
  test.setTimeout(600_000);
  const withHistory = await hasRescaleHistory();
  const jobId = withHistory ? await runOwnJob() : cluster.jobId;

  const form = await app.openAddCluster();
  await form.fill({ name: 'test-flink', url: cluster.restUrl });
  await form.save();
  const clusterPage = await form.openSavedCluster();
  await clusterPage.openJob(jobId);
  const rescalesTab = page.getByTestId(testIds.jobTabs.tab('rescales'));

  if (!withHistory) {
    await rescalesTab.click();
    const why = page.getByTestId(testIds.rescales.unavailable);
    await expect(why).toContainText('keeps no rescale history');
    await expect(why).toContainText('`web.adaptive-scheduler.rescale-history.size` above 0');
    await app.expectNotBlank();
    return;
  }

  // The console's rescale in place: every vertex 1 → 2, confirmed, its outcome from Flink's record.
  const ops = new OperationsPanel(page);
  await ops.open();
  await ops.action('rescale').click();
  await ops.dialog.getByLabel('New parallelism').fill('2');
  await ops.dialog.getByRole('button', { name: 'Plan the rescale' }).click();
  // The plan measures the job's load first (a few of Flink's metric refreshes).
  const rescale = ops.dialog.getByRole('button', { name: 'Rescale…' });
  await expect(rescale).toBeEnabled({ timeout: 120_000 });
  await rescale.click();
  await ops.confirmButton().click();
  await ops.expectOutcome('succeeded', 300_000);
  const source = ops.root.getByTestId(testIds.operations.outcomeSource);
  await expect(source).toHaveAttribute('data-source', 'rescale-history');
  const uuid = /rescale ([0-9a-f]{32})/.exec((await source.textContent()) ?? '')?.[1];
  expect(uuid, 'the outcome names Flink\'s rescale UUID').toBeDefined();

  await rescalesTab.click();
  const row = page.getByTestId(testIds.rescales.row(uuid!));
  await expect(row).toHaveAttribute('data-state', 'COMPLETED', { timeout: 30_000 });
  // Flink's own record at the same moment: each vertex's parallelism before and after, as the row shows it.
  const details = await get<FlinkRescale>(`/jobs/${jobId}/rescales/details/${uuid}`);
  expect(details.terminalState).toBe('COMPLETED');
  const vertices = Object.values(details.vertices);
  expect(vertices.length).toBeGreaterThan(0);
  for (const v of vertices) {
    expect([v.preRescaleParallelism, v.postRescaleParallelism]).toEqual([1, 2]);
    const shown = row.getByTestId(testIds.rescales.vertex(uuid!, v.jobVertexId));
    await expect(shown).toHaveAttribute('data-before', String(v.preRescaleParallelism));
    await expect(shown).toHaveAttribute('data-after', String(v.postRescaleParallelism));
    await expect(shown).toContainText('1 → 2');
  }
  // The scheduler's waits as Flink's /rescales/config has them.
  const config = await get<{ executingCooldownTimeoutInMillis: number; executingResourceStabilizationTimeoutInMillis: number }>(`/jobs/${jobId}/rescales/config`);
  await expect(page.getByTestId(testIds.rescales.config)).toContainText(
    `A rescale waits at least ${formatDuration(config.executingCooldownTimeoutInMillis)} after the last one (cooldown) and up to ${formatDuration(config.executingResourceStabilizationTimeoutInMillis)} for resources to stabilize`,
  );
  await expect(page.getByTestId(testIds.rescales.summary).locator('tr[data-kind="completed"] td').first()).not.toHaveText('0');

  await ops.screenshot('rescales-tab.png', page.getByTestId(testIds.rescales.panel));

  // The link lands on the Operations tab with the console's journal entry of this rescale marked.
  const link = row.getByTestId(testIds.rescales.journalLink(uuid!));
  const entryId = /entry=([^&]+)/.exec((await link.getAttribute('href')) ?? '')?.[1];
  expect(entryId).toBeDefined();
  await link.click();
  const marked = ops.journal.getByTestId(testIds.operations.journalRow(decodeURIComponent(entryId!)));
  await expect(marked).toHaveAttribute('data-marked', 'true');
  await expect(marked).toContainText('Rescale');
  await expect(marked).toHaveAttribute('data-state', 'succeeded');
  await app.expectNotBlank();
});
