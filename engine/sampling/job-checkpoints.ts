import type { CheckpointDetail, JobCheckpoints } from '../contracts/history.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { CheckpointRecord } from '../history/checkpoint-history.ts';
import { checkpointSubtaskRows } from '../history/checkpoint-subtasks.ts';
import { checkpointView, detailView, type CheckpointDetailVertex } from '../history/views/checkpoint-views.ts';
import { checkpointsIn, toCheckpointOverview, toCheckpointRecord, toCheckpointSubtaskColumns, toCheckpointVertexRecords } from './checkpoint-records.ts';

/**
 * A job's checkpoints straight from the cluster, for a job the console does not record (the CLI): what the
 * JobManager still remembers (`web.checkpoints.history`, 10 by default) in the history's shapes. 1 request.
 */
export async function fetchJobCheckpoints(client: FlinkRestClient, clusterId: string, jobId: string, jobName: string, limit: number): Promise<JobCheckpoints & { records: CheckpointRecord[] }> {
  let statistics;
  try {
    statistics = await client.request(endpoints.jobCheckpoints, { jobid: jobId });
  } catch (error) {
    // Flink answers 404 "Checkpointing has not been enabled." for a job without checkpoints.
    if (error instanceof EngineError && error.info.kind === 'not-found') {
      return { ...empty(clusterId, jobId, jobName), emptyReason: 'Checkpointing is not enabled for this job.', records: [] };
    }
    throw error;
  }
  const now = Date.now();
  const records = checkpointsIn(statistics)
    .map((wire) => toCheckpointRecord(wire, now))
    .sort((a, b) => a.triggerTimestamp - b.triggerTimestamp)
    .slice(-limit);
  const views = records.map((r) => checkpointView(r, records));
  const latest = (wire: Parameters<typeof toCheckpointRecord>[0] | null | undefined) => (wire ? checkpointView(toCheckpointRecord(wire, now), records) : null);
  const overview = toCheckpointOverview(statistics, now);
  return {
    ...empty(clusterId, jobId, jobName),
    checkpoints: views,
    inHistory: views.length,
    flink: { counts: overview.counts, summary: overview.summary, reportedAt: now },
    latestCompleted: latest(statistics.latest?.completed),
    latestSavepoint: latest(statistics.latest?.savepoint),
    latestFailed: latest(statistics.latest?.failed),
    restored: overview.restored,
    emptyReason: views.length === 0 ? 'The JobManager reports no checkpoint of this job yet.' : null,
    records,
  };
}

/** One checkpoint's details straight from the cluster: 1 + V requests (details, then each vertex's subtasks). */
export async function fetchCheckpointDetail(
  client: FlinkRestClient,
  clusterId: string,
  jobId: string,
  record: CheckpointRecord,
  jobVertices: Array<{ id: string; name: string }>,
): Promise<CheckpointDetail> {
  const params = { jobid: jobId, checkpointid: String(record.id) };
  const details = await client.request(endpoints.checkpointDetails, params);
  const vertexRecords = toCheckpointVertexRecords(details);
  const vertices = await Promise.all(
    vertexRecords.map(async (vertex): Promise<CheckpointDetailVertex> => {
      try {
        const task = await client.request(endpoints.checkpointSubtaskDetails, { ...params, vertexid: vertex.vertexId });
        return { ...vertex, name: vertex.vertexId, subtasks: checkpointSubtaskRows(toCheckpointSubtaskColumns(task)), subtasksUnavailable: null };
      } catch (error) {
        return { ...vertex, name: vertex.vertexId, subtasks: null, subtasksUnavailable: error instanceof EngineError ? error.info.message : String(error) };
      }
    }),
  );
  return detailView(clusterId, jobId, { ...toCheckpointRecord(details, Date.now(), record), vertices: vertexRecords }, vertices, jobVertices);
}

function empty(clusterId: string, jobId: string, jobName: string): JobCheckpoints {
  return {
    clusterId,
    jobId,
    jobName,
    checkpoints: [],
    inHistory: 0,
    flink: null,
    latestCompleted: null,
    latestSavepoint: null,
    latestFailed: null,
    restored: null,
    markers: [],
    emptyReason: null,
    watch: null,
  };
}
