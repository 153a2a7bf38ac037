import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';
import { ROOT } from '../support/paths';

/** The job page's Operations tab: the action buttons, the dialog, the status of the operation, savepoints, journal. */
export class OperationsPanel {
  readonly root: Locator;
  readonly dialog: Locator;
  readonly confirm: Locator;
  readonly status: Locator;
  readonly state: Locator;
  readonly resultPath: Locator;
  readonly failure: Locator;
  readonly plan: Locator;
  readonly journal: Locator;
  readonly savepoints: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId(testIds.operations.panel);
    this.dialog = page.getByTestId(testIds.operations.dialog);
    this.confirm = page.getByTestId(testIds.operations.confirm);
    this.status = page.getByTestId(testIds.operations.status);
    this.state = page.getByTestId(testIds.operations.state);
    this.resultPath = page.getByTestId(testIds.operations.resultPath);
    this.failure = page.getByTestId(testIds.operations.failure);
    this.plan = page.getByTestId(testIds.operations.plan);
    this.journal = page.getByTestId(testIds.operations.journal);
    this.savepoints = page.getByTestId(testIds.operations.savepoints);
  }

  /** The area lives in the job page's Operations tab. */
  async open(): Promise<void> {
    await this.page.getByTestId(testIds.jobTabs.tab('operations')).click();
    await expect(this.root).toBeVisible();
  }

  action(kind: 'savepoint' | 'stop' | 'cancel' | 'rescale' | 'resubmit'): Locator {
    return this.page.getByTestId(testIds.operations.action(kind));
  }

  /** The confirm button of the open confirmation. */
  confirmButton(): Locator {
    return this.confirm.getByTestId(testIds.operations.confirmButton);
  }

  async expectOutcome(state: 'succeeded' | 'failed', timeout = 60_000): Promise<void> {
    await expect(this.status).toHaveAttribute('data-state', state, { timeout });
  }

  /** A screenshot into test-results/screenshots (ignored); the screenshots script picks the ones the README shows. */
  async screenshot(name: string, target: Locator = this.root): Promise<void> {
    const dir = path.join(ROOT, 'test-results/screenshots');
    mkdirSync(dir, { recursive: true });
    await target.scrollIntoViewIfNeeded();
    await target.screenshot({ path: path.join(dir, name) });
  }
}
