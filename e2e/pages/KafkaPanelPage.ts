import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';

/** The Kafka panel of the job page: connection settings, consumer lag with its trend, hot keys. */
export class KafkaPanelPage {
  readonly root: Locator;
  readonly settingsForm: Locator;
  readonly lagTable: Locator;
  readonly totalLag: Locator;
  readonly pendingRecords: Locator;
  readonly lagChart: Locator;
  readonly hotKeys: Locator;
  readonly hotKeysTable: Locator;
  readonly hotKeysSummary: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId(testIds.kafka.panel);
    this.settingsForm = page.getByTestId(testIds.kafka.settingsForm);
    this.lagTable = page.getByTestId(testIds.kafka.lagTable);
    this.totalLag = page.getByTestId(testIds.kafka.totalLag);
    this.pendingRecords = page.getByTestId(testIds.kafka.pendingRecords);
    this.lagChart = page.getByTestId(testIds.kafka.lagChart);
    this.hotKeys = page.getByTestId(testIds.kafka.hotKeys);
    this.hotKeysTable = page.getByTestId(testIds.kafka.hotKeysTable);
    this.hotKeysSummary = page.getByTestId(testIds.kafka.hotKeysSummary);
  }

  /** The panel lives in the job page's Kafka tab. */
  async open(): Promise<void> {
    await this.page.getByTestId(testIds.jobTabs.tab('kafka')).click();
    await expect(this.root).toBeVisible();
  }

  async connect(bootstrapServers: string): Promise<void> {
    await expect(this.settingsForm).toBeVisible();
    await this.settingsForm.getByLabel('Bootstrap servers').fill(bootstrapServers);
    await this.settingsForm.getByRole('button', { name: 'Connect and save' }).click();
    await expect(this.page.getByTestId(testIds.kafka.settingsSummary)).toContainText(bootstrapServers);
  }

  lagRow(topic: string, partition: number): Locator {
    return this.page.getByTestId(testIds.kafka.lagRow(topic, partition));
  }

  hotKeyRow(key: string): Locator {
    return this.page.getByTestId(testIds.kafka.hotKeyRow(key));
  }

  async sampleHotKeys(options: { keyPath: string; seconds: number; vertexLabel: RegExp }): Promise<void> {
    const form = this.hotKeys.getByRole('form', { name: 'Sample hot keys' });
    await form.getByLabel('Key path').fill(options.keyPath);
    await form.getByLabel('Last seconds').fill(String(options.seconds));
    const select = form.getByLabel('Keyed vertex');
    const value = await select.locator('option', { hasText: options.vertexLabel }).getAttribute('value');
    await select.selectOption(value!);
    await form.getByRole('button', { name: 'Sample' }).click();
    await expect(this.hotKeysTable).toBeVisible({ timeout: 60_000 });
  }
}
