import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';

/** The job page's Inspect tab: a vertex's watermarks, timeline, accumulators and TaskManagers, and the configuration. */
export class InspectTab {
  readonly vertexSelect: Locator;
  readonly lowWatermark: Locator;
  readonly timeline: Locator;
  readonly accumulators: Locator;
  readonly configuration: Locator;

  constructor(readonly page: Page) {
    this.vertexSelect = page.getByTestId(testIds.inspect.vertexSelect);
    this.lowWatermark = page.getByTestId(testIds.inspect.lowWatermark);
    this.timeline = page.getByTestId(testIds.inspect.timeline);
    this.accumulators = page.getByTestId(testIds.inspect.accumulators);
    this.configuration = page.getByTestId(testIds.inspect.configuration);
  }

  static async open(page: Page): Promise<InspectTab> {
    await page.getByTestId(testIds.jobTabs.tab('inspect')).click();
    const tab = new InspectTab(page);
    await expect(tab.vertexSelect).toBeVisible();
    return tab;
  }

  async chooseVertex(vertexId: string): Promise<void> {
    await this.vertexSelect.selectOption(vertexId);
  }

  configEntry(section: string, key: string): Locator {
    return this.page.getByTestId(testIds.inspect.configEntry(section, key));
  }

  async filterConfiguration(text: string): Promise<void> {
    await this.page.getByTestId(testIds.inspect.configFilter).fill(text);
  }
}
