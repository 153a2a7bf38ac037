import { FlinkRestClient } from '../flink-rest/client.ts';
import { fetchTaskManagers, TASKMANAGER_METRICS_LIMIT } from '../sampling/taskmanagers.ts';

export interface TaskManagersCost {
  taskManagers: number;
  requests: number;
  /** 1 + one metrics request per TaskManager, for the first TASKMANAGER_METRICS_LIMIT. */
  budget: number;
  bytes: number;
  millis: number;
}

/** One refresh of the cluster page's TaskManagers panel: what it costs a cluster. */
export async function measureTaskManagersRefresh(baseUrl: string): Promise<TaskManagersCost> {
  const client = new FlinkRestClient({ baseUrl, timeoutMs: 30_000 });
  const started = performance.now();
  const views = await fetchTaskManagers(client);
  return {
    taskManagers: views.length,
    requests: client.stats.requests,
    budget: 1 + Math.min(views.length, TASKMANAGER_METRICS_LIMIT),
    bytes: client.stats.bytes,
    millis: performance.now() - started,
  };
}
