import { stringify } from 'csv-stringify/sync';
import type { JournalEntry, JournalExport, JournalFilter } from '../contracts/operations.ts';

/** The journal as a file: CSV (one row per operation, for a spreadsheet) or JSON (everything, for a script). Pure. */

const COLUMNS: Array<[header: string, value: (e: JournalEntry) => string | number | null]> = [
  ['created', (e) => new Date(e.createdAt).toISOString()],
  ['finished', (e) => (e.finishedAt === null ? null : new Date(e.finishedAt).toISOString())],
  ['cluster', (e) => e.clusterName],
  ['cluster_url', (e) => e.clusterUrl],
  ['job_id', (e) => e.jobId],
  ['job_name', (e) => e.jobName],
  ['kind', (e) => e.kind],
  ['state', (e) => e.state],
  ['trigger_id', (e) => e.id],
  ['parameters', (e) => JSON.stringify(e.params)],
  ['savepoint_path', (e) => e.resultPath],
  ['new_job_id', (e) => e.newJobId],
  ['failure', (e) => e.failure],
  ['failure_detail', (e) => e.failureDetail],
  ['origin', (e) => e.origin],
  ['part_of', (e) => e.parentId],
  ['trigger_requests', (e) => e.requests.trigger],
  ['poll_requests', (e) => e.requests.poll],
  // A resubmit's new job beside the stopped run: empty when not compared, `none` when nothing changed.
  ['shape_changes', (e) => (e.shapeChanges === undefined ? null : e.shapeChanges.map((c) => c.words).join('; ') || 'none')],
];

export function journalToCsv(entries: JournalEntry[]): string {
  return stringify([COLUMNS.map(([h]) => h), ...entries.map((e) => COLUMNS.map(([, value]) => value(e) ?? ''))]);
}

export function exportJournal(entries: JournalEntry[], filter: JournalFilter, format: 'csv' | 'json', now: number): JournalExport {
  const scope = filter.jobId ? `job-${filter.jobId.slice(0, 8)}` : filter.clusterId ? `cluster-${filter.clusterId.replace(/[^\w-]+/g, '_').slice(0, 40)}` : 'all';
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  if (format === 'csv') return { fileName: `flink-ops-journal-${scope}-${stamp}.csv`, mimeType: 'text/csv', content: journalToCsv(entries) };
  return { fileName: `flink-ops-journal-${scope}-${stamp}.json`, mimeType: 'application/json', content: `${JSON.stringify({ exportedAt: new Date(now).toISOString(), filter, entries }, null, 2)}\n` };
}
