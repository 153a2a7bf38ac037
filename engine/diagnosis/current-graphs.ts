import type { JobDiagnosis } from '../contracts/diagnosis.ts';
import type { JobGraph } from '../contracts/jobs.ts';
import { withFlinkNow } from '../analysis/flink-now.ts';

/**
 * Flink's current figures for the diagnosis' first look, without asking the JobManager twice: the graph a job page
 * fetched within the last `maxAgeMs` (the JobManager's default metrics fetch interval: fresher figures are not to be
 * had), else one fetch. Only a diagnosis without a verdict of concern needs them.
 */
export class CurrentGraphs {
  private readonly latest = new Map<string, JobGraph & { seenAt: number }>();
  /** When a job's graph last failed: a recorded job's page asks again only after `maxAgeMs`, not at every poll. */
  private readonly failedAt = new Map<string, number>();

  constructor(
    private readonly fetchGraph: (clusterId: string, jobId: string) => Promise<JobGraph>,
    private readonly now: () => number = Date.now,
    private readonly maxAgeMs = 10_000,
    private readonly maxJobs = 64,
  ) {}

  remember(graph: JobGraph): void {
    const key = `${graph.clusterId}\u0000${graph.jobId}`;
    this.latest.delete(key);
    this.latest.set(key, { ...graph, seenAt: this.now() });
    while (this.latest.size > this.maxJobs) this.latest.delete(this.latest.keys().next().value!);
  }

  /** The graph a page fetched last for the job, and when (the history sampler reuses a recent one). */
  recent(clusterId: string, jobId: string): (JobGraph & { seenAt: number }) | undefined {
    return this.latest.get(`${clusterId}\u0000${jobId}`);
  }

  /** The diagnosis with Flink's current figures taken into account (see `withFlinkNow`). */
  async diagnose(diagnosis: JobDiagnosis): Promise<JobDiagnosis> {
    if (diagnosis.finding.severity === 'critical' || diagnosis.finding.severity === 'warning') return withFlinkNow(diagnosis, null);
    return withFlinkNow(diagnosis, await this.graph(diagnosis.clusterId, diagnosis.jobId));
  }

  private async graph(clusterId: string, jobId: string): Promise<JobGraph | null> {
    const key = `${clusterId}\u0000${jobId}`;
    const known = this.latest.get(key);
    if (known && this.now() - known.seenAt <= this.maxAgeMs) return known;
    const failed = this.failedAt.get(key);
    if (failed !== undefined && this.now() - failed <= this.maxAgeMs) return null;
    try {
      const graph = await this.fetchGraph(clusterId, jobId);
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
}
