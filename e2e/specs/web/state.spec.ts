import path from 'node:path';
import { startLocalEngineProcess } from '../../../engine/app/local-engine-process';
import { formatBytes } from '../../../renderer/components/format';
import { testIds } from '../../../renderer/testIds';
import { StateTab } from '../../pages/StateTab';
import { engineJson, expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';

/**
 * The State tab on the bundled local engine, on state-broadcast (resources/scenarios/state-broadcast.yaml): the same
 * 1.96 MB blocklist on each of blocklist-filter's 4 subtasks (suspect D), beside the keyed failed-logins counter.
 * Each scenario's suspect through the same analysis: engine/cli/state-command.test.ts and state-scenarios.test.ts.
 */
const SCENARIO = { name: 'state-broadcast', job: 'failed-logins', statefulVertex: 'blocklist-filter', keyedVertex: 'failed-logins', suspect: 'D' };

test.use({ withLocalEngine: true, localEngineScenario: SCENARIO.name });

const SHOTS = path.join(ROOT, 'test-results/screenshots');

interface EngineCheckpoints {
  latest: { completed: { id: number } | null };
}
interface EngineSubtaskStates {
  id: number;
  subtasks: Array<{ index: number; status: string; state_size?: number }>;
}

test('the State tab: the sentence, and each subtask\'s size as the engine reports it for the newest checkpoint; the heatmap opens it', async ({ app, consoleProcess, page }) => {
  test.setTimeout(120_000);
  const { jobs } = await engineJson<{ jobs: { jid: string; name: string }[] }>(consoleProcess, '/jobs/overview');
  const job = jobs.find((j) => j.name === SCENARIO.job)!;
  const { vertices } = await engineJson<{ vertices: Array<{ id: string; name: string; parallelism: number }> }>(consoleProcess, `/jobs/${job.jid}`);
  const vertex = vertices.find((v) => v.name.startsWith(SCENARIO.statefulVertex))!;
  const keyed = vertices.find((v) => v.name.startsWith(SCENARIO.keyedVertex))!;

  const cluster = await app.openCluster('Local engine');
  const graph = await cluster.openJob(job.jid);
  await graph.expectGraphShown();
  const state = await StateTab.open(page);

  // The figure proof: at one moment, the newest completed checkpoint the engine names is the one the tab shows, and
  // every subtask's size is the engine's own state_size for it (poll: a checkpoint may complete in between).
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(state.vertex(vertex.id)).toBeVisible({ timeout: 3_000 });
    const shownCheckpoint = await state.checkpointOf(vertex.id);
    const { latest } = await engineJson<EngineCheckpoints>(consoleProcess, `/jobs/${job.jid}/checkpoints`);
    expect(latest.completed?.id, 'the newest completed checkpoint is the one shown').toBe(shownCheckpoint);
    const truth = await engineJson<EngineSubtaskStates>(consoleProcess, `/jobs/${job.jid}/checkpoints/details/${shownCheckpoint}/subtasks/${vertex.id}`);
    const expected = [...truth.subtasks].sort((a, b) => a.index - b.index).map((s) => formatBytes(s.state_size ?? null));
    expect(expected).toHaveLength(vertex.parallelism);
    expect(await state.subtaskSizes(vertex.id)).toEqual(expected);
    expect(await state.checkpointOf(vertex.id), 'no checkpoint landed while reading').toBe(shownCheckpoint);
  }).toPass({ timeout: 60_000, intervals: [2_000] });

  // The sentence: the scenario's suspect once three checkpoints show the spread, with its evidence and confidence,
  // RocksDB's status, key groups per subtask of the keyed vertex.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(state.suspect).toHaveAttribute('data-suspect', SCENARIO.suspect, { timeout: 3_000 });
  }).toPass({ timeout: 60_000, intervals: [2_000] });
  await expect(state.sentence).toContainText(`Each of the ${vertex.parallelism} subtasks of ${SCENARIO.statefulVertex} holds the same`);
  await expect(state.sentence).toHaveText(/\S.*\.$/);
  await expect(state.confidence).toContainText(/Confidence: (high|medium|low)/);
  await expect(state.rocksdb).toHaveText(/RocksDB|checkpoint/);
  await expect(page.getByTestId(testIds.state.subtaskRow(keyed.id, 0)).locator('td.mono')).toHaveText(/^\d+–\d+$/);
  // The chart draws a line once two checkpoints reported sizes (one arrives every 10 s).
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    expect(Number(await state.chart(vertex.id).getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
  }).toPass({ timeout: 30_000, intervals: [2_000] });
  // A drawn line of at least two points (a flat one, as a broadcast table's, has no height to be "visible").
  await expect(state.chart(vertex.id).locator('.recharts-line-curve').first()).toHaveAttribute('d', /^M[\d.]+,[\d.]+L[\d.]+,[\d.]+/);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await state.panel.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: path.join(SHOTS, 'state-tab.png'), fullPage: false });

  // Bad input says why and keeps the figures; a window change keeps the page.
  await state.apply({ capacity: '8 apples' });
  await expect(state.inputError).toHaveText('A capacity is a size such as 8GiB, 500MiB or a number of bytes, not "8 apples".');
  await expect(state.vertex(vertex.id)).toBeVisible();
  await state.apply({ capacity: '1GiB', keys: '5000' });
  await expect(state.inputError).toHaveCount(0);
  // The key count goes to the largest keyed vertex (the analysis's choice), which says it was entered.
  await expect(state.panel.locator('[data-figure="bytes-per-key"]').filter({ hasText: '5k keys, entered' })).toHaveCount(1);
  await state.chooseWindow('1 h');
  await expect(state.vertex(vertex.id)).toBeVisible();

  // The heatmap's checkpointed-state metric opens the State tab on the vertex shown in its bars.
  await graph.openTab('skew');
  await page.getByLabel('Heatmap metric').selectOption('checkpointedStateBytes');
  const link = page.getByTestId(testIds.state.openFromHeatmap);
  // Once the heatmap has loaded it names the vertex holding the most state (before, "the job").
  await expect(link).toHaveText(/^State of (?!the job ).+ →$/, { timeout: 30_000 });
  const named = /State of (.+) →/.exec((await link.textContent()) ?? '')?.[1];
  await link.click();
  await expect(page).toHaveURL(/tab=state/);
  await expect(page.getByTestId(testIds.jobTabs.tab('state'))).toHaveAttribute('aria-selected', 'true');
  const target = vertices.find((v) => v.name === named);
  expect(target, `the vertex the link names (${named})`).toBeDefined();
  await expect(state.vertex(target!.id)).toHaveAttribute('data-marked', 'true');
});

