import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';

/** The job page's Advice panel: the hot key, salting beside a rescale, and the slot of the rehearsal. */
export class AdvicePanel {
  readonly panel: Locator;
  readonly status: Locator;
  readonly error: Locator;
  readonly salting: Locator;
  readonly saltingSentence: Locator;
  readonly spread: Locator;
  readonly busyMaxOverMean: Locator;
  readonly costs: Locator;
  readonly rescale: Locator;
  readonly rescaleSentence: Locator;
  readonly rehearsal: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByTestId(testIds.advice.panel);
    this.status = page.getByTestId(testIds.advice.status);
    this.error = page.getByTestId(testIds.advice.error);
    this.salting = page.getByTestId(testIds.advice.salting);
    this.saltingSentence = page.getByTestId(testIds.advice.saltingSentence);
    this.spread = page.getByTestId(testIds.advice.spread);
    this.busyMaxOverMean = page.getByTestId(testIds.advice.busyMaxOverMean);
    this.costs = page.getByTestId(testIds.advice.costs);
    this.rescale = page.getByTestId(testIds.advice.rescale);
    this.rescaleSentence = page.getByTestId(testIds.advice.rescaleSentence);
    this.rehearsal = page.getByTestId(testIds.rehearsal.panel);
  }

  /** From the diagnosis' sentence: "Advise on a fix". */
  async openFromFinding(): Promise<void> {
    await this.page.getByTestId(testIds.advice.open).click();
    await expect(this.panel).toBeVisible();
  }

  /** From the Skew tab's key lookup: looks the key up, then "Advise on <key>". */
  async openFromKeyLookup(key: string): Promise<void> {
    const lookup = this.page.getByTestId(testIds.diagnosis.keyLookup);
    await lookup.getByLabel('Key', { exact: true }).fill(key);
    await lookup.getByRole('button', { name: 'Find owner' }).click();
    await this.page.getByTestId(testIds.advice.openFromKey).click();
    await expect(this.panel).toBeVisible();
  }

  /** Types the key (and the key's rate, the format) and asks. */
  async advise(key: string, options: { rate?: number; buckets?: number; format?: string } = {}): Promise<void> {
    await this.panel.getByLabel('Hot key').fill(key);
    await this.panel.getByLabel("Key's rate").fill(options.rate === undefined ? '' : String(options.rate));
    await this.panel.getByLabel('Salt buckets').fill(options.buckets === undefined ? '' : String(options.buckets));
    if (options.format !== undefined) await this.panel.getByLabel('Salted key format').fill(options.format);
    await this.panel.getByRole('button', { name: 'Advise' }).click();
  }

  async waitForAdvice(): Promise<void> {
    await expect(this.status).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  }

  /** The salted keys as the panel lists them: key, key group and subtask of each bucket. */
  async saltedKeys(): Promise<Array<{ key: string; keyGroup: number; subtask: number }>> {
    const rows = this.salting.locator('tr[data-key]');
    const out: Array<{ key: string; keyGroup: number; subtask: number }> = [];
    for (const row of await rows.all()) {
      out.push({ key: (await row.getAttribute('data-key'))!, keyGroup: Number(await row.getAttribute('data-key-group')), subtask: Number(await row.getAttribute('data-subtask')) });
    }
    return out;
  }

  /** The cells of the predicted busy row of a subtask: [subtask, salted keys, records/s, busy]. */
  async predictedRow(subtask: number): Promise<string[]> {
    return this.page.getByTestId(testIds.advice.predicted(subtask)).locator('td').allTextContents();
  }

  rescalePlan(to: number): Locator {
    return this.page.getByTestId(testIds.advice.rescalePlan(to));
  }
}
