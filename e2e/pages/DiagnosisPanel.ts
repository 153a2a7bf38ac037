import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';

/** The job page's diagnosis: the finding at the top and the Skew tab (heatmap, bars, skew table, key lookup). */
export class DiagnosisPanel {
  readonly finding: Locator;
  readonly sentence: Locator;
  /** What the sentence rests on: `data-basis` is "window" or "flink-now". */
  readonly basis: Locator;
  readonly evidence: Locator;
  readonly skewPanel: Locator;
  readonly heatmap: Locator;
  readonly tooltip: Locator;
  readonly skewTable: Locator;
  readonly keyLookup: Locator;
  readonly keyLocation: Locator;

  constructor(readonly page: Page) {
    this.finding = page.getByTestId(testIds.diagnosis.finding);
    this.sentence = page.getByTestId(testIds.diagnosis.sentence);
    this.basis = page.getByTestId(testIds.diagnosis.basis);
    this.evidence = page.getByTestId(testIds.diagnosis.evidence);
    this.skewPanel = page.getByTestId(testIds.diagnosis.skewPanel);
    this.heatmap = page.getByTestId(testIds.diagnosis.heatmapCanvas);
    this.tooltip = page.getByTestId(testIds.diagnosis.heatmapTooltip);
    this.skewTable = page.getByTestId(testIds.diagnosis.skewTable);
    this.keyLookup = page.getByTestId(testIds.diagnosis.keyLookup);
    this.keyLocation = page.getByTestId(testIds.diagnosis.keyLocation);
  }

  /** The heatmap, bars, skew table and key lookup live in the job page's Skew tab. */
  async openSkewTab(): Promise<void> {
    await this.page.getByTestId(testIds.jobTabs.tab('skew')).click();
    await expect(this.skewPanel).toBeVisible();
  }

  /**
   * Waits (refreshing the page's data) until the finding is of `kind`, on the window's figures (`basis`; the first
   * look on Flink's current figures comes before); the window fills while the page is open.
   */
  async waitForFinding(kind: string, timeoutMs: number, basis: 'window' | 'flink-now' = 'window'): Promise<string> {
    await expect(async () => {
      await this.page.getByRole('button', { name: 'Refresh now' }).click();
      await expect(this.finding).toHaveAttribute('data-kind', kind, { timeout: 5_000 });
      await expect(this.basis).toHaveAttribute('data-basis', basis, { timeout: 1_000 });
    }).toPass({ timeout: timeoutMs, intervals: [5_000] });
    return (await this.sentence.textContent()) ?? '';
  }

  /** The heatmap cell the canvas calls hottest, as `vertexId:subtask`. */
  async hottestCell(): Promise<string> {
    return (await this.heatmap.getAttribute('data-hottest')) ?? '';
  }

  /** Moves the pointer over a cell, from the grid geometry the canvas publishes, and returns the tooltip's text. */
  async hoverCell(vertexId: string, subtask: number): Promise<string> {
    const { x, y } = await this.cellCentre(vertexId, subtask);
    await this.page.mouse.move(x, y);
    await expect(this.tooltip).toBeVisible();
    return (await this.tooltip.textContent()) ?? '';
  }

  /** Clicks a cell: the subtask's row in its vertex's table. */
  async clickCell(vertexId: string, subtask: number): Promise<void> {
    const { x, y } = await this.cellCentre(vertexId, subtask);
    await this.page.mouse.click(x, y);
  }

  private async cellCentre(vertexId: string, subtask: number): Promise<{ x: number; y: number }> {
    await this.heatmap.scrollIntoViewIfNeeded();
    const read = async (name: string) => Number(await this.heatmap.getAttribute(`data-${name}`));
    const rows = ((await this.heatmap.getAttribute('data-rows')) ?? '').split(',');
    const row = rows.indexOf(vertexId);
    expect(row, `the heatmap has a row for ${vertexId}`).toBeGreaterThanOrEqual(0);
    const [originX, originY, cellWidth, cellHeight, panX, panY] = await Promise.all(['origin-x', 'origin-y', 'cell-width', 'cell-height', 'pan-x', 'pan-y'].map(read));
    const box = (await this.heatmap.boundingBox())!;
    return { x: box.x + originX + (subtask + 0.5) * cellWidth - panX, y: box.y + originY + (row + 0.5) * cellHeight - panY };
  }

  async lookUpKey(key: string, vertexId: string): Promise<void> {
    await this.keyLookup.getByLabel('Key', { exact: true }).fill(key);
    await this.keyLookup.getByLabel('Keyed vertex').selectOption(vertexId);
    await this.keyLookup.getByRole('button', { name: 'Find owner' }).click();
    await expect(this.keyLocation).toBeVisible();
  }
}
