import { expect, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../renderer/testIds';
import { escapeRegExp } from './ConsolePage';
import { JobGraphPage } from './JobGraphPage';

/** An opened cluster: overview cards and the jobs table. */
export class ClusterPage {
  readonly overview: Locator;
  readonly flinkVersion: Locator;
  readonly taskManagers: Locator;
  readonly slots: Locator;
  readonly jobsPanel: Locator;
  readonly jobsTable: Locator;

  constructor(readonly page: Page) {
    this.overview = page.getByTestId(testIds.overview.panel);
    this.flinkVersion = page.getByTestId(testIds.overview.flinkVersion);
    this.taskManagers = page.getByTestId(testIds.overview.taskManagers);
    this.slots = page.getByTestId(testIds.overview.slots);
    this.jobsPanel = page.getByTestId(testIds.jobs.panel);
    this.jobsTable = page.getByTestId(testIds.jobs.table);
  }

  jobCount(state: 'running' | 'finished' | 'cancelled' | 'failed'): Locator {
    return this.page.getByTestId(testIds.overview.jobCount(state));
  }

  jobRow(jobId: string): Locator {
    return this.page.getByTestId(testIds.jobs.row(jobId));
  }

  async expectJob(jobId: string, name: string, state: string): Promise<void> {
    const row = this.jobRow(jobId);
    await expect(row).toBeVisible();
    await expect(row.getByRole('link', { name: new RegExp(`^${escapeRegExp(name)}$`) })).toBeVisible();
    await expect(row.getByTestId(testIds.jobs.state)).toHaveText(state);
  }

  async openJob(jobId: string): Promise<JobGraphPage> {
    await this.jobRow(jobId).getByRole('cell').first().click();
    const job = new JobGraphPage(this.page);
    await expect(job.page.getByTestId(testIds.jobGraph.page)).toBeVisible();
    return job;
  }
}
