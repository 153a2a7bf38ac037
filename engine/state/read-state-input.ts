import { keyedVertexIds } from '../analysis/keyed-vertices.ts';
import type { StateAnalysisInput, StateCheckpointInput, StateVertexInput } from '../analysis/state-analysis.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { checkpointSubtaskRows } from '../history/checkpoint-subtasks.ts';
import type { HistoryStore } from '../history/history-store.ts';

/** Flink's plan names a broadcast exchange (`BroadcastPartitioner`) `BROADCAST`. */
export const BROADCAST_SHIP_STRATEGY = 'BROADCAST';

/**
 * What the state analysis reads of a job from the console's history: per vertex of its newest sample, every
 * completed checkpoint kept (the vertex's full and written sizes, and per subtask where the details are stored), and
 * when it was restored. The window ends at the newest checkpoint (or `endAt`, the CLI's now).
 */
export function readStateInput(store: HistoryStore, clusterId: string, jobId: string, windowMs: number, endAt?: number): Omit<StateAnalysisInput, 'rocksdbStatus'> {
  const sampled = store.samples.job(clusterId, jobId);
  const sample = store.samples.latest(clusterId, jobId);
  if (!sampled || !sample) throw new EngineError('not-found', `The history has no samples of job ${jobId} on ${clusterId}: watch the job first.`);
  const checkpoints = store.checkpoints.list(clusterId, jobId).filter((c) => c.status === 'COMPLETED');
  const keyed = keyedVertexIds(sample.edges);
  const broadcast = new Set(sample.edges.filter((e) => e.shipStrategy.toUpperCase() === BROADCAST_SHIP_STRATEGY).map((e) => e.target));
  const vertices: StateVertexInput[] = sample.vertices.map((v) => ({
    vertexId: v.id,
    name: v.name,
    parallelism: v.parallelism,
    maxParallelism: v.maxParallelism,
    keyed: keyed.has(v.id),
    broadcastInput: broadcast.has(v.id),
    rocksdb: null,
    checkpoints: checkpoints.flatMap((c): StateCheckpointInput[] => {
      const part = c.vertices?.find((x) => x.vertexId === v.id);
      if (!part) return [];
      const columns = store.checkpoints.subtasks(clusterId, jobId, c.triggerTimestamp, c.id, v.id);
      const subtasks = columns ? checkpointSubtaskRows(columns).map((s) => ({ stateBytes: s.stateBytes, checkpointedBytes: s.checkpointedBytes })) : null;
      return [{ checkpointId: c.id, t: c.triggerTimestamp, stateBytes: part.stateBytes, subtasks }];
    }),
  }));
  const restores = store.events
    .list(clusterId, jobId, -Infinity, Infinity)
    .filter((e) => e.kind === 'checkpoint-restored')
    .map((e) => e.t);
  const newest = checkpoints[checkpoints.length - 1]?.triggerTimestamp;
  return { clusterId, jobId, jobName: sampled.jobName, to: endAt ?? newest ?? sampled.lastSampleAt, windowMs, vertices, restores };
}
