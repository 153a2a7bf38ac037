import type { Database, RootDatabase } from 'lmdb';
import type { HistoryRetention } from './history-store.ts';

/**
 * What happened to a watched job between samples, in words: a gap in the samples (the cluster unreachable, a
 * 5xx), the job restarting with a new attempt, a JobManager failover, a state change, a watch started or stopped.
 * Gaps are events, never zeros: a chart draws a break there.
 */
export type HistoryEventKind =
  | 'watch-started'
  | 'watch-stopped'
  | 'gap-started'
  | 'gap-ended'
  /** The cluster's metrics store stopped answering: the console samples the JobManager until it answers again. */
  | 'store-silent'
  | 'store-answers'
  | 'job-state'
  | 'job-restarted'
  | 'jobmanager-failover'
  | 'checkpoint-restored'
  | 'job-gone';

export interface HistoryEvent {
  clusterId: string;
  jobId: string;
  t: number;
  kind: HistoryEventKind;
  /** One sentence for the timeline. */
  message: string;
  /** Vertex ids concerned, when it is about some of them (subtasks restarted). */
  vertexIds?: string[];
}

type EventKey = [clusterId: string, jobId: string, t: number, seq: number];

export class EventLog {
  private readonly table: Database<HistoryEvent, EventKey>;
  private seq = 0;

  constructor(
    private readonly root: RootDatabase,
    private readonly retention: HistoryRetention,
    private readonly now: () => number,
  ) {
    this.table = root.openDB<HistoryEvent, EventKey>('events', {});
  }

  async append(event: HistoryEvent): Promise<void> {
    // The sequence orders events of the same millisecond; the pid keeps two processes' events apart.
    this.seq = (this.seq + 1) % 1_000_000;
    await this.table.put([event.clusterId, event.jobId, event.t, process.pid * 1_000_000 + this.seq], event);
  }

  /** A job's events in `[from, to]`, oldest first. */
  list(clusterId: string, jobId: string, from = -Infinity, to = Infinity): HistoryEvent[] {
    return [...this.table.getRange({ start: [clusterId, jobId, from, -Infinity], end: [clusterId, jobId, to, Infinity] })].map((e) => e.value);
  }

  async prune(): Promise<void> {
    const horizon = this.now() - this.retention.eventMaxAgeMs;
    await this.root.transaction(() => {
      for (const { key, value } of this.table.getRange({})) if (value.t < horizon) this.table.remove(key);
    });
  }
}
