import type { MemoryFigure, ProcessFigures } from '../contracts/inspect.ts';
import type { FlinkRestClient, RequestOptions, TrafficStats } from '../flink-rest/client.ts';
import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import { viewEndpoints } from '../flink-rest/view-endpoints.ts';

type MetricCollection = ResponseOf<typeof viewEndpoints.jobManagerMetrics>;
type TaskManagerDetails = ResponseOf<typeof viewEndpoints.taskManagerDetails>;

/** The process-scope metrics read by name (the same in Flink 1.18–2.3); the collectors' own names are listed first. */
const PROCESS_METRICS = {
  heapUsed: 'Status.JVM.Memory.Heap.Used',
  heapCommitted: 'Status.JVM.Memory.Heap.Committed',
  heapMax: 'Status.JVM.Memory.Heap.Max',
  nonHeapUsed: 'Status.JVM.Memory.NonHeap.Used',
  nonHeapCommitted: 'Status.JVM.Memory.NonHeap.Committed',
  nonHeapMax: 'Status.JVM.Memory.NonHeap.Max',
  metaspaceUsed: 'Status.JVM.Memory.Metaspace.Used',
  metaspaceCommitted: 'Status.JVM.Memory.Metaspace.Committed',
  metaspaceMax: 'Status.JVM.Memory.Metaspace.Max',
  directUsed: 'Status.JVM.Memory.Direct.MemoryUsed',
  directTotal: 'Status.JVM.Memory.Direct.TotalCapacity',
  directCount: 'Status.JVM.Memory.Direct.Count',
  managedUsed: 'Status.Flink.Memory.Managed.Used',
  managedTotal: 'Status.Flink.Memory.Managed.Total',
  cpuLoad: 'Status.JVM.CPU.Load',
  threads: 'Status.JVM.Threads.Count',
  gcTimeMsPerSecond: 'Status.JVM.GarbageCollector.All.TimeMsPerSecond',
  // A TaskManager's network buffers; its details carry them too, the metrics are what the history samples.
  networkSegmentsUsed: 'Status.Shuffle.Netty.UsedMemorySegments',
  networkSegmentsTotal: 'Status.Shuffle.Netty.TotalMemorySegments',
  networkBytesUsed: 'Status.Shuffle.Netty.UsedMemory',
  networkBytesTotal: 'Status.Shuffle.Netty.TotalMemory',
} as const;

/** A JVM has a few collectors (G1 young and old, and Flink's `All`): a longer list is not read whole. */
const MAX_COLLECTOR_METRICS = 16;

const GC_METRIC = /^Status\.JVM\.GarbageCollector\.([^.]+)\.(Count|Time)$/;

/** The TaskManager id Flink gives (`127.0.0.1:36653-7d3306`, a UUID, a pod name): text of a bounded size. */
const MAX_PROCESS_ID_LENGTH = 256;

/**
 * The JobManager's figures (its metric names, then their values: 2 requests) or a TaskManager's (its details, with
 * memory configuration and collectors, and its process metrics: 2 requests). Read only while the view is open.
 */
export async function fetchProcessFigures(client: FlinkRestClient, clusterId: string, processId: string, note: string | null): Promise<ProcessFigures> {
  const tally: TrafficStats = { requests: 0, bytes: 0 };
  const options = { tally };
  if (processId === 'jobmanager') {
    const values = await fetchProcessMetrics(client, processId, await processMetricIds(client, processId, options), options);
    return { ...toProcessFigures(clusterId, processId, values, null), note, fetchedAt: Date.now(), requestCount: tally.requests };
  }
  const params = { taskmanagerid: processId };
  const [details, values] = await Promise.all([
    client.request(viewEndpoints.taskManagerDetails, params, undefined, options),
    client.request(endpoints.taskManagerMetrics, params, { get: Object.values(PROCESS_METRICS).join(',') }, options),
  ]);
  return { ...toProcessFigures(clusterId, processId, values, details), note, fetchedAt: Date.now(), requestCount: tally.requests };
}

/**
 * The process metrics a process reports, by its list of metric names (1 request): the ones read by name that it has,
 * and its collectors' counts and times, whose names depend on the JVM's collectors.
 */
export async function processMetricIds(client: FlinkRestClient, processId: string, options: RequestOptions = {}): Promise<string[]> {
  const names = processId === 'jobmanager'
    ? await client.request(viewEndpoints.jobManagerMetrics, {}, undefined, options)
    : await client.request(endpoints.taskManagerMetrics, { taskmanagerid: processId }, undefined, options);
  const present = new Set(names.map((m) => m.id));
  const collectors = names.map((m) => m.id).filter((id) => GC_METRIC.test(id)).slice(0, MAX_COLLECTOR_METRICS);
  return [...Object.values(PROCESS_METRICS).filter((id) => present.has(id)), ...collectors];
}

