import { parseClusterUrl } from '../flink-rest/client.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { openClusterStore } from './data-dir.ts';

/** A job the app recorded, as the history keys it. */
export interface Recording {
  clusterId: string;
  jobId: string;
}

/**
 * The console's recording of a job's checkpoints, if any: by job id (or name, when the cluster did not answer),
 * preferring the saved cluster with this URL. Job ids are unique across clusters in practice.
 */
export function findRecording(history: HistoryStore, clusterUrl: string, dataDir: string | undefined, idOrName: string): Recording | undefined {
  const url = parseClusterUrl(clusterUrl);
  const saved = new Set(openClusterStore(dataDir).list().filter((c) => c.url === url).map((c) => c.id));
  const candidates = [
    ...history.samples.jobs().filter((j) => j.jobId === idOrName || j.jobName === idOrName).map((j) => ({ clusterId: j.clusterId, jobId: j.jobId })),
    ...history.checkpoints.jobs().filter((j) => j.jobId === idOrName),
  ].filter((j) => history.checkpoints.count(j.clusterId, j.jobId) > 0);
  return candidates.find((j) => saved.has(j.clusterId)) ?? candidates[0];
}
