import { readFileSync } from 'node:fs';
import path from 'node:path';
import { testIds } from '../../../renderer/testIds';
import { expect, test } from '../../support/console';
import { ROOT } from '../../support/paths';
import { startReplayFlink, type ReplayFlink } from '../../support/replayFlink';
import { ConsolePage } from '../../pages/ConsolePage';

/**
 * What a desktop user expects, checked in web mode in Chromium: themes, keyboard shortcuts, deep links,
 * exports (a download here; a save dialog on the desktop) and the notification fallback, against
 * recorded responses of a real Flink 2.2.1.
 */
let replay: ReplayFlink;

test.beforeEach(async () => {
  replay = await startReplayFlink();
});

test.afterEach(async () => {
  await replay.close();
});

const CLUSTER = 'recorded prod';

async function addRecordedCluster(app: ConsolePage) {
  const form = await app.openAddCluster();
  await form.fill({ name: CLUSTER, url: replay.url });
  await form.save();
  return form.openSavedCluster();
}

/** The page's background colour: what the user actually sees of the theme. */
const background = (app: ConsolePage) => app.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const DARK_BG = 'rgb(13, 17, 23)';
const LIGHT_BG = 'rgb(246, 248, 250)';

test('the theme follows the system, and a chosen theme sticks after a reload', async ({ app, page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(await background(app)).toBe(LIGHT_BG);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await background(app)).toBe(DARK_BG);

  // The user picks light while the system is dark; it survives a reload and a system change.
  await page.getByTestId(testIds.theme.picker).selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.reload();
  await app.expectReady();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.getByTestId(testIds.theme.picker)).toHaveValue('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background(app)).toBe(LIGHT_BG);

  // Back to "system": the page follows the system again.
  await page.getByTestId(testIds.theme.picker).selectOption('system');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

test('the job graph in both themes (screenshots for the README)', async ({ app, page }) => {
  const cluster = await addRecordedCluster(app);
  const job = await cluster.openJob(replay.jobId);
  await job.expectGraphShown();
  await job.openSubtasks(replay.vertices[1].id);
  for (const theme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    // The canvas and the edges take the theme's colours, not the other theme's.
    const canvasBg = await job.canvas.locator('.react-flow').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(canvasBg).toBe(theme === 'dark' ? 'rgb(15, 20, 28)' : 'rgb(248, 250, 252)');
    await page.screenshot({ path: path.join(ROOT, `test-results/screenshots/theme-${theme}.png`) });
  }
});

test('keyboard: ? opens the shortcuts, / filters jobs, g j goes to jobs, Esc closes panels', async ({ app, page }) => {
  const cluster = await addRecordedCluster(app);
  await expect(cluster.jobRow(replay.jobId)).toBeVisible();

  await page.locator('body').press('?');
  const sheet = page.getByTestId(testIds.shortcuts.sheet);
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible();
  await expect(sheet.getByRole('row')).toHaveCount(4);
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();

  await page.keyboard.press('/');
  const filter = cluster.jobsPanel.getByRole('searchbox', { name: 'Filter jobs' });
  await expect(filter).toBeFocused();
  // Typing in the filter is typing, not shortcuts.
  await page.keyboard.type('gj?');
  await expect(filter).toHaveValue('gj?');
  await expect(sheet).toBeHidden();
  await filter.fill('');
  await filter.blur();

  const job = await cluster.openJob(replay.jobId);
  await job.expectGraphShown();
  await job.openSubtasks(replay.vertices[0].id);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId(testIds.subtasks.panel)).toHaveCount(0);
  await expect(job.canvas).toBeVisible();

  await page.keyboard.press('g');
  await page.keyboard.press('j');
  await expect(cluster.jobRow(replay.jobId)).toBeVisible();
  await expect(page).toHaveURL(/#\/clusters\/[^/]+$/);
});

test('a deep link in the hash opens the job by cluster name, or says why it cannot', async ({ app, page, consoleProcess }) => {
  await addRecordedCluster(app);
  await page.goto(`${consoleProcess.origin}/#/cluster/${encodeURIComponent(CLUSTER)}/job/${replay.jobId}`);
  await expect(page.getByTestId(testIds.jobGraph.page)).toBeVisible();
  await expect(page.getByTestId(testIds.jobGraph.name)).toHaveText('gatewaymeter-test');
  // The link was replaced by the job's own address: Back does not loop through the link again.
  await expect(page).toHaveURL(new RegExp(`#/clusters/[^/]+/jobs/${replay.jobId}$`));

  await page.goto(`${consoleProcess.origin}/#/cluster/prod-us/job/${replay.jobId}`);
  const unresolved = page.getByTestId(testIds.deepLink.unresolved);
  await expect(unresolved).toContainText('no cluster of that name');
  await expect(unresolved).toContainText('prod-us');

  await page.goto(`${consoleProcess.origin}/#/cluster/${encodeURIComponent(CLUSTER)}/job/not-a-job-id`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('exporting subtasks downloads a CSV and says so in the page when notifications are not allowed', async ({ app, page }) => {
  const cluster = await addRecordedCluster(app);
  const job = await cluster.openJob(replay.jobId);
  await job.expectGraphShown();

  const downloading = page.waitForEvent('download');
  await page.getByTestId(testIds.exports.subtaskMetrics).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^subtasks-gatewaymeter-test-${replay.jobId.slice(0, 8)}-\\d{8}-\\d{6}\\.csv$`));
  const csv = readFileSync(await download.path(), 'utf8').trim().split('\n');
  expect(csv[0]).toMatch(/^vertex_id,vertex_name,subtask,/);
  expect(new Set(csv.slice(1).map((line) => line.split(',')[0]))).toEqual(new Set(replay.vertices.map((v) => v.id)));

  // No notification permission (Playwright's default): the page tells the user itself.
  // (Beside the toast that said the cluster was saved.)
  const toast = page.getByTestId(testIds.toasts.toast).filter({ hasText: 'Export of subtask metrics finished' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText(`${csv.length - 1} subtasks saved to your downloads folder`);
  await expect(page.getByTestId(testIds.exports.subtaskMetrics)).toBeEnabled();
});

test('with notifications allowed, a finished export in a background tab notifies through the browser', async ({ app, page, context, consoleProcess }) => {
  await context.grantPermissions(['notifications'], { origin: consoleProcess.origin });
  // Record notifications, and let the test say when the page is "in the background".
  await page.addInitScript(() => {
    const shown: Array<{ title: string; body?: string }> = [];
    (window as unknown as { __notifications: typeof shown }).__notifications = shown;
    (window as unknown as { Notification: unknown }).Notification = class {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      constructor(title: string, options?: { body?: string }) {
        shown.push({ title, body: options?.body });
      }
    };
    document.hasFocus = () => (window as unknown as { __focused?: boolean }).__focused !== false;
  });
  await page.reload();
  await app.expectReady();
  const cluster = await addRecordedCluster(app);
  const job = await cluster.openJob(replay.jobId);
  await job.expectGraphShown();

  await page.evaluate(() => ((window as unknown as { __focused: boolean }).__focused = false));
  const downloading = page.waitForEvent('download');
  await page.getByTestId(testIds.exports.subtaskMetrics).click();
  await downloading;
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __notifications: Array<{ title: string }> }).__notifications.map((n) => n.title)))
    .toEqual(['Export of subtask metrics finished']);
  await expect(page.getByTestId(testIds.toasts.toast).filter({ hasText: 'Export of subtask metrics finished' })).toHaveCount(0);
});

test('the launch token never leaves in a Referer and is printed once, in the URL line', async ({ page, consoleProcess }) => {
  const token = new URL(consoleProcess.url).searchParams.get('token')!;
  const referers: string[] = [];
  page.on('request', (request) => {
    const referer = request.headers()['referer'];
    if (referer) referers.push(referer);
  });
  // From the very first request: the page that is opened with the token in its URL loads scripts and styles.
  await page.goto(consoleProcess.url);
  const app = new ConsolePage(page);
  await app.expectReady();
  await addRecordedCluster(app);
  expect(new URL(page.url()).search, 'the token left the address bar').toBe('');
  expect(referers.filter((r) => r.includes(token))).toEqual([]);
  expect(consoleProcess.output().split(token).length - 1).toBe(1);
});
