import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';
import { SubtasksPanel } from './SubtasksPanel';

/** The job page: header, the React Flow graph and its vertices. */
export class JobGraphPage {
  readonly name: Locator;
  readonly state: Locator;
  readonly requestCount: Locator;
  readonly canvas: Locator;
  readonly legend: Locator;
  readonly notFound: Locator;

  constructor(readonly page: Page) {
    this.name = page.getByTestId(testIds.jobGraph.name);
    this.state = page.getByTestId(testIds.jobGraph.state);
    this.requestCount = page.getByTestId(testIds.jobGraph.requestCount);
    this.canvas = page.getByTestId(testIds.jobGraph.canvas);
    this.legend = page.getByTestId(testIds.jobGraph.legend);
    this.notFound = page.getByTestId(testIds.jobGraph.notFound);
  }

  vertex(vertexId: string): Locator {
    return this.page.getByTestId(testIds.jobGraph.vertex(vertexId));
  }

  /** All vertex nodes drawn on the canvas. */
  vertices(): Locator {
    return this.canvas.locator('[data-testid^="vertex-"][data-busy]');
  }

  /**
   * How strongly each vertex is drawn (the product of its own and its ancestors' opacities up to the canvas), by vertex
   * id: the faint ones are off the highlighted path.
   */
  async opacities(): Promise<Record<string, number>> {
    return Object.fromEntries(
      await this.vertices().evaluateAll((elements) =>
        elements.map((e) => {
          let opacity = 1;
          for (let at: Element | null = e; at && !at.classList.contains('graph-canvas'); at = at.parentElement) opacity *= Number(getComputedStyle(at).opacity);
          return [e.getAttribute('data-testid')!.replace(/^vertex-/, ''), opacity] as const;
        }),
      ),
    );
  }

  async expectGraphShown(): Promise<void> {
    await expect(this.canvas).toBeVisible({ timeout: 30_000 });
    await expect(this.legend).toBeVisible();
  }

  async vertexParallelism(vertexId: string): Promise<number> {
    const value = await this.vertex(vertexId).getByTestId(testIds.jobGraph.vertexParallelism).getAttribute('data-parallelism');
    return Number(value);
  }

  /** Opens a tab of the job page (`graph`, `metrics`, `checkpoints`, ...). */
  async openTab(id: string): Promise<void> {
    await this.page.getByTestId(testIds.jobTabs.tab(id)).click();
    await expect(this.page.getByTestId(testIds.jobTabs.tab(id))).toHaveAttribute('aria-selected', 'true');
  }

  /** The vertex list under the graph. */
  get vertexList(): Locator {
    return this.page.getByTestId(testIds.vertexList.panel);
  }

  vertexListRow(vertexId: string): Locator {
    return this.page.getByTestId(testIds.vertexList.row(vertexId));
  }

  async findVertex(query: string): Promise<void> {
    await this.vertexList.getByRole('searchbox', { name: 'Find a vertex by name' }).fill(query);
  }

  async openSubtasks(vertexId: string): Promise<SubtasksPanel> {
    await this.vertex(vertexId).click();
    const panel = new SubtasksPanel(this.page);
    await expect(panel.root).toBeVisible();
    return panel;
  }
}
