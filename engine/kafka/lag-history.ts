import type { Database } from 'lmdb';
import type { LagPoint } from '../contracts/kafka.ts';
import type { HistoryStore } from '../history/history-store.ts';

/** Where the lag trend of a consumer group is kept: one point per lag query, read back as a time window for the chart. */
export interface LagHistory {
  /** Records one snapshot of a group's lag on a cluster. */
  append(clusterId: string, groupId: string, point: LagPoint): void;
  /** The points with `fromMs <= at <= toMs`, oldest first. */
  read(clusterId: string, groupId: string, fromMs: number, toMs: number): LagPoint[];
}

type LagKey = [clusterId: string, groupId: string, at: number];

/**
 * The lag trend in the history store (table `kafka-lag`), so it survives a restart of the app and is shared with
 * the CLI; points older than the store's sample retention are dropped as new ones are written.
 */
export class StoredLagHistory implements LagHistory {
  private readonly table: Database<LagPoint, LagKey>;

  constructor(private readonly store: HistoryStore) {
    this.table = store.table<LagPoint, LagKey>('kafka-lag');
  }

  append(clusterId: string, groupId: string, point: LagPoint): void {
    const horizon = point.at - this.store.retention.sampleMaxAgeMs;
    this.table.transactionSync(() => {
      this.table.putSync([clusterId, groupId, point.at], point);
      for (const key of this.table.getKeys({ start: [clusterId, groupId, -Infinity], end: [clusterId, groupId, horizon] })) this.table.removeSync(key);
    });
  }

  read(clusterId: string, groupId: string, fromMs: number, toMs: number): LagPoint[] {
    return [...this.table.getRange({ start: [clusterId, groupId, fromMs], end: [clusterId, groupId, toMs + 1] })].map((e) => e.value);
  }
}
