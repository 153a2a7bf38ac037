import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createKafka } from '../../../engine/kafka/kafka-connection';
import { produceGatewayEvents } from '../../../engine/local/kafka/gateway-producer';
import { loadScenario } from '../../../engine/local/scenarios/scenario';
import { expect, test } from '../../support/console';
import { readKafkaBroker, uniqueTopic } from '../../support/kafkaBroker';
import { ROOT } from '../../support/paths';
import { testIds } from '../../../renderer/testIds';
import { ConsolePage } from '../../pages/ConsolePage';
import { AdvicePanel } from '../../pages/AdvicePanel';
import { KafkaPanelPage } from '../../pages/KafkaPanelPage';

/** A `flink-ops` child process that prints a line we wait for. */
async function startFlinkOps(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const child = spawn(process.execPath, ['engine/cli/flink-ops.mjs', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (out += c));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`flink-ops ${args[0]} printed nothing matching ${ready} in 60 s:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`flink-ops ${args[0]} exited (${code}):\n${out}`));
    });
  });
  return { child, match, output: () => out };
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/**
 * The Kafka view of a job, end to end in Chromium: a local engine reading a real topic (`flink-ops engine
 * --kafka-brokers`), `flink-ops produce` feeding it the hot-tenant mix, and the console's Kafka panel on the job page —
 * the connection form, the consumer lag per partition with its trend chart, and the hot keys placed on tenant-cost.
 */
test('the job page shows the consumer lag with its trend and the hot keys of the job\'s topic', async ({ page, consoleProcess }) => {
  test.setTimeout(240_000);
  const broker = readKafkaBroker();
  const topic = uniqueTopic('gateway-events');
  const sinkTopic = uniqueTopic('tenant-cost');
  const groupId = `${topic}-gatewaymeter`;
  const checkpoints = mkdtempSync(path.join(tmpdir(), 'kafka-e2e-'));
  const kafka = createKafka({ brokers: [broker.bootstrap] });
  let engine: ChildProcess | undefined;
  let producer: ChildProcess | undefined;
  try {
    // 20 s of backlog with acme at 40% of the requests, then a live stream from `flink-ops produce`.
    await produceGatewayEvents(kafka, {
      topic,
      generator: { ...loadScenario('hot-tenant').traffic, rate: 1000, events: 20_000, seed: 3, phases: [{ atMs: 0, share: { acme: 0.4 } }] },
      startTime: Date.now() - 21_000,
      paced: false,
      partitions: 8,
      brokers: [broker.bootstrap],
    });
    const started = await startFlinkOps(
      ['engine', '--port', '0', '--scenario', 'hot-tenant', '--kafka-brokers', broker.bootstrap, '--topic', topic, '--sink-topic', sinkTopic, '--group-id', groupId, '--checkpoint-dir', checkpoints, '--checkpoint-interval', '5000'],
      /Local engine: (http:\/\/127\.0\.0\.1:\d+)/,
    );
    engine = started.child;
    const engineUrl = started.match[1];
    producer = (await startFlinkOps(['produce', '--brokers', broker.bootstrap, '--topic', topic, '--rate', '300', '--scenario', 'hot-tenant'], /events to|Produced/)).child;

    const app = new ConsolePage(page);
    await page.goto(consoleProcess.url);
    await app.expectReady();
    const form = await app.openAddCluster();
    await form.fill({ name: 'engine on kafka', url: engineUrl });
    await form.save();
    const cluster = await form.openSavedCluster();
    const { jobs } = (await (await fetch(`${engineUrl}/jobs/overview`)).json()) as { jobs: Array<{ jid: string }> };
    const graph = await cluster.openJob(jobs[0].jid);
    await graph.expectGraphShown();

    const kafkaPanel = new KafkaPanelPage(page);
    await kafkaPanel.open();
    await kafkaPanel.connect(broker.bootstrap);

    // The group comes from the job's configuration, the topic from the source's metrics: the lag shows by itself.
    await expect(kafkaPanel.lagTable).toBeVisible({ timeout: 60_000 });
    for (let p = 0; p < 8; p++) await expect(kafkaPanel.lagRow(topic, p)).toBeVisible();
    // Offsets are committed on the engine's checkpoints (every 5 s): every partition gets a committed offset.
    await expect(kafkaPanel.lagTable.getByText('no committed offset')).toHaveCount(0, { timeout: 60_000 });
    await expect(kafkaPanel.pendingRecords).not.toHaveText('not exposed');
    // The trend: a point per refresh, read back from the lag history (one more refresh now, not in an interval).
    await page.getByTestId(testIds.refresh.control).getByRole('button', { name: 'Refresh now' }).click();
    await expect.poll(async () => Number(await kafkaPanel.lagChart.getAttribute('data-points')), { timeout: 90_000 }).toBeGreaterThanOrEqual(2);
    await expect(kafkaPanel.lagChart.locator('.recharts-line').first()).toBeVisible();

    await kafkaPanel.sampleHotKeys({ keyPath: 'tenant_id', seconds: 60, vertexLabel: /tenant-cost/ });
    const acme = kafkaPanel.hotKeyRow('acme');
    await expect(kafkaPanel.hotKeysTable.locator('tbody tr').first()).toHaveAttribute('data-testid', 'kafka-hot-key-acme');
    await expect(acme.locator('td').nth(4)).toHaveText('50'); // key group
    await expect(acme.locator('td').nth(5)).toHaveText('12'); // the saturated tenant-cost subtask at 32 of 128
    await expect(kafkaPanel.hotKeysSummary).toContainText('At parallelism 32, subtask 12');

    await kafkaPanel.root.screenshot({ path: path.join(ROOT, 'test-results/screenshots/kafka-panel.png') });

    // A hot key of the sample is a click from the advice: the key and the rate the sample measured, filled in.
    const shown = (await acme.locator('td').nth(3).textContent())!; // "120/s", "1.2k/s"
    const sampledRate = Number(shown.replace(/[^\d.]/g, '')) * (shown.includes('k') ? 1000 : 1);
    await page.getByTestId(testIds.kafka.adviseKey('acme')).click();
    const advice = new AdvicePanel(page);
    await expect(advice.panel.getByLabel('Hot key')).toHaveValue('acme');
    await expect(advice.panel.getByLabel("Key's rate")).toHaveValue(/^\d+(\.\d)?$/); // records/s to a tenth, as the panel fills it
    expect(Math.abs(Number(await advice.panel.getByLabel("Key's rate").inputValue()) - sampledRate)).toBeLessThanOrEqual(Math.max(1, sampledRate * 0.05));
    await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/kafka-job-page.png'), fullPage: true });
  } finally {
    await stop(producer);
    await stop(engine);
    rmSync(checkpoints, { recursive: true, force: true });
    const admin = kafka.admin();
    await admin.connect().catch(() => {});
    await admin.deleteGroups([groupId]).catch(() => {});
    await admin.deleteTopics({ topics: [topic, sinkTopic] }).catch(() => {});
    await admin.disconnect().catch(() => {});
  }
});
