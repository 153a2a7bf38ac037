import type { HistoryStore } from '../history/history-store.ts';
import { assembleJobWindow, vertexWindowStats, type JobWindowStats, type WindowStatsOptions } from '../analysis/window-stats.ts';

/**
 * A job's window figures straight from the history store, one vertex at a time: a 200-vertex × 1,024-subtask job
 * over 15 minutes never has more than one vertex's samples in memory (a whole window would be gigabytes).
 */
export function readJobWindow(store: HistoryStore, clusterId: string, jobId: string, from: number, to: number, options: WindowStatsOptions = {}): JobWindowStats {
  const heads = store.samples.heads(clusterId, jobId, from, to);
  const last = heads[heads.length - 1];
  if (!last) return assembleJobWindow([], undefined, []);
  const jobStartAt = new Map(heads.map((h) => [h.t, h.jobStartTime]));
  const vertices = last.vertices.map((v) =>
    vertexWindowStats(
      store.samples.vertexWindow(clusterId, jobId, v.id, from, to).map(({ t, vertex }) => ({ t, vertex, jobStartTime: jobStartAt.get(t) })),
      options,
    ),
  );
  return assembleJobWindow(heads, { ...last, clusterId, jobId }, vertices);
}
