import { COUNTER_COLUMNS, RATE_COLUMNS, emptySubtaskColumns, stateCode, type JobSample } from '../job-sample.ts';

/**
 * A deterministic sample: every value derives from (t, vertex, subtask), so a test (or a crash-test child process)
 * can rebuild what must be in the store and compare it exactly.
 */
export function syntheticSample(options: { clusterId?: string; jobId?: string; t: number; vertices?: number; parallelism?: number }): JobSample {
  const { t } = options;
  const vertices = options.vertices ?? 3;
  const parallelism = options.parallelism ?? 4;
  return {
    clusterId: options.clusterId ?? 'c1',
    jobId: options.jobId ?? 'a'.repeat(32),
    t,
    jobName: 'synthetic',
    jobState: 'RUNNING',
    jobStartTime: 1_000,
    taskManagers: [{ id: 'tm-1', endpoint: '127.0.0.1:6121' }],
    lastCompletedCheckpointId: null,
    requests: 2 * vertices + 2,
    bytes: 1_000,
    edges: Array.from({ length: vertices - 1 }, (_, v) => ({ source: vertexId(v), target: vertexId(v + 1), shipStrategy: 'HASH' })),
    vertices: Array.from({ length: vertices }, (_, v) => {
      const subtasks = emptySubtaskColumns(parallelism);
      for (let i = 0; i < parallelism; i++) {
        COUNTER_COLUMNS.forEach((c, k) => (subtasks.counters[c][i] = t * 10 + v * 100 + i + k));
        subtasks.countersSince[i] = t;
        RATE_COLUMNS.forEach((c, k) => (subtasks.rates[c][i] = (v + i + k) % 1000));
        subtasks.watermark[i] = i === 0 ? Number.NaN : t - 1000;
        subtasks.checkpointedBytes[i] = 4096 * (i + 1);
        subtasks.attempt[i] = 0;
        subtasks.state[i] = stateCode('RUNNING');
        subtasks.taskManager[i] = 0;
      }
      return { id: vertexId(v), name: `vertex ${v}`, parallelism, maxParallelism: 128, status: 'RUNNING', subtasks };
    }),
  };
}

export function vertexId(v: number): string {
  return v.toString(16).padStart(32, '0');
}