test.describe('each scenario of the chapter, added like any cluster', () => {
  test.use({ withLocalEngine: false, localEngineScenario: null });

  test('the State tab names each one\'s suspect: a whale key, keys that never expire, raw events (with the key count entered), bounded', async ({ app, page }, testInfo) => {
    test.setTimeout(300_000);
    // Checkpoints every 2 s: the spread shows in seconds, the raw list's bytes per key and the TTL's plateau in ~90 s.
    const cases = [
      { scenario: 'state-whale', suspect: 'A', keys: undefined },
      { scenario: 'state-no-ttl', suspect: 'B', keys: undefined },
      { scenario: 'state-raw-list', suspect: 'C', keys: '2000' },
      { scenario: 'state-ttl', suspect: 'bounded', keys: undefined },
    ];
    const engines = await Promise.all(
      cases.map((c) =>
        startLocalEngineProcess({
          binPath: path.join(ROOT, 'engine/cli/flink-ops.mjs'),
          args: ['--scenario', c.scenario, '--checkpoint-dir', testInfo.outputPath(c.scenario), '--checkpoint-interval', '2000'],
        }),
      ),
    );
    try {
      for (const [i, c] of cases.entries()) {
        const engine = engines[i];
        const { jobs } = (await (await fetch(`${engine.url}/jobs/overview`, { headers: { authorization: `Bearer ${engine.token}` } })).json()) as { jobs: { jid: string }[] };
        const form = await app.openAddCluster();
        await form.fill({ name: c.scenario, url: engine.url, auth: { kind: 'bearer', token: engine.token } });
        await form.save();
        const cluster = await form.openSavedCluster();
        const graph = await cluster.openJob(jobs[0].jid);
        await graph.expectGraphShown();
        const state = await StateTab.open(page);
        if (c.keys) await state.apply({ keys: c.keys });
        await expect(async () => {
          await page.getByRole('button', { name: 'Refresh now' }).click();
          await expect(state.suspect, `${c.scenario}: ${await state.sentence.textContent()}`).toHaveAttribute('data-suspect', c.suspect, { timeout: 3_000 });
        }).toPass({ timeout: 150_000, intervals: [3_000] });
      }
    } finally {
      await Promise.all(engines.map((e) => e.stop()));
    }
  });
});
