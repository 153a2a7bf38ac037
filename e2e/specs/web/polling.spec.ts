import type { Page } from '@playwright/test';
import { testIds } from '../../../renderer/testIds';
import { ConsolePage } from '../../pages/ConsolePage';
import { expect, test } from '../../support/console';
import { startReplayFlink, type ReplayFlink } from '../../support/replayFlink';

/**
 * Polling, with Playwright's fake clock instead of waiting: the interval is never below the cluster's
 * minimum, a hidden tab costs nothing, and leaving a page stops its polling.
 */
let replay: ReplayFlink;

test.beforeEach(async () => {
  replay = await startReplayFlink();
});

test.afterEach(async () => {
  await replay.close();
});

/** Counts engine calls by name (`service.method`), as the page sends them. */
function countCalls(page: Page): Map<string, number> {
  const counts = new Map<string, number>();
  page.on('request', (request) => {
    if (!request.url().endsWith('/api/rpc')) return;
    const call = (request.postDataJSON() as { call?: string } | null)?.call ?? '?';
    counts.set(call, (counts.get(call) ?? 0) + 1);
  });
  return counts;
}

async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((value) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (value ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

test('refreshes at the chosen interval, never below the minimum, and not while hidden', async ({ consoleProcess, page }) => {
  await page.clock.install();
  // Stamps each engine call with the page's clock (the fake one).
  await page.addInitScript(() => {
    const calls: { call: string; at: number }[] = [];
    (window as unknown as { __rpcCalls: typeof calls }).__rpcCalls = calls;
    const original = window.fetch.bind(window);
    window.fetch = (input, init) => {
      if (String(input).endsWith('/api/rpc') && typeof init?.body === 'string') {
        calls.push({ call: (JSON.parse(init.body) as { call: string }).call, at: Date.now() });
      }
      return original(input, init);
    };
  });
  const calls = countCalls(page);
  await page.goto(consoleProcess.url);

  const form = await new ConsolePage(page).openAddCluster();
  await form.fill({ name: 'recorded', url: replay.url });
  await form.save();
  const cluster = await form.openSavedCluster();
  await expect(cluster.flinkVersion).toHaveText(replay.version);
  await expect(page.getByTestId(testIds.refresh.control).getByRole('combobox')).toHaveValue(/\d+/);

  // The choices start at the cluster's minimum; none is below it.
  const options = await page.getByTestId(testIds.refresh.control).getByRole('option').allTextContents();
  const values = await page
    .getByTestId(testIds.refresh.control)
    .getByRole('option')
    .evaluateAll((els) => els.map((el) => Number((el as HTMLOptionElement).value)));
  expect(options[0]).toContain('cluster minimum');
  const minimum = values[0];
  expect(Math.min(...values)).toBe(minimum);

  // Pick the minimum: calls come one interval apart, never closer. Measured on the page's own (fake) clock, so
  // real time passing between steps (a loaded machine) cannot make the check flaky.
  await page.getByTestId(testIds.refresh.control).getByRole('combobox').selectOption(String(minimum));
  const settled = async (): Promise<void> => {
    await expect(page.getByLabel('refreshing')).toHaveCount(0);
  };
  const overviewCallTimes = (): Promise<number[]> =>
    page.evaluate(() => (window as unknown as { __rpcCalls: { call: string; at: number }[] }).__rpcCalls.filter((c) => c.call === 'clusters.overview').map((c) => c.at));
  const before = (await overviewCallTimes()).length;
  for (let i = 0; i < 3; i += 1) {
    const seen = (await overviewCallTimes()).length;
    await page.clock.runFor(minimum);
    await expect.poll(async () => (await overviewCallTimes()).length).toBeGreaterThan(seen);
    await settled();
  }
  const times = (await overviewCallTimes()).slice(Math.max(0, before - 1));
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  // The poller spaces its ticks exactly; a call is stamped here when it reaches fetch, after the render that shows
  // "refreshing", which a loaded machine can delay by tens of ms. A tick found busy is skipped (a gap of 2 intervals).
  expect(Math.min(...gaps), `gaps between overview calls: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(minimum - 100);

  // Hidden tab: no calls at all; visible again: one catch-up call at once.
  await setHidden(page, true);
  const hiddenAt = calls.get('clusters.overview') ?? 0;
  await page.clock.runFor(minimum * 5);
  expect(calls.get('clusters.overview') ?? 0).toBe(hiddenAt);
  await setHidden(page, false);
  await expect.poll(() => calls.get('clusters.overview') ?? 0).toBe(hiddenAt + 1);
  await settled();

  // Paused: no calls; resumed: polling again.
  await page.getByRole('button', { name: 'Pause' }).click();
  const pausedAt = calls.get('clusters.overview') ?? 0;
  await page.clock.runFor(minimum * 5);
  expect(calls.get('clusters.overview') ?? 0).toBe(pausedAt);
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.clock.runFor(minimum);
  await expect.poll(() => calls.get('clusters.overview') ?? 0).toBeGreaterThan(pausedAt);
  await settled();

  // Leaving the cluster page stops its polling.
  await page.getByRole('link', { name: 'Add cluster' }).click();
  const leftAt = calls.get('clusters.overview') ?? 0;
  await page.clock.runFor(minimum * 5);
  expect(calls.get('clusters.overview') ?? 0).toBe(leftAt);
});
