import type { Locator, Page } from '@playwright/test';
import { testIds } from '../../../renderer/testIds';
import type { JobGraphPage } from '../../pages/JobGraphPage';
import type { ConsolePage } from '../../pages/ConsolePage';
import { expect, test } from '../../support/console';
import { startReplayFlink, type ReplayFlink } from '../../support/replayFlink';

/** How the job page fits a laptop screen: the table's columns that matter in view, the graph fitted to its box. */
let replay: ReplayFlink;

test.beforeEach(async () => {
  replay = await startReplayFlink();
});

test.afterEach(async () => {
  await replay.close();
});

async function openRecordedJob(app: ConsolePage): Promise<JobGraphPage> {
  const form = await app.openAddCluster();
  await form.fill({ name: 'recorded', url: replay.url });
  await form.save();
  const cluster = await form.openSavedCluster();
  await cluster.expectJob(replay.jobId, 'gatewaymeter-test', 'RUNNING');
  const job = await cluster.openJob(replay.jobId);
  await job.expectGraphShown();
  return job;
}

/** Two animation frames: a ResizeObserver callback and the re-fit it schedules have run. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

test.describe('at 1,280 × 800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the subtasks table keeps the identifying and the alarming columns in view; the index stays when it scrolls', async ({ app }) => {
    const job = await openRecordedJob(app);
    const subtasks = await job.openSubtasks(replay.vertices[0].id);
    await subtasks.expectRows(2);
    await subtasks.root.evaluate((panel) => panel.scrollIntoView({ block: 'start' }));
    const header = (name: string): Locator => subtasks.table.getByRole('columnheader', { name, exact: true });

    for (const name of ['#', 'Status', 'BP level', 'Busy ms/s', 'Back-pressured ms/s', 'Idle ms/s', 'Watermark local time']) {
      await expect(header(name), `${name} is in view without scrolling sideways`).toBeInViewport({ ratio: 1 });
    }
    const first = subtasks.rows.first().getByRole('cell');
    await expect(first.nth(2)).toHaveText('HIGH');
    await expect(first.nth(2)).toBeInViewport({ ratio: 1 });
    await expect(first.nth(6)).toBeInViewport({ ratio: 1 });

    // The rest is a sideways scroll away; the subtask index stays pinned at the left edge.
    const scrolled = await subtasks.root.locator('.table-wrap').evaluate((wrap) => {
      wrap.scrollTo({ left: wrap.scrollWidth });
      return wrap.scrollLeft;
    });
    expect(scrolled, 'the table is wider than the page at 1,280 px').toBeGreaterThan(0);
    await expect(header('Endpoint / TaskManager')).toBeInViewport({ ratio: 1 });
    const index = await header('#').boundingBox();
    const wrap = await subtasks.root.locator('.table-wrap').boundingBox();
    expect(Math.round(index!.x), 'the index column stays at the left edge').toBe(Math.round(wrap!.x));
    await expect(first.first()).toBeInViewport({ ratio: 1 });
  });
});

test('the job graph re-fits when the window is resized, unless the user has panned or zoomed', async ({ app, page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  const job = await openRecordedJob(app);
  const flow = job.canvas.locator('.graph-canvas__flow');
  const allInside = async (): Promise<boolean> => {
    const box = (await flow.boundingBox())!;
    for (const vertex of await job.vertices().all()) {
      const v = (await vertex.boundingBox())!;
      if (v.x < box.x - 1 || v.y < box.y - 1 || v.x + v.width > box.x + box.width + 1 || v.y + v.height > box.y + box.height + 1) return false;
    }
    return true;
  };
  await expect.poll(allInside).toBe(true);

  // Narrower: the graph, fitted for 1,600 px, would stick out; it is fitted again.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect.poll(allInside, { message: 'every vertex inside the canvas after the resize' }).toBe(true);

  // The user pans: their view is theirs, a resize leaves it alone.
  const box = (await flow.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 12);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 140, box.y + 40, { steps: 5 });
  await page.mouse.up();
  const offset = async () => {
    const b = (await flow.boundingBox())!;
    const v = (await job.vertex(replay.vertices[0].id).boundingBox())!;
    return { x: Math.round(v.x - b.x), y: Math.round(v.y - b.y), width: Math.round(v.width) };
  };
  const panned = await offset();
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect.poll(async () => Math.round((await flow.boundingBox())!.width)).toBeGreaterThan(Math.round(box.width));
  await settle(page);
  await settle(page);
  expect(await offset()).toEqual(panned);

  // "Fit view" hands the view back to the canvas: the next resize fits again.
  await page.getByRole('button', { name: 'Fit View' }).click();
  await page.setViewportSize({ width: 900, height: 800 });
  await expect.poll(allInside).toBe(true);
  await expect(page.getByTestId(testIds.jobGraph.canvas)).toBeVisible();
});
