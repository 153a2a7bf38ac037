import type { BeforeAfter } from '../contracts/before-after.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { readBeforeAfter } from '../operations/before-after.ts';
import { OperationsJournal, publicEntry } from '../operations/journal.ts';

/**
 * The skew report's Before/after: each rescale or resubmit of the job that started inside the window (or, for the job
 * a resubmit started, the one that started it), from the journal kept in the same store. Judged at the window's end,
 * never the clock, so the same history gives the same report.
 */
export function readReportOperations(store: HistoryStore, clusterId: string, jobId: string, from: number, to: number): BeforeAfter[] {
  return new OperationsJournal(store)
    .list({ clusterId, limit: 1000 })
    .map(publicEntry)
    .filter((e) => (e.kind === 'rescale' || e.kind === 'resubmit') && e.state === 'succeeded' && e.parentId === null)
    .filter((e) => e.createdAt <= to && ((e.jobId === jobId && e.createdAt >= from) || e.newJobId === jobId))
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((e) => (e.beforeAfter?.complete ? e.beforeAfter : readBeforeAfter(store, e, to)));
}
