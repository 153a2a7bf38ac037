import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';
import { ClusterFormPage } from './ClusterFormPage';
import { ClusterPage } from './ClusterPage';

/** The console shell: sidebar and main area. Every flow starts here. */
export class ConsolePage {
  readonly root: Locator;
  readonly sidebar: Locator;
  readonly main: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId(testIds.app.root);
    this.sidebar = page.getByTestId(testIds.clusters.sidebar);
    this.main = page.getByTestId(testIds.app.main);
  }

  async expectReady(): Promise<void> {
    await expect(this.root).toBeVisible();
    await expect(this.sidebar.getByRole('heading', { name: 'Clusters' })).toBeVisible();
  }

  /** Never a blank screen: the shell, the sidebar and some text in the main area are always there. */
  async expectNotBlank(): Promise<void> {
    await expect(this.root).toBeVisible();
    await expect(this.sidebar).toBeVisible();
    await expect(this.main).not.toBeEmpty();
    await expect(this.page.getByTestId(testIds.app.crashed)).toHaveCount(0);
  }

  async openAddCluster(): Promise<ClusterFormPage> {
    await this.sidebar.getByRole('link', { name: 'Add cluster' }).click();
    const form = new ClusterFormPage(this.page);
    await expect(form.heading).toBeVisible();
    return form;
  }

  clusterLink(name: string): Locator {
    return this.sidebar.getByRole('link', { name: new RegExp(`^${escapeRegExp(name)}\\b`) });
  }

  async openCluster(name: string): Promise<ClusterPage> {
    await this.clusterLink(name).click();
    return new ClusterPage(this.page);
  }

  async goToHash(hash: string): Promise<void> {
    await this.page.evaluate((h) => {
      window.location.hash = h;
    }, hash);
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
