import type { Database, RootDatabase } from 'lmdb';
import type { JobWatch } from '../contracts/history.ts';

type WatchKey = [clusterId: string, jobId: string];

/**
 * The jobs the engine samples in the background (`JobWatch`, the history service's own type: what is stored is what
 * it shows). Watches survive a restart of the app and resume.
 */
export class WatchList {
  private readonly table: Database<JobWatch, WatchKey>;

  constructor(root: RootDatabase) {
    this.table = root.openDB<JobWatch, WatchKey>('watches', {});
  }

  list(): JobWatch[] {
    return [...this.table.getRange({})].map((e) => e.value);
  }

  get(clusterId: string, jobId: string): JobWatch | undefined {
    return this.table.get([clusterId, jobId]);
  }

  async put(watch: JobWatch): Promise<void> {
    await this.table.put([watch.clusterId, watch.jobId], watch);
  }

  async remove(clusterId: string, jobId: string): Promise<void> {
    await this.table.remove([clusterId, jobId]);
  }
}
