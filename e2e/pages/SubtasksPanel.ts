import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';

/** The subtasks table of the selected vertex. */
export class SubtasksPanel {
  readonly root: Locator;
  readonly table: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId(testIds.subtasks.panel);
    this.table = page.getByTestId(testIds.subtasks.table);
    // The subtask rows rendered: the table renders only those on screen (and a few beyond), between spacer rows.
    this.rows = this.table.locator('tbody tr[data-testid]');
  }

  /** The table holds `count` subtasks (not all of them rendered: see `rows`). */
  async expectRows(count: number): Promise<void> {
    await expect(this.table).toBeVisible({ timeout: 30_000 });
    await expect(this.table).toHaveAttribute('aria-rowcount', String(count + 1));
    await expect(this.rows.first()).toBeVisible();
  }

  row(index: number): Locator {
    return this.page.getByTestId(testIds.subtasks.row(index));
  }

  /** Scrolls the table's own box so that row `position` (0-based, in the current order) is at its top. */
  async scrollToPosition(position: number): Promise<void> {
    await this.root.locator('.subtasks-scroll').evaluate((box, at) => {
      const rowHeight = Number(box.querySelector('table')!.getAttribute('data-row-height'));
      box.scrollTop = at * rowHeight;
    }, position);
  }

  async sortBy(column: string): Promise<void> {
    await this.table.getByRole('columnheader', { name: column }).getByRole('button').click();
  }

  async close(): Promise<void> {
    await this.root.getByRole('button', { name: 'Close subtasks' }).click();
    await expect(this.root).toBeHidden();
  }
}
