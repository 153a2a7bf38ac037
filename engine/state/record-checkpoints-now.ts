import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { CheckpointSync } from '../sampling/checkpoint-sync.ts';
import { sampleJob } from '../sampling/sample-job.ts';

/**
 * For a job the console never watched: one sample of its graph and what the JobManager still keeps of its checkpoints
 * (`web.checkpoints.history`, 10 by default), each with its details, written into `store` (the CLI's own, in the OS
 * temp folder), so the State view is made the one way it always is. Costs 1 sample + 1 + (1 + V) per checkpoint.
 */
export async function recordCheckpointsNow(client: FlinkRestClient, store: HistoryStore, clusterId: string, jobId: string): Promise<number> {
  const sample = await sampleJob(client, clusterId, jobId, undefined);
  await store.samples.append(sample);
  let statistics;
  try {
    statistics = await client.request(endpoints.jobCheckpoints, { jobid: jobId });
  } catch (error) {
    if (isCheckpointingDisabled(error)) throw new EngineError('not-found', noCheckpointingSentence(jobId), { endpoint: error.info.endpoint, status: 404 });
    throw error;
  }
  const sync = new CheckpointSync(store, clusterId, jobId);
  const outcome = await sync.sync(client, statistics, sample, { detailsBudget: 1000 });
  return outcome.detailsFetched;
}

/** What the State view says of a job whose checkpoints Flink does not track. */
export function noCheckpointingSentence(jobId: string): string {
  return `Job ${jobId} has no checkpointing enabled: its state is known only at checkpoints.`;
}

/** Flink answers `GET /jobs/:id/checkpoints` of a job without checkpointing with 404 "Checkpointing has not been enabled." */
function isCheckpointingDisabled(error: unknown): error is EngineError {
  return error instanceof EngineError && error.info.kind === 'not-found' && /Checkpointing has not been enabled/i.test(error.message);
}
