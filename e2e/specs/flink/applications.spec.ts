import { testIds } from '../../../renderer/testIds';
import { cancelQuietly, runTestJob } from '../../flink/testJobs';
import { expect, test } from '../../support/console';
import { type FlinkCluster, getFromFlink, readFlinkCluster } from '../../support/flinkCluster';

/**
 * Flink 2.3's applications in the UI on the real test cluster: the cluster page lists them (state, jobs, times), the
 * job page links to its application, and Cancel application, confirmed with which job ends and that its state since
 * the last checkpoint is lost, cancels the spec's own job (never the cluster's shared one). Before 2.3 the cluster
 * page says the cluster has no applications.
 */
let cluster: FlinkCluster;
const started: string[] = [];

test.beforeAll(() => {
  cluster = readFlinkCluster();
});

test.afterAll(async () => {
  for (const jobId of started) await cancelQuietly(cluster, jobId);
});

const hasApplications = () => !/^1\.|^2\.[0-2]\./.test(cluster.version);

test('the cluster page lists applications; Cancel application is confirmed with its impact and cancels the job', async ({ app, page }) => {
  test.setTimeout(420_000);
  const form = await app.openAddCluster();
  await form.fill({ name: 'test-flink', url: cluster.restUrl });
  await form.save();
  const clusterPage = await form.openSavedCluster();
  await clusterPage.expectJob(cluster.jobId, cluster.jobName, 'RUNNING');
  const panel = page.getByTestId(testIds.applications.panel);

  if (!hasApplications()) {
    await expect(panel.getByTestId(testIds.applications.unsupported)).toHaveText('This cluster has no applications (Flink < 2.3): its jobs are listed on their own.');
    return;
  }

  // The shared cluster's free slots are shared by other suites: wait for one.
  await expect(async () => expect((await getFromFlink<{ 'slots-available': number }>(cluster, '/overview'))['slots-available']).toBeGreaterThanOrEqual(1)).toPass({ timeout: 300_000, intervals: [2_000] });
  const jobId = await runTestJob(cluster, 1);
  started.push(jobId);
  const { 'application-id': applicationId } = await getFromFlink<{ 'application-id': string }>(cluster, `/jobs/${jobId}`);

  const row = panel.getByTestId(testIds.applications.row(applicationId));
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(row).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000, intervals: [2_000] });
  await expect(row.getByTestId(testIds.applications.state)).toHaveText('RUNNING');
  await expect(row).toContainText('SingleJobApplication(gatewaymeter-test)');
  await expect(row).toContainText('1 running');

  // The job page links to its application.
  await clusterPage.openJob(jobId);
  await page.getByTestId(testIds.applications.jobLink).click();
  const appPage = page.getByTestId(testIds.applications.page);
  await expect(appPage.getByTestId(testIds.applications.jobs)).toContainText(jobId);
  await expect(appPage.getByTestId(testIds.applications.exceptions)).toContainText('No exceptions.');

  await page.getByTestId(testIds.applications.cancel).click();
  const confirm = page.getByTestId(testIds.operations.confirm);
  await expect(confirm).toContainText(`Its job ends: gatewaymeter-test (${jobId}, RUNNING).`);
  await expect(confirm).toContainText('the state built up since the last completed checkpoint is lost. To keep it, stop the job with a savepoint first.');
  await page.getByTestId(testIds.operations.confirmButton).click();

  const outcome = page.getByTestId(testIds.applications.outcome).getByTestId(testIds.operations.status);
  await expect(outcome).toHaveAttribute('data-state', 'succeeded', { timeout: 120_000 });
  await expect(page.getByTestId(testIds.applications.page).getByTestId(testIds.applications.state).first()).toHaveText('CANCELED', { timeout: 30_000 });
  expect((await getFromFlink<{ state: string }>(cluster, `/jobs/${jobId}`)).state).toBe('CANCELED');
  await expect(page.getByTestId(testIds.applications.cancel)).toBeDisabled();
  // The shared job runs on.
  expect((await getFromFlink<{ state: string }>(cluster, `/jobs/${cluster.jobId}`)).state).toBe('RUNNING');
});
