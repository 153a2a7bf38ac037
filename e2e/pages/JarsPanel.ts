import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';

/** The cluster page's Jars panel: upload, the list, the run dialog and its confirmation, delete. */
export class JarsPanel {
  readonly root: Locator;
  readonly dialog: Locator;
  readonly confirm: Locator;
  readonly planGraph: Locator;
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId(testIds.jars.panel);
    this.dialog = page.getByTestId(testIds.jars.dialog);
    this.confirm = this.root.getByTestId(testIds.operations.confirm);
    this.planGraph = page.getByTestId(testIds.jars.planGraph);
    this.status = this.root.getByTestId(testIds.operations.status);
  }

  async upload(file: string): Promise<void> {
    await expect(this.root).toBeVisible();
    await this.root.getByTestId(testIds.jars.upload).setInputFiles(file);
  }

  /** The row of the jar uploaded under this file name (its id is `<uuid>_<name>`). */
  rowNamed(name: string): Locator {
    return this.root.locator(`[data-testid^="jar-row-"][data-testid$="_${name}"]`);
  }

  confirmButton(): Locator {
    return this.confirm.getByTestId(testIds.operations.confirmButton);
  }
}
