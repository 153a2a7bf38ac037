import type { Database, RootDatabase } from 'lmdb';
import type { RehearsedPrediction } from '../contracts/before-after.ts';
import type { HistoryRetention } from './history-store.ts';

type RehearsalKey = [clusterId: string, jobId: string, t: number];

/**
 * The predictions of a job's rehearsals (a proposal the twin matched production for), kept as long as its events: an
 * operation that carries the proposal out shows the prediction beside what happened (see operations/before-after.ts).
 */
export class RehearsalLog {
  private readonly table: Database<RehearsedPrediction, RehearsalKey>;

  constructor(
    private readonly root: RootDatabase,
    private readonly retention: HistoryRetention,
    private readonly now: () => number,
  ) {
    this.table = root.openDB<RehearsedPrediction, RehearsalKey>('rehearsals', {});
  }

  async append(clusterId: string, jobId: string, prediction: RehearsedPrediction): Promise<void> {
    await this.table.put([clusterId, jobId, prediction.rehearsedAt], prediction);
  }

  /** A job's predictions in `(from, to]`, newest first. */
  list(clusterId: string, jobId: string, from = -Infinity, to = Infinity): RehearsedPrediction[] {
    return [...this.table.getRange({ start: [clusterId, jobId, to], end: [clusterId, jobId, from], reverse: true })].map((e) => e.value);
  }

  async prune(): Promise<void> {
    const horizon = this.now() - this.retention.eventMaxAgeMs;
    await this.root.transaction(() => {
      for (const { key, value } of this.table.getRange({})) if (value.rehearsedAt < horizon) this.table.remove(key);
    });
  }
}
