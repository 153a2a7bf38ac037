import type { FlinkRestClient } from '../flink-rest/client.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import type { z } from 'zod';
import type { SavepointHistory } from '../flink-rest/operation-schemas.ts';

type History = z.infer<typeof SavepointHistory>;
type HistoryEntry = NonNullable<History['history']>[number];

/** `web.checkpoints.history`'s default: the JobManager lists at most this many recent checkpoints. */
const HISTORY_SIZE = 10;

/**
 * What the job's checkpoint history says about savepoints since a moment: the evidence used when the JobManager
 * does not know a trigger id (was it never received, or received and forgotten?).
 */
export interface SavepointEvidence {
  /** A savepoint triggered at or after the moment, if the history shows one (newest first). */
  since: HistoryEntry | null;
  /** True when the history reaches back before the moment, so "none since" is a fact, not a gap. */
  covers: boolean;
}

/** Reads the history of a job; null when the cluster cannot say (no checkpointing statistics, unreachable). */
export async function savepointEvidence(client: FlinkRestClient, jobId: string, since: number, accountedFor: ReadonlySet<string>): Promise<SavepointEvidence | null> {
  let body: History;
  try {
    body = await client.request(operationEndpoints.savepointHistory, { jobid: jobId });
  } catch {
    return null;
  }
  return evidenceFrom(body, since, accountedFor);
}

/**
 * Pure: the evidence in a history body. A clock skew of up to 2 s between console and JobManager is tolerated, so a
 * savepoint another operation took just before is in range: those whose paths are in `accountedFor` (the outcomes
 * of the journal's other operations) are not evidence.
 */
export function evidenceFrom(body: History, since: number, accountedFor: ReadonlySet<string>, skewMs = 2_000): SavepointEvidence {
  const history = body.history ?? [];
  const unexplained = (h: Pick<HistoryEntry, 'trigger_timestamp' | 'external_path'>) =>
    h.trigger_timestamp >= since - skewMs && !(h.external_path && accountedFor.has(h.external_path));
  const savepoints = history.filter((h) => h.is_savepoint && unexplained(h));
  const latest = body.latest?.savepoint;
  if (latest && unexplained(latest) && !savepoints.some((s) => s.id === latest.id)) savepoints.push(latest);
  savepoints.sort((a, b) => b.trigger_timestamp - a.trigger_timestamp);
  const oldest = history.reduce((min, h) => Math.min(min, h.trigger_timestamp), Infinity);
  return { since: savepoints[0] ?? null, covers: history.length < HISTORY_SIZE || oldest < since - skewMs };
}

/** "a savepoint was completed at 12:03:04 (file:/…/savepoint-1a2b3c-…)" for a hint. */
export function describeEvidence(entry: HistoryEntry): string {
  const when = new Date(entry.latest_ack_timestamp && entry.latest_ack_timestamp > 0 ? entry.latest_ack_timestamp : entry.trigger_timestamp).toISOString();
  const what = entry.status === 'COMPLETED' ? `completed at ${when}` : `${entry.status.toLowerCase().replace('_', ' ')} (triggered ${when})`;
  return `the job's checkpoint history shows savepoint ${entry.id} ${what}${entry.external_path ? ` at ${entry.external_path}` : ''}`;
}
