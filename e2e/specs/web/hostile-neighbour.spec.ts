import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import config from '../../playwright.config';
import { engineJson, expect, test } from '../../support/console';

/**
 * Every desktop running the console runs its local engine on loopback. A web page in the same browser, on another
 * local origin, tries what the attack in issue 7 did: read the jobs, write a savepoint into a folder of its choice and
 * kill a TaskManager, by fetch (CORS and no-cors), a form post and a simple POST, even knowing the token. Then a DNS
 * rebinding page (its own host name resolving to 127.0.0.1) tries the same. Nothing is read, written or killed.
 */
test.use({
  withLocalEngine: true,
  // rebind.test resolves to loopback, as an attacker's DNS would answer after the rebinding.
  launchOptions: { ...config.use?.launchOptions, args: [...(config.use?.launchOptions?.args ?? []), '--host-resolver-rules=MAP rebind.test 127.0.0.1'] },
});

let attacker: Server;
let loot: string;

test.beforeEach(async () => {
  loot = mkdtempSync(path.join(tmpdir(), 'flink-ops-loot-'));
  rmSync(loot, { recursive: true });
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>cat pictures</title><iframe name="sink"></iframe>');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
});

test.afterEach(async () => {
  await new Promise((resolve) => attacker.close(resolve));
  rmSync(loot, { recursive: true, force: true });
});

interface Attempt {
  what: string;
  outcome: string;
}

test('a page on another local origin can neither read nor drive the local engine; DNS rebinding is refused', async ({ consoleProcess, page }) => {
  const engine = consoleProcess.localEngineUrl!;
  const { jobs } = await engineJson<{ jobs: { jid: string }[] }>(consoleProcess, '/jobs/overview');
  const { taskmanagers } = await engineJson<{ taskmanagers: { id: string }[] }>(consoleProcess, '/taskmanagers');
  const jobId = jobs[0].jid;
  const victim = taskmanagers[0].id;

  // Every answer the engine gave the page, as the browser's network layer saw it (opaque ones included).
  const answered: Array<{ url: string; method: string; status: number }> = [];
  page.on('response', (response) => {
    if (response.url().startsWith(engine)) answered.push({ url: response.url(), method: response.request().method(), status: response.status() });
  });

  await page.goto(`http://localhost:${(attacker.address() as AddressInfo).port}/`);
  const attempts = await page.evaluate(
    async ({ engine, jobId, victim, loot, token }): Promise<Attempt[]> => {
      const results: Attempt[] = [];
      const attempt = async (what: string, run: () => Promise<string>) => {
        try {
          results.push({ what, outcome: await run() });
        } catch (error) {
          results.push({ what, outcome: `blocked: ${(error as Error).name}` });
        }
      };
      const savepoint = JSON.stringify({ 'target-directory': loot });
      await attempt('read the jobs (CORS fetch)', async () => `read ${(await (await fetch(`${engine}/jobs/overview`)).text()).slice(0, 80)}`);
      await attempt('read the configuration with the token', async () => `read ${(await (await fetch(`${engine}/jobmanager/config`, { headers: { authorization: `Bearer ${token}` } })).text()).slice(0, 80)}`);
      await attempt('savepoint, JSON with the token (preflighted)', async () =>
        `status ${(await fetch(`${engine}/jobs/${jobId}/savepoints`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: savepoint })).status}`,
      );
      await attempt('savepoint, simple text/plain POST (no-cors)', async () =>
        `opaque ${(await fetch(`${engine}/jobs/${jobId}/savepoints`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: savepoint })).type}`,
      );
      await attempt('kill a TaskManager, body-less POST (no-cors)', async () =>
        `opaque ${(await fetch(`${engine}/local-engine/v1/taskmanagers/${victim}/kill`, { method: 'POST', mode: 'no-cors' })).type}`,
      );
      await attempt('kill a TaskManager, beacon', async () => `beacon queued ${navigator.sendBeacon(`${engine}/local-engine/v1/taskmanagers/${victim}/kill`, '{}')}`);
      await attempt('savepoint, form post', async () => {
        const form = document.createElement('form');
        form.method = 'POST';
        form.enctype = 'text/plain';
        form.target = 'sink';
        form.action = `${engine}/jobs/${jobId}/savepoints`;
        const field = document.createElement('input');
        field.name = `{"target-directory": "${loot}", "x": "`;
        field.value = '"}';
        form.append(field);
        document.body.append(form);
        const loaded = new Promise((resolve) => document.querySelector('iframe')!.addEventListener('load', resolve, { once: true }));
        form.submit();
        await loaded;
        return 'form submitted';
      });
      return results;
    },
    { engine, jobId, victim, loot, token: consoleProcess.localEngineToken! },
  );

  const outcome = (what: string) => attempts.find((a) => a.what === what)?.outcome;
  expect(outcome('read the jobs (CORS fetch)')).toBe('blocked: TypeError');
  expect(outcome('read the configuration with the token')).toBe('blocked: TypeError');
  expect(outcome('savepoint, JSON with the token (preflighted)')).toBe('blocked: TypeError');
  // The browser sent these; the engine refused each one at the door (the page cannot see it, the network layer can).
  await expect.poll(() => answered.filter((a) => a.method === 'POST').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
  for (const a of answered) expect([401, 403, 415], `${a.method} ${a.url}`).toContain(a.status);

  // Nothing was written, nothing was killed, and the engine still answers its owner.
  expect(existsSync(loot)).toBe(false);
  const after = await engineJson<{ taskmanagers: { id: string }[] }>(consoleProcess, '/taskmanagers');
  expect(after.taskmanagers.map((tm) => tm.id)).toEqual(taskmanagers.map((tm) => tm.id));
  const status = await engineJson<{ status: string }>(consoleProcess, `/jobs/${jobId}/status`);
  expect(status.status).toBe('RUNNING');

  // DNS rebinding: a page whose own host name now resolves to 127.0.0.1 is same-origin with the engine's port, so the
  // browser would let it read; the engine answers 421 to its Host header instead, with or without the token.
  const enginePort = new URL(engine).port;
  const rebound = await page.goto(`http://rebind.test:${enginePort}/jobs/overview`);
  expect(rebound!.status()).toBe(421);
  expect(await rebound!.text()).toMatch(/"errors":\["Misdirected request: the local engine answers only to 127\.0\.0\.1/);
  const withToken = await page.evaluate(
    async ({ token }) => {
      const response = await fetch('/jobs/overview', { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: await response.text() };
    },
    { token: consoleProcess.localEngineToken! },
  );
  expect(withToken.status).toBe(421);
  expect(withToken.body).not.toContain(jobId);
});
