import type { SavepointListing } from '../contracts/operations.ts';
import { flinkSpelling } from '../contracts/flink-path.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import type { OperationsJournal, StoredJournalEntry } from './journal.ts';

/**
 * A job's savepoints, and those of the runs it came from (a resubmit or a rescale through a savepoint starts a new
 * job id): from the journal, the history store's checkpoint history, and the cluster's own checkpoint history.
 */

/** The job ids of this run and the earlier runs it was resubmitted from, newest first. */
export function lineage(journal: OperationsJournal, clusterId: string, jobId: string): string[] {
  const runs = [jobId];
  const entries = journal.list({ clusterId, limit: Number.MAX_SAFE_INTEGER });
  for (let current = jobId; ; ) {
    const from = entries.find((e) => e.newJobId === current && e.jobId && e.jobId !== current && (e.kind === 'resubmit' || e.kind === 'rescale'));
    if (!from || runs.includes(from.jobId!)) return runs;
    runs.push(from.jobId!);
    current = from.jobId!;
  }
}

function fromJournal(entry: StoredJournalEntry): SavepointListing | null {
  // A rescale's savepoint is its stop step's, listed through that step.
  if (entry.state !== 'succeeded' || !entry.resultPath || !entry.jobId || !(entry.kind === 'savepoint' || entry.kind === 'stop')) return null;
  return {
    path: entry.resultPath,
    time: entry.finishedAt ?? entry.updatedAt,
    format: entry.params.format ?? 'canonical',
    jobId: entry.jobId,
    jobName: entry.jobName,
    kind: entry.kind,
    source: 'journal',
    checkpointId: null,
  };
}

function formatOf(raw: string | null | undefined): SavepointListing['format'] {
  const f = raw?.toLowerCase();
  return f === 'canonical' || f === 'native' ? f : null;
}

export async function listSavepoints(options: {
  journal: OperationsJournal;
  history: HistoryStore;
  client: FlinkRestClient | null;
  clusterId: string;
  jobId: string;
}): Promise<SavepointListing[]> {
  const runs = lineage(options.journal, options.clusterId, options.jobId);
  const found = new Map<string, SavepointListing>();
  const add = (s: SavepointListing) => {
    const existing = found.get(s.path);
    // The journal knows how it was taken; the history knows the checkpoint id: keep both.
    found.set(s.path, existing ? { ...s, ...existing, checkpointId: existing.checkpointId ?? s.checkpointId } : s);
  };
  for (const e of options.journal.list({ clusterId: options.clusterId, limit: Number.MAX_SAFE_INTEGER })) {
    if (e.jobId && runs.includes(e.jobId)) {
      const listing = fromJournal(e);
      if (listing) add(listing);
    }
  }
  for (const jobId of runs) {
    const name = options.journal.list({ clusterId: options.clusterId, jobId }).find((e) => e.jobId === jobId)?.jobName ?? null;
    for (const c of options.history.checkpoints.list(options.clusterId, jobId)) {
      if (!c.isSavepoint || c.status !== 'COMPLETED' || !c.externalPath) continue;
      add({
        path: c.externalPath,
        time: c.latestAckTimestamp ?? c.triggerTimestamp,
        format: formatOf(c.savepointFormat),
        jobId,
        jobName: name,
        kind: c.checkpointType === 'SYNC_SAVEPOINT' ? 'stop' : c.checkpointType === 'SAVEPOINT' ? 'savepoint' : 'unknown',
        source: 'checkpoint-history',
        checkpointId: c.id,
      });
    }
    if (!options.client) continue;
    try {
      const body = await options.client.request(operationEndpoints.savepointHistory, { jobid: jobId });
      const entries = [...(body.history ?? []), ...(body.latest?.savepoint ? [body.latest.savepoint] : [])];
      for (const c of entries) {
        if (!c.is_savepoint || c.status !== 'COMPLETED' || !c.external_path) continue;
        add({
          path: c.external_path,
          time: c.latest_ack_timestamp && c.latest_ack_timestamp > 0 ? c.latest_ack_timestamp : c.trigger_timestamp,
          format: formatOf(c.savepointFormat),
          jobId,
          jobName: name,
          kind: c.checkpoint_type === 'SYNC_SAVEPOINT' ? 'stop' : c.checkpoint_type === 'SAVEPOINT' ? 'savepoint' : 'unknown',
          source: 'checkpoint-history',
          checkpointId: c.id,
        });
      }
    } catch {
      // The cluster no longer knows that run, or has no checkpoint statistics: the journal's record stands.
    }
  }
  // A savepoint Flink has disposed is forgotten: only a succeeded disposal (Flink said COMPLETED) removes it.
  const disposed = new Set(
    options.journal
      .list({ clusterId: options.clusterId, kind: 'dispose-savepoint', state: 'succeeded', limit: Number.MAX_SAFE_INTEGER })
      .map((e) => flinkSpelling(e.params.savepointPath ?? '')),
  );
  return [...found.values()].filter((s) => !disposed.has(flinkSpelling(s.path))).sort((a, b) => b.time - a.time);
}
