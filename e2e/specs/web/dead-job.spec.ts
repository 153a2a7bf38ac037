import { execFile } from 'node:child_process';
import path from 'node:path';
import { startLocalEngineProcess, type LocalEngineProcess } from '../../../engine/app/local-engine-process';
import { testIds } from '../../../renderer/testIds';
import { expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';

/**
 * A job that fails for good shows as dead: a local engine without checkpoints (restart strategy none, Flink 2.x's
 * default then), added as any cluster would be, loses a TaskManager (`flink-ops engine-kill-tm`). The job page says
 * FAILED prominently, shows no rate anywhere on the graph, and the Exceptions tab says why.
 */
const BIN = path.join(ROOT, 'engine/cli/flink-ops.mjs');
let engine: LocalEngineProcess;

test.beforeAll(async () => {
  engine = await startLocalEngineProcess({ binPath: BIN, args: [] });
});

test.afterAll(async () => {
  await engine?.stop();
});

/** The engine answers only with its per-launch token (as every engine the app starts). */
async function get<T>(url: string): Promise<T> {
  return (await (await fetch(url, { headers: { authorization: `Bearer ${engine.token}` } })).json()) as T;
}

function killTaskManager(tm: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, FLINK_OPS_TOKEN: engine.token };
    execFile(process.execPath, [BIN, 'engine-kill-tm', '--url', engine.url, '--tm', tm], { timeout: 30_000, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

test('a job that failed for good: its state said prominently, no rates on the graph, and the Exceptions tab says why', async ({ app, page }) => {
  const { jobs } = await get<{ jobs: { jid: string; name: string }[] }>(`${engine.url}/jobs/overview`);
  const job = jobs[0];
  const form = await app.openAddCluster();
  await form.fill({ name: 'no checkpoints', url: engine.url, auth: { kind: 'bearer', token: engine.token } });
  await form.save();
  const cluster = await form.openSavedCluster();
  await cluster.expectJob(job.jid, job.name, 'RUNNING');

  const { taskmanagers } = await get<{ taskmanagers: { id: string; freeSlots: number; slotsNumber: number }[] }>(`${engine.url}/taskmanagers`);
  const victim = taskmanagers.find((tm) => tm.freeSlots < tm.slotsNumber)!;
  const killed = await killTaskManager(victim.id);
  expect(killed.stderr).toBe('');
  expect(killed.stdout).toContain(`TaskManager ${victim.id} killed. Job ${job.name} (${job.jid}) fails for good: its restart strategy is none (restart deactivated).`);
  await expect(cluster.jobRow(job.jid).getByTestId(testIds.jobs.state)).toHaveText('FAILED', { timeout: 30_000 });

  const graph = await cluster.openJob(job.jid);
  await graph.expectGraphShown();
  await expect(graph.state).toHaveText('FAILED');
  const notice = page.getByTestId(testIds.jobGraph.notRunning);
  await expect(notice).toContainText(/^This job FAILED at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\. It processes nothing any more: the graph shows no rates\./);
  await expect(graph.vertices()).toHaveCount(3);
  for (const vertex of await graph.vertices().all()) {
    await expect(vertex.getByTestId(testIds.jobGraph.vertexNoRates)).toHaveText('no rates: the job is FAILED');
    await expect(vertex).not.toContainText(/\/s|busy max|BP (OK|LOW|HIGH)|skew max\/avg/);
    await expect(vertex).toHaveAttribute('data-busy', '');
    await expect(vertex).toHaveAttribute('data-backpressure', '');
  }

  // Why: the Exceptions tab, from the banner's link.
  await notice.getByRole('link', { name: 'See the exceptions for why.' }).click();
  await expect(page).toHaveURL(/tab=exceptions/);
  const root = page.getByTestId(testIds.exceptions.entry(0));
  await expect(root).toContainText('Root exception');
  await expect(root).toContainText(`TaskManager with id ${victim.id} is no longer reachable.`);
  await expect(root).toContainText('ResourceManagerException');
  await expect(root).toContainText('global failure (no task)');
  await expect(root.locator('time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  // The stack trace is folded until asked for.
  const stack = root.getByTestId(testIds.exceptions.stack);
  await expect(stack.locator('pre')).toBeHidden();
  await stack.locator('summary').click();
  await expect(stack.locator('pre')).toContainText('at org.apache.flink.runtime.resourcemanager.ResourceManager$TaskManagerHeartbeatListener.notifyTargetUnreachable');
  await expect(page.getByTestId(testIds.exceptions.entry(1))).toHaveCount(0);
  await app.expectNotBlank();
});
