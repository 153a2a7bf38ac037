import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';

/** The job page's Inspect tab: a vertex's watermarks, timeline, accumulators and TaskManagers, its flame graph, and the configuration. */
export class InspectTab {
  readonly vertexSelect: Locator;
  readonly lowWatermark: Locator;
  readonly timeline: Locator;
  readonly accumulators: Locator;
  readonly configuration: Locator;
  readonly flameGraph: Locator;
  readonly flameSentence: Locator;
  readonly flameSubtask: Locator;
  readonly flameHotFrames: Locator;
  readonly flameMatches: Locator;

  constructor(readonly page: Page) {
    this.vertexSelect = page.getByTestId(testIds.inspect.vertexSelect);
    this.lowWatermark = page.getByTestId(testIds.inspect.lowWatermark);
    this.timeline = page.getByTestId(testIds.inspect.timeline);
    this.accumulators = page.getByTestId(testIds.inspect.accumulators);
    this.configuration = page.getByTestId(testIds.inspect.configuration);
    this.flameGraph = page.getByTestId(testIds.inspect.flameGraph);
    this.flameSentence = page.getByTestId(testIds.inspect.flameSentence);
    this.flameSubtask = page.getByTestId(testIds.inspect.flameSubtask);
    this.flameHotFrames = page.getByTestId(testIds.inspect.flameHotFrames);
    this.flameMatches = page.getByTestId(testIds.inspect.flameMatches);
  }

  /** The flame graph's frames whose name matches, as drawn. */
  flameFrames(name: RegExp): Locator {
    return this.flameGraph.locator('[data-name]').filter({ hasText: name });
  }

  async searchFrames(text: string): Promise<void> {
    await this.page.getByTestId(testIds.inspect.flameSearch).fill(text);
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
