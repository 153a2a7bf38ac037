import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { CheckpointSync } from '../sampling/checkpoint-sync.ts';

/**
 * Brings a watched job's checkpoints in the history up to the cluster's, as the State view opens or refreshes: the
 * sampler reads `/checkpoints` once a minute and one checkpoint's details at most per minute, so without this the view
 * would show state a minute or more behind the JobManager. Costs 1 request, plus 1 + V once for each of the newest
 * completed checkpoints (`DETAILS_PER_VIEW`; details are stored, never asked again). A page's requests: only while the
 * view is open.
 * Rejects only when the cluster says checkpointing is not enabled; any other failure leaves the history as it is.
 */
export async function syncCheckpointsForView(client: FlinkRestClient, store: HistoryStore, clusterId: string, jobId: string, now: number): Promise<void> {
  let statistics;
  try {
    statistics = await client.request(endpoints.jobCheckpoints, { jobid: jobId });
  } catch (error) {
    if (/checkpointing has not been enabled/i.test((error as Error).message)) throw error;
    return;
  }
  const sync = new CheckpointSync(store, clusterId, jobId);
  const { listed } = await sync.record(statistics, now);
  // The newest few: a view opened on a job watched for a while fills its chart at once, not one checkpoint a refresh.
  const newest = listed
    .filter((c) => c.status === 'COMPLETED')
    .sort((a, b) => b.triggerTimestamp - a.triggerTimestamp)
    .slice(0, DETAILS_PER_VIEW);
  for (const c of newest) await sync.fetchOpened(client, c.triggerTimestamp, c.id, now).catch(() => false);
}

/** Completed checkpoints whose details one view request may fetch (each only once: stored ones cost nothing). */
const DETAILS_PER_VIEW = 5;