/** The values of metrics of the JobManager (`processId` "jobmanager") or a TaskManager: 1 request, none for no ids. */
export async function fetchProcessMetrics(client: FlinkRestClient, processId: string, ids: string[], options: RequestOptions = {}): Promise<MetricCollection> {
  if (ids.length === 0) return [];
  const query = { get: ids.join(',') };
  return processId === 'jobmanager'
    ? client.request(viewEndpoints.jobManagerMetrics, {}, query, options)
    : client.request(endpoints.taskManagerMetrics, { taskmanagerid: processId }, query, options);
}

export function checkProcessId(processId: string): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (processId === '' || processId.length > MAX_PROCESS_ID_LENGTH || /[\u0000-\u001f/]/.test(processId)) return null;
  return processId;
}

/**
 * Pure: metrics (and a TaskManager's details) → figures. The details' numbers are the Web UI's; the metrics fill in
 * what the details lack (metaspace, managed memory, CPU, threads) and are the JobManager's only source.
 */
export function toProcessFigures(
  clusterId: string,
  processId: string,
  metrics: MetricCollection,
  details: TaskManagerDetails | null,
): Omit<ProcessFigures, 'note' | 'fetchedAt' | 'requestCount'> {
  const values = new Map<string, number>();
  for (const m of metrics) {
    const v = Number(m.value);
    if (m.value !== undefined && m.value !== '' && Number.isFinite(v)) values.set(m.id, v);
  }
  const metric = (key: keyof typeof PROCESS_METRICS) => values.get(PROCESS_METRICS[key]) ?? null;
  const d = details?.metrics;
  const pick = (fromDetails: number | undefined, fromMetrics: number | null) => known(fromDetails ?? fromMetrics ?? undefined);
  const figure = (used: number | null, committed: number | null, max: number | null): MemoryFigure => ({ used: known(used), committed: known(committed), max: known(max) });
  const collectors = d?.garbageCollectors?.map((gc) => ({ name: gc.name, count: gc.count, timeMs: gc.time })) ?? collectorsOf(values);
  const segmentsTotal = d?.nettyShuffleMemorySegmentsTotal ?? d?.memorySegmentsTotal ?? metric('networkSegmentsTotal');
  const segmentsUsed =
    d?.nettyShuffleMemorySegmentsUsed ??
    (d?.memorySegmentsTotal !== undefined && d.memorySegmentsAvailable !== undefined ? d.memorySegmentsTotal - d.memorySegmentsAvailable : metric('networkSegmentsUsed'));
  return {
    clusterId,
    processId,
    kind: processId === 'jobmanager' ? 'jobmanager' : 'taskmanager',
    heap: figure(pick(d?.heapUsed, metric('heapUsed')), pick(d?.heapCommitted, metric('heapCommitted')), pick(d?.heapMax, metric('heapMax'))),
    nonHeap: figure(pick(d?.nonHeapUsed, metric('nonHeapUsed')), pick(d?.nonHeapCommitted, metric('nonHeapCommitted')), pick(d?.nonHeapMax, metric('nonHeapMax'))),
    metaspace: figure(metric('metaspaceUsed'), metric('metaspaceCommitted'), metric('metaspaceMax')),
    direct: { ...figure(pick(d?.directUsed, metric('directUsed')), null, pick(d?.directMax, metric('directTotal'))), buffers: pick(d?.directCount, metric('directCount')) },
    managed: figure(metric('managedUsed'), null, metric('managedTotal')),
    network: {
      segmentsUsed: known(segmentsUsed),
      segmentsTotal: known(segmentsTotal),
      bytesUsed: known(d?.nettyShuffleMemoryUsed ?? metric('networkBytesUsed')),
      bytesTotal: known(d?.nettyShuffleMemoryTotal ?? metric('networkBytesTotal')),
    },
    garbageCollectors: collectors,
    gcTimeMsPerSecond: metric('gcTimeMsPerSecond'),
    cpuLoad: metric('cpuLoad'),
    threads: metric('threads'),
    memoryConfiguration: details?.memoryConfiguration ?? null,
  };
}

/** Flink's -1 means "no limit" or "not measured": not a figure. */
function known(value: number | null | undefined): number | null {
  return value === null || value === undefined || !Number.isFinite(value) || value < 0 ? null : value;
}

/** `Status.JVM.GarbageCollector.<name>.Count/Time` → one row per collector, `All` first where Flink sums them. */
function collectorsOf(values: ReadonlyMap<string, number>): ProcessFigures['garbageCollectors'] {
  const byName = new Map<string, { name: string; count: number; timeMs: number }>();
  for (const [id, value] of values) {
    const match = GC_METRIC.exec(id);
    if (!match) continue;
    const row = byName.get(match[1]) ?? { name: match[1], count: 0, timeMs: 0 };
    if (match[2] === 'Count') row.count = value;
    else row.timeMs = value;
    byName.set(match[1], row);
  }
  return [...byName.values()].sort((a, b) => (a.name === 'All' ? -1 : b.name === 'All' ? 1 : a.name < b.name ? -1 : 1));
}
