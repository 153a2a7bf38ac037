import type { TaskManagerMetrics, TaskManagerView } from '../contracts/clusters.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';

type TaskManagersInfo = ResponseOf<typeof endpoints.taskManagers>;
type MetricCollection = ResponseOf<typeof endpoints.taskManagerMetrics>;

/** The TaskManager-scope metrics the panel shows, by name; the same on Flink 2.2.1 and 1.20.3. */
export const TASKMANAGER_METRICS = {
  heapUsed: 'Status.JVM.Memory.Heap.Used',
  heapMax: 'Status.JVM.Memory.Heap.Max',
  managedMemoryUsed: 'Status.Flink.Memory.Managed.Used',
  managedMemoryTotal: 'Status.Flink.Memory.Managed.Total',
  cpuLoad: 'Status.JVM.CPU.Load',
  networkBuffersUsed: 'Status.Shuffle.Netty.UsedMemorySegments',
  networkBuffersTotal: 'Status.Shuffle.Netty.TotalMemorySegments',
} as const satisfies Record<keyof TaskManagerMetrics, string>;

/**
 * Metrics are fetched for this many TaskManagers at most (one request each): a refresh of the panel costs at most
 * 1 + 50 requests however large the cluster; the others show their slots and heartbeat only.
 */
export const TASKMANAGER_METRICS_LIMIT = 50;

/** `GET /taskmanagers`, then one metrics request per TaskManager (the first TASKMANAGER_METRICS_LIMIT, by id). */
export async function fetchTaskManagers(client: FlinkRestClient): Promise<TaskManagerView[]> {
  const info = await client.request(endpoints.taskManagers);
  const ids = info.taskmanagers.map((tm) => tm.id).sort().slice(0, TASKMANAGER_METRICS_LIMIT);
  const metrics = new Map(await Promise.all(ids.map(async (id) => [id, await fetchMetrics(client, id)] as const)));
  return toTaskManagerViews(info, metrics);
}

async function fetchMetrics(client: FlinkRestClient, taskManagerId: string): Promise<MetricCollection | null> {
  try {
    return await client.request(endpoints.taskManagerMetrics, { taskmanagerid: taskManagerId }, { get: Object.values(TASKMANAGER_METRICS).join(',') });
  } catch (error) {
    // A TaskManager can leave between the two calls (lost, scaled in): shown without metrics, not as an error.
    if (error instanceof EngineError && (error.info.kind === 'not-found' || error.info.kind === 'server-error')) return null;
    throw error;
  }
}

/** Pure: `/taskmanagers` and each one's metrics (null: not fetched) → the panel's rows, sorted by id. */
export function toTaskManagerViews(info: TaskManagersInfo, metrics: ReadonlyMap<string, MetricCollection | null>): TaskManagerView[] {
  return info.taskmanagers
    .map((tm): TaskManagerView => {
      // `pekko.tcp://flink@127.0.0.1:38319/user/rpc/taskmanager_0` → 127.0.0.1:38319 (its RPC address)
      const address = /@([^/]+)\//.exec(tm.path ?? '')?.[1] ?? null;
      const host = address?.replace(/:\d+$/, '') ?? null;
      const collection = metrics.get(tm.id) ?? null;
      return {
        id: tm.id,
        address,
        // A subtask's `endpoint` is its TaskManager's host and data port.
        endpoint: host !== null && tm.dataPort !== undefined && tm.dataPort > 0 ? `${host}:${tm.dataPort}` : null,
        slotsTotal: tm.slotsNumber,
        slotsFree: tm.freeSlots,
        lastHeartbeat: tm.timeSinceLastHeartbeat && tm.timeSinceLastHeartbeat > 0 ? tm.timeSinceLastHeartbeat : null,
        metrics: collection === null ? null : toMetrics(collection),
      };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}

function toMetrics(collection: MetricCollection): TaskManagerMetrics {
  const values = new Map(collection.map((m) => [m.id, m.value === undefined ? Number.NaN : Number(m.value)]));
  const read = (name: string): number | null => {
    const value = values.get(name);
    return value !== undefined && Number.isFinite(value) && value >= 0 ? value : null;
  };
  return Object.fromEntries(Object.entries(TASKMANAGER_METRICS).map(([key, name]) => [key, read(name)])) as unknown as TaskManagerMetrics;
}
