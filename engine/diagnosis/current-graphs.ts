import type { JobDiagnosis } from '../contracts/diagnosis.ts';
import { withFlinkNow } from '../analysis/flink-now.ts';
import type { FetchedJobGraph } from '../sampling/job-graph.ts';

/** The longest refresh interval a job page offers (2 min). */
const MAX_PAGE_PERIOD_MS = 120_000;

/** A graph as remembered: when it was seen, and how long after the page's refresh before it (a page's period). */
export type RememberedGraph = FetchedJobGraph & { seenAt: number; periodMs?: number };

/**
 * A job's current graph, fetched once for everyone who needs it: the job page's refreshes (`fetch`), the diagnosis'
 * first look (`diagnose`: the graph a page fetched within `maxAgeMs` or within the page's own period, else one fetch)
 * and the history's sampler (`recent`: a page's refreshes are its samples). Fetches of the same job at the same time
 * are one request to the JobManager.
 */
export class CurrentGraphs {
  private readonly latest = new Map<string, RememberedGraph>();
  private readonly inFlight = new Map<string, Promise<FetchedJobGraph>>();
  /** When a page last refreshed each job's graph. */
  private readonly pageAt = new Map<string, number>();
  /** When a job's graph last failed: a recorded job's page asks again only after `maxAgeMs`, not at every poll. */
  private readonly failedAt = new Map<string, number>();

  constructor(
    private readonly fetchGraph: (clusterId: string, jobId: string) => Promise<FetchedJobGraph>,
    private readonly now: () => number = Date.now,
    private readonly maxAgeMs = 10_000,
    private readonly maxJobs = 64,
  ) {}

  /** A page's refresh: the graph fetched now (or the fetch already under way), remembered with the page's period. */
  async fetch(clusterId: string, jobId: string): Promise<FetchedJobGraph> {
    const graph = await this.fetchOnce(clusterId, jobId);
    this.remember(graph, { page: true });
    return graph;
  }

  /** Keeps a graph fetched for the job; `page`: a page's refresh, whose period the history's sampler follows. */
  remember(graph: FetchedJobGraph, options: { page?: boolean } = {}): void {
    const key = `${graph.clusterId}\u0000${graph.jobId}`;
    const seenAt = this.now();
    const lastPage = this.pageAt.get(key);
    // A gap longer than any page's refresh interval is a page opened again, not its period.
    const sincePage = lastPage !== undefined ? seenAt - lastPage : undefined;
    const periodMs = options.page ? (sincePage !== undefined && sincePage <= MAX_PAGE_PERIOD_MS ? sincePage : undefined) : this.latest.get(key)?.periodMs;
    if (options.page) this.pageAt.set(key, seenAt);
    this.latest.delete(key);
    this.latest.set(key, { ...graph, seenAt, ...(periodMs !== undefined ? { periodMs } : {}) });
    while (this.latest.size > this.maxJobs) {
      const oldest = this.latest.keys().next().value!;
      this.latest.delete(oldest);
      this.pageAt.delete(oldest);
    }
  }

  /** The graph fetched last for the job, and when (the history sampler reuses a recent one). */
  recent(clusterId: string, jobId: string): RememberedGraph | undefined {
    return this.latest.get(`${clusterId}\u0000${jobId}`);
  }

  /** The diagnosis with Flink's current figures taken into account (see `withFlinkNow`). */
  async diagnose(diagnosis: JobDiagnosis): Promise<JobDiagnosis> {
    if (diagnosis.finding.severity === 'critical' || diagnosis.finding.severity === 'warning') return withFlinkNow(diagnosis, null);
    return withFlinkNow(diagnosis, await this.graph(diagnosis.clusterId, diagnosis.jobId));
  }

  private async graph(clusterId: string, jobId: string): Promise<FetchedJobGraph | null> {
    const key = `${clusterId}\u0000${jobId}`;
    const known = this.latest.get(key);
    // A page refreshing less often than the metrics fetch interval has the figures of its last refresh: its next one
    // comes within its period (the page asks for the diagnosis as it refreshes), not a second request now.
    const maxAgeMs = Math.max(this.maxAgeMs, (known?.periodMs ?? 0) + 2_000);
    if (known && this.now() - known.seenAt <= maxAgeMs) return known;
    const failed = this.failedAt.get(key);
    if (failed !== undefined && this.now() - failed <= this.maxAgeMs) return null;
    try {
      const graph = await this.fetchOnce(clusterId, jobId);
      this.failedAt.delete(key);
      this.remember(graph);
      return graph;
    } catch {
      // The cluster or the job is gone: the window's diagnosis is all there is, and it says so itself.
      this.failedAt.set(key, this.now());
      while (this.failedAt.size > this.maxJobs) this.failedAt.delete(this.failedAt.keys().next().value!);
      return null;
    }
  }

  private fetchOnce(clusterId: string, jobId: string): Promise<FetchedJobGraph> {
    const key = `${clusterId}\u0000${jobId}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetchGraph(clusterId, jobId).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }
}
