import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';

/** The job page's State tab: the one sentence, the window and inputs, and per vertex its figures, chart and subtasks. */
export class StateTab {
  readonly panel: Locator;
  readonly sentence: Locator;
  readonly suspect: Locator;
  readonly confidence: Locator;
  readonly rocksdb: Locator;
  readonly inputError: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByTestId(testIds.state.tab);
    this.sentence = page.getByTestId(testIds.state.sentence);
    this.suspect = page.getByTestId(testIds.state.suspect);
    this.confidence = page.getByTestId(testIds.state.confidence);
    this.rocksdb = page.getByTestId(testIds.state.rocksdb);
    this.inputError = page.getByTestId(testIds.state.inputError);
  }

  static async open(page: Page): Promise<StateTab> {
    await page.getByTestId(testIds.jobTabs.tab('state')).click();
    const tab = new StateTab(page);
    await expect(tab.panel).toBeVisible();
    return tab;
  }

  vertex(vertexId: string): Locator {
    return this.page.getByTestId(testIds.state.vertex(vertexId));
  }

  chart(vertexId: string): Locator {
    return this.page.getByTestId(testIds.state.chart(vertexId));
  }

  /** The newest checkpoint the vertex's figures come from. */
  async checkpointOf(vertexId: string): Promise<number> {
    return Number(await this.vertex(vertexId).getAttribute('data-checkpoint'));
  }

  /** Each subtask's shown state size, by index. */
  async subtaskSizes(vertexId: string): Promise<string[]> {
    return this.vertex(vertexId).locator('tbody tr td[data-figure="state"]').allTextContents();
  }

  async chooseWindow(label: string): Promise<void> {
    await this.page.getByTestId(testIds.state.window).getByRole('radio', { name: label }).click();
  }

  async apply(inputs: { capacity?: string; keys?: string }): Promise<void> {
    if (inputs.capacity !== undefined) await this.page.getByTestId(testIds.state.capacity).fill(inputs.capacity);
    if (inputs.keys !== undefined) await this.page.getByTestId(testIds.state.keyCount).fill(inputs.keys);
    await this.page.getByTestId(testIds.state.inputs).getByRole('button', { name: 'Apply' }).click();
  }
}
