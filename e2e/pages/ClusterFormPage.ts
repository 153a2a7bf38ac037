import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';
import { ClusterPage } from './ClusterPage';

export interface ClusterFormInput {
  name: string;
  url: string;
  auth?: { kind: 'none' } | { kind: 'basic'; username: string; password: string } | { kind: 'bearer'; token: string };
  caFile?: string;
  timeoutMs?: number;
  /** The metrics store's query API (no authentication). */
  metricsStoreUrl?: string;
}

/** The add / edit cluster form. */
export class ClusterFormPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly name: Locator;
  readonly url: Locator;
  readonly timeout: Locator;
  readonly caFile: Locator;
  readonly error: Locator;
  readonly success: Locator;
  readonly detectedVersion: Locator;
  readonly memoryNotice: Locator;
  readonly duplicateWarning: Locator;
  readonly saveButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: /^(Add a cluster|Edit cluster)/ });
    this.form = page.getByTestId(testIds.clusters.form);
    this.name = this.form.getByLabel('Name', { exact: true });
    this.url = this.form.getByLabel('REST URL');
    this.timeout = this.form.getByLabel('Request timeout (ms)');
    this.caFile = this.form.getByLabel('CA file (optional)');
    this.error = page.getByTestId(testIds.clusters.formError);
    this.success = page.getByTestId(testIds.clusters.formSuccess);
    this.detectedVersion = page.getByTestId(testIds.clusters.detectedVersion);
    this.memoryNotice = page.getByTestId(testIds.clusters.memoryNotice);
    this.duplicateWarning = page.getByTestId(testIds.clusters.duplicateWarning);
    this.saveButton = this.form.getByRole('button', { name: /^Check and save/ });
  }

  async fill(input: ClusterFormInput): Promise<void> {
    await this.name.fill(input.name);
    await this.url.fill(input.url);
    const auth = input.auth ?? { kind: 'none' };
    const authKinds = this.form.getByRole('radiogroup', { name: 'Authentication', exact: true });
    if (auth.kind === 'none') await authKinds.getByRole('radio', { name: 'None' }).check();
    if (auth.kind === 'basic') {
      await authKinds.getByRole('radio', { name: /^Basic/ }).check();
      await this.form.getByLabel('Username', { exact: true }).fill(auth.username);
      await this.form.getByLabel('Password', { exact: true }).fill(auth.password);
    }
    if (auth.kind === 'bearer') {
      await authKinds.getByRole('radio', { name: 'Bearer token' }).check();
      await this.form.getByLabel('Token', { exact: true }).fill(auth.token);
    }
    if (input.caFile != null) await this.caFile.fill(input.caFile);
    if (input.timeoutMs != null) await this.timeout.fill(String(input.timeoutMs));
    if (input.metricsStoreUrl != null) await this.form.getByLabel('Query API URL').fill(input.metricsStoreUrl);
  }

  /**
   * Clicks save and waits for the answer: the inline error or the same-URL warning on the form; for a new cluster, its
   * page (the console opens it), for an edit, the success notice.
   */
  async save(): Promise<void> {
    await this.saveButton.click();
    await expect(this.error.or(this.success).or(this.duplicateWarning).or(this.openedCluster)).toBeVisible({ timeout: 30_000 });
  }

  /** After the same-URL warning: save all the same. */
  async saveAnyway(): Promise<void> {
    await this.duplicateWarning.getByRole('button', { name: 'Save anyway' }).click();
    await expect(this.error.or(this.success).or(this.openedCluster)).toBeVisible({ timeout: 30_000 });
  }

  /** The toast that confirms a new cluster, on its page: its name and the Flink version the check detected. */
  savedToast(name: string): Locator {
    return this.page.getByTestId(testIds.toasts.toast).filter({ hasText: `Saved “${name}”` });
  }

  /** The inline error after a refused save: kind, the engine's message and the endpoint. */
  async expectError(kind: string): Promise<void> {
    await expect(this.error).toBeVisible();
    await expect(this.error).toHaveAttribute('data-kind', kind);
  }

  async expectValues(input: ClusterFormInput): Promise<void> {
    await expect(this.name).toHaveValue(input.name);
    await expect(this.url).toHaveValue(input.url);
  }

  /** The saved cluster's page: already open after adding one, a click on "Open cluster" after an edit. */
  async openSavedCluster(): Promise<ClusterPage> {
    if (await this.success.isVisible()) await this.success.getByRole('link', { name: 'Open cluster' }).click();
    const cluster = new ClusterPage(this.page);
    await expect(cluster.overview).toBeVisible();
    return cluster;
  }

  /** The overview of a cluster: the console opened it. */
  private get openedCluster(): Locator {
    return this.page.getByTestId(testIds.overview.panel);
  }
}
