import { testIds } from '../../../renderer/testIds';
import { LogsPanel } from '../../pages/LogsPanel';
import { expect, test } from '../../support/console';
import { startReplayFlink, type ReplayFlink } from '../../support/replayFlink';

/**
 * A cluster whose log lines and thread names carry markup, escape sequences and binary bytes: the Logs panel shows
 * them as text (the markup as characters, the escapes as control pictures), and the page keeps working.
 */
let replay: ReplayFlink;
test.beforeEach(async () => {
  replay = await startReplayFlink();
});
test.afterEach(async () => {
  await replay.close();
});

const ESC = '\u001b';

test('markup, escape sequences and binary bytes in a log and a thread dump are shown as text', async ({ app, page }) => {
  test.setTimeout(60_000);
  const { taskmanagers } = (await (await fetch(`${replay.url}/taskmanagers`)).json()) as { taskmanagers: Array<{ id: string }> };
  const tm = taskmanagers[0].id;
  const line = `2026-12-02 16:00:00,000 INFO  x [] - <img src=x onerror="window.__pwned=1"><b>bold</b> ${ESC}[31mred${ESC}[0m`;
  const name = `tenant-cost <i>x</i>${ESC}[2J (13/32)#0`;
  replay.setExtra({
    [`/taskmanagers/${tm}/logs`]: { status: 200, contentType: 'application/json', body: JSON.stringify({ logs: [{ name: 'taskmanager.log', size: 100, mtime: 1 }] }) },
    [`/taskmanagers/${tm}/log`]: { status: 200, contentType: 'text/plain', body: Buffer.concat([Buffer.from(`${line}\n`), Buffer.from([0x00, 0xff, 0x41, 0x0a])]) },
    [`/taskmanagers/${tm}/thread-dump`]: {
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ threadInfos: [{ threadName: name, stringifiedThreadInfo: `"${name}" Id=57 RUNNABLE\n\tat <script>alert(1)</script>${ESC}]0;t\u0007.run(X.java:1)\n` }] }),
    },
  });
  const form = await app.openAddCluster();
  await form.fill({ name: 'hostile-logs', url: replay.url });
  await form.save();
  await form.openSavedCluster();

  const logs = await LogsPanel.openFromTaskManagers(page, tm);
  await expect(logs.lines).toHaveCount(2);
  expect(await logs.lineTexts()).toEqual([line.replaceAll(ESC, '\u241b'), '\u2400\ufffdA']);
  await expect(logs.root.locator('img, b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  await logs.openThreadDump();
  await expect(logs.taskThreads).toHaveCount(1);
  await expect(logs.taskThreads.first()).toContainText(name.replaceAll(ESC, '\u241b'));
  await expect(logs.taskThreads.first()).toContainText('subtask 12 of 32');
  await expect(logs.threadDump.locator('i, script')).toHaveCount(0);
  await expect(page.getByTestId(testIds.logs.threadCount)).toContainText('1 thread, 1 task thread');
  await app.expectNotBlank();
});
