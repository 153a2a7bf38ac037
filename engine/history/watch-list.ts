import type { Database, RootDatabase } from 'lmdb';

/**
 * The jobs the engine samples in the background. A job is watched while the operator has it open (`open`) or
 * pinned it (`pinned`); watches survive a restart of the app and resume.
 */
export interface Watch {
  clusterId: string;
  jobId: string;
  jobName: string;
  /** Pinned by the operator: sampled until unpinned or the job ends, whether or not a page shows it. */
  pinned: boolean;
  /** Sample no faster than this; never faster than the cluster's metrics fetch interval. null = that interval. */
  intervalMs: number | null;
  createdAt: number;
  /** Last time a page had the job open: unpinned watches end a while after the last page closed. */
  lastOpenedAt: number;
}

type WatchKey = [clusterId: string, jobId: string];

export class WatchList {
  private readonly table: Database<Watch, WatchKey>;

  constructor(root: RootDatabase) {
    this.table = root.openDB<Watch, WatchKey>('watches', {});
  }

  list(): Watch[] {
    return [...this.table.getRange({})].map((e) => e.value);
  }

  get(clusterId: string, jobId: string): Watch | undefined {
    return this.table.get([clusterId, jobId]);
  }

  async put(watch: Watch): Promise<void> {
    await this.table.put([watch.clusterId, watch.jobId], watch);
  }

  async remove(clusterId: string, jobId: string): Promise<void> {
    await this.table.remove([clusterId, jobId]);
  }
}
