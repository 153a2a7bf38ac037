import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';

/** The Logs panel of a TaskManager or the JobManager: its log (pages, search, follow, wrap) and its thread dump. */
export class LogsPanel {
  readonly root: Locator;
  readonly lines: Locator;
  readonly status: Locator;
  readonly search: Locator;
  readonly taskFilter: Locator;
  readonly threadDump: Locator;
  readonly threadFilter: Locator;
  readonly taskThreads: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId(testIds.logs.panel);
    this.lines = page.getByTestId(testIds.logs.lines).locator('li');
    this.status = page.getByTestId(testIds.logs.status);
    this.search = page.getByTestId(testIds.logs.search);
    this.taskFilter = page.getByTestId(testIds.logs.taskFilter);
    this.threadDump = page.getByTestId(testIds.logs.threadDump);
    this.threadFilter = page.getByTestId(testIds.logs.threadFilter);
    this.taskThreads = page.getByTestId(testIds.logs.taskThread);
  }

  /** Opens the logs of a process from the TaskManagers panel (the cluster page). */
  static async openFromTaskManagers(page: Page, processId: string): Promise<LogsPanel> {
    await page.getByTestId(testIds.logs.open(processId)).click();
    const panel = new LogsPanel(page);
    await expect(panel.root).toBeVisible();
    return panel;
  }

  /** The text of every line shown, in order. */
  async lineTexts(): Promise<string[]> {
    return this.lines.locator('.log-line__text').allTextContents();
  }

  async lineNumbers(): Promise<number[]> {
    return (await this.lines.evaluateAll((items) => items.map((li) => li.getAttribute('data-line')))).map(Number);
  }

  async searchFor(text: string, task = ''): Promise<void> {
    await this.search.fill(text);
    await this.taskFilter.fill(task);
    await this.root.getByRole('button', { name: 'Search', exact: true }).click();
  }

  async jumpTo(time: string): Promise<void> {
    await this.page.getByTestId(testIds.logs.jumpTime).fill(time);
    await this.root.getByRole('button', { name: 'Jump', exact: true }).click();
  }

  async openThreadDump(): Promise<void> {
    await this.page.getByTestId(testIds.logs.tab('threads')).click();
    await expect(this.threadDump).toBeVisible();
  }

  async close(): Promise<void> {
    await this.root.getByRole('button', { name: 'Close logs' }).click();
    await expect(this.root).toBeHidden();
  }
}
