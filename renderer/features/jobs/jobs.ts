import type { JobSummary } from '../../../engine/contracts/jobs';

const TERMINAL = new Set(['FINISHED', 'CANCELED', 'CANCELLED', 'FAILED', 'SUSPENDED']);

export function isTerminal(state: string): boolean {
  return TERMINAL.has(state.toUpperCase());
}

/**
 * A running job's duration keeps ticking between refreshes: the engine's duration plus the time since
 * it was fetched (not `now - startTime`, which would mix the cluster's clock with this machine's).
 */
export function liveDuration(job: Pick<JobSummary, 'durationMs' | 'endTime' | 'state'>, fetchedAt: number | null, now: number): number {
  if (job.endTime != null || isTerminal(job.state) || fetchedAt == null) return job.durationMs;
  return job.durationMs + Math.max(0, now - fetchedAt);
}

const STATE_ORDER: Record<string, number> = { FAILING: 0, RESTARTING: 1, RUNNING: 2, CREATED: 3, INITIALIZING: 3 };

/** Jobs that need attention first (failing, restarting, running), then the newest. */
export function sortJobs(jobs: readonly JobSummary[]): JobSummary[] {
  return [...jobs].sort((a, b) => {
    const rank = (STATE_ORDER[a.state.toUpperCase()] ?? 9) - (STATE_ORDER[b.state.toUpperCase()] ?? 9);
    return rank !== 0 ? rank : b.startTime - a.startTime;
  });
}

export function filterJobs(jobs: readonly JobSummary[], query: string): JobSummary[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [...jobs];
  return jobs.filter(
    (j) => j.name.toLowerCase().includes(q) || j.id.toLowerCase().includes(q) || j.state.toLowerCase().includes(q),
  );
}
