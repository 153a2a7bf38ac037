import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';

/** The Checkpoints tab of a job page: facts, chart, summary, the table of recent checkpoints, and one's detail. */
export class CheckpointsTab {
  readonly root: Locator;
  readonly counts: Locator;
  readonly chart: Locator;
  readonly summary: Locator;
  readonly latestCompleted: Locator;
  readonly latestFailed: Locator;
  readonly restored: Locator;
  readonly table: Locator;
  readonly detail: Locator;
  readonly finding: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId(testIds.checkpoints.tab);
    this.counts = page.getByTestId(testIds.checkpoints.counts);
    this.chart = page.getByTestId(testIds.checkpoints.chart);
    this.summary = page.getByTestId(testIds.checkpoints.summary);
    this.latestCompleted = page.getByTestId(testIds.checkpoints.latestCompleted);
    this.latestFailed = page.getByTestId(testIds.checkpoints.latestFailed);
    this.restored = page.getByTestId(testIds.checkpoints.restored);
    this.table = page.getByTestId(testIds.checkpoints.table);
    this.detail = page.getByTestId(testIds.checkpoints.detail);
    this.finding = page.getByTestId(testIds.checkpoints.finding);
  }

  /** Rows of the recent-checkpoints table (newest first), by status. */
  rows(status?: string): Locator {
    const rows = this.table.locator('tbody tr');
    return status ? rows.and(this.page.locator(`[data-status="${status}"]`)) : rows;
  }

  /** The rows' figures as the table shows them: id, status, end-to-end and full size text. */
  async rowFigures(): Promise<Array<{ id: number; status: string; endToEnd: string; fullSize: string }>> {
    return this.rows().evaluateAll((rows) =>
      rows.map((row) => {
        const cells = [...row.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '');
        return { id: Number(cells[0]), status: row.getAttribute('data-status') ?? '', endToEnd: cells[4], fullSize: cells[6] };
      }),
    );
  }

  async openCheckpoint(id: number): Promise<void> {
    await this.table.getByRole('button', { name: `Open checkpoint ${id}`, exact: true }).click();
    await expect(this.detail).toBeVisible();
    await expect(this.detail).toContainText(`Checkpoint #${id}`);
  }

  subtaskRow(index: number): Locator {
    return this.detail.getByTestId(testIds.checkpoints.subtaskRow(index));
  }
}
