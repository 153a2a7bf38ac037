import type { Database, RootDatabase } from 'lmdb';
import type { ProcessMetricPoint } from '../contracts/history.ts';
import type { HistoryRetention } from './history-store.ts';

/**
 * The JobManager's and the TaskManagers' memory and garbage collection over time: one sample per process every
 * PROCESS_SAMPLE_INTERVAL_MS while a job of its cluster is watched (see sampling/process-sampler.ts).
 */
export interface ProcessSample extends Omit<ProcessMetricPoint, 'gcTimeMsPerSecond' | 'gcPerMinute'> {
  clusterId: string;
  /** "jobmanager" or the TaskManager's resource id. */
  processId: string;
}

type ProcessKey = [clusterId: string, processId: string, t: number];

export class ProcessLog {
  private readonly table: Database<ProcessSample, ProcessKey>;

  constructor(
    private readonly root: RootDatabase,
    private readonly retention: HistoryRetention,
    private readonly now: () => number,
  ) {
    this.table = root.openDB<ProcessSample, ProcessKey>('process-samples', {});
  }

  /** Stores one round's samples (all processes of a cluster at one time) and drops that cluster's samples past retention. */
  async append(samples: ProcessSample[]): Promise<void> {
    if (samples.length === 0) return;
    const horizon = this.now() - this.retention.sampleMaxAgeMs;
    await this.root.transaction(() => {
      for (const s of samples) {
        this.table.put([s.clusterId, s.processId, s.t], s);
        for (const key of this.table.getKeys({ start: [s.clusterId, s.processId, -Infinity], end: [s.clusterId, s.processId, horizon] })) this.table.remove(key);
      }
    });
  }

  /** A process's samples in `[from, to]`, oldest first. */
  list(clusterId: string, processId: string, from = -Infinity, to = Infinity): ProcessSample[] {
    return [...this.table.getRange({ start: [clusterId, processId, from], end: [clusterId, processId, to + 1] })].map((e) => e.value);
  }

  /** The newest sample of a process, or undefined. */
  latest(clusterId: string, processId: string): ProcessSample | undefined {
    for (const { value } of this.table.getRange({ start: [clusterId, processId, Infinity], end: [clusterId, processId, -Infinity], reverse: true, limit: 1 })) return value;
    return undefined;
  }

  async prune(): Promise<void> {
    const horizon = this.now() - this.retention.sampleMaxAgeMs;
    await this.root.transaction(() => {
      for (const { key, value } of this.table.getRange({})) if (value.t < horizon) this.table.remove(key);
    });
  }
}
