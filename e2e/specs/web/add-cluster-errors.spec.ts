import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../support/console';
import { startReplayFlink } from '../../support/replayFlink';

/** A loopback server that is not Flink: HTML for every path, like a proxy's login page (or JSON, like another API). */
async function startHtmlServer(kind: 'html' | 'json' = 'html'): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    if (kind === 'json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'UP', version: '3.2.0' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test.describe('adding a cluster that cannot be used', () => {
  test('connection refused: the error shows inline and the form keeps what was typed', async ({ app }) => {
    const form = await app.openAddCluster();
    const input = { name: 'nowhere', url: 'http://127.0.0.1:1', timeoutMs: 3000 };
    await form.fill(input);
    await form.save();

    await form.expectError('refused');
    await expect(form.error).toContainText('Connection refused');
    await expect(form.error).toContainText('127.0.0.1:1');
    await form.expectValues(input);
    await expect(form.timeout).toHaveValue('3000');
    await expect(app.clusterLink('nowhere')).toHaveCount(0);
    await app.expectNotBlank();
  });

  test('"not a url": the engine explains the URL and the form keeps it', async ({ app }) => {
    const form = await app.openAddCluster();
    const input = { name: 'typo', url: 'not a url' };
    await form.fill(input);
    await form.save();

    await form.expectError('invalid-url');
    await expect(form.error).toContainText('not a url');
    await form.expectValues(input);
    await app.expectNotBlank();
  });

  test('a server that is not Flink is refused as "not a Flink REST API"', async ({ app }) => {
    const html = await startHtmlServer();
    try {
      const form = await app.openAddCluster();
      const input = { name: 'proxy', url: html.url };
      await form.fill(input);
      await form.save();

      await form.expectError('not-flink');
      await expect(form.error).toContainText('Not a Flink REST API');
      await expect(form.error.getByTestId('error-endpoint')).toContainText('/config');
      await form.expectValues(input);
      await app.expectNotBlank();
    } finally {
      await html.close();
    }
  });

  test('a JSON API that is not Flink is told in plain words, not a validator\'s', async ({ app }) => {
    const other = await startHtmlServer('json');
    try {
      const form = await app.openAddCluster();
      await form.fill({ name: 'actuator', url: other.url });
      await form.save();
      await form.expectError('not-flink');
      await expect(form.error).toContainText(`${other.url} answers JSON, but not as a Flink JobManager does (no \`flink-version\` in /config)`);
      await expect(form.error).not.toContainText(/invalid input|expected string/);
    } finally {
      await other.close();
    }
  });

  test('the same URL as a saved cluster: a warning naming it, and the choice to save anyway', async ({ app }) => {
    const replay = await startReplayFlink();
    try {
      const first = await app.openAddCluster();
      await first.fill({ name: 'prod', url: replay.url });
      await first.save();
      await expect(first.savedToast('prod')).toBeVisible();

      const second = await app.openAddCluster();
      await second.fill({ name: 'prod again', url: `${replay.url}/` });
      await second.save();
      await expect(second.duplicateWarning).toContainText(`“prod” already has this URL: ${replay.url}. Saving adds the same cluster a second time.`);
      await expect(app.clusterLink('prod again')).toHaveCount(0);
      await second.saveAnyway();
      await expect(second.savedToast('prod again')).toBeVisible();
      await expect(app.clusterLink('prod again')).toBeVisible();
      await expect(app.clusterLink('prod')).toHaveCount(2);
    } finally {
      await replay.close();
    }
  });

  test('an empty form is caught before calling the engine', async ({ app }) => {
    const form = await app.openAddCluster();
    await form.saveButton.click();
    await expect(form.form.getByText('Give the cluster a name')).toBeVisible();
    await expect(form.form.getByText('Enter the JobManager REST URL')).toBeVisible();
    await expect(form.error).toHaveCount(0);
  });
});

test.describe('web mode', () => {
  test('tells that passwords and tokens are kept in memory only', async ({ app }) => {
    const form = await app.openAddCluster();
    await expect(form.memoryNotice).toBeVisible();
    await expect(form.memoryNotice).toContainText('memory only');
    await form.form.getByRole('radio', { name: /^Basic/ }).check();
    await expect(form.form.getByLabel('Password', { exact: true })).toBeVisible();
  });

  test('an unknown address shows a way back instead of a blank page', async ({ app, page }) => {
    await app.goToHash('#/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await app.expectNotBlank();
    await page.getByRole('link', { name: 'Back to the start page' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  });
});
