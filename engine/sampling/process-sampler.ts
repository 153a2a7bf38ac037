import { PROCESS_SAMPLE_INTERVAL_MS } from '../contracts/history.ts';
import type { ProcessFigures } from '../contracts/inspect.ts';
import type { FlinkRestClient, RequestOptions } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { ProcessSample } from '../history/process-log.ts';
import { fetchProcessMetrics, processMetricIds, toProcessFigures } from '../inspect/fetch-process-figures.ts';
import { TASKMANAGER_METRICS_LIMIT } from './taskmanagers.ts';

export interface ProcessSamplerOptions {
  history: HistoryStore;
  /** @default PROCESS_SAMPLE_INTERVAL_MS */
  intervalMs?: number;
  now?: () => number;
}

/**
 * Samples the memory and garbage collection of a cluster's JobManager and TaskManagers into the history, at most
 * every `intervalMs`, and only on the heels of a job sample of that cluster: a cluster without a watched job costs
 * nothing. A round is `GET /taskmanagers` and one metrics request per process (the first TASKMANAGER_METRICS_LIMIT
 * TaskManagers, by id), plus once per process the list of its metric names (its collectors' names vary by JVM).
 */
export class ProcessSampler {
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly roundAt = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Per cluster, per process: the metric ids it reports (see `processMetricIds`). */
  private readonly metricIds = new Map<string, Map<string, string[]>>();

  constructor(private readonly options: ProcessSamplerOptions) {
    this.intervalMs = options.intervalMs ?? PROCESS_SAMPLE_INTERVAL_MS;
    this.now = options.now ?? Date.now;
  }

  /** After a job sample of the cluster: a round when the last one is `intervalMs` old and none runs. Never throws, never waits. */
  onJobSample(clusterId: string, client: FlinkRestClient): void {
    const now = this.now();
    if (this.inFlight.has(clusterId) || now - (this.roundAt.get(clusterId) ?? -Infinity) < this.intervalMs) return;
    this.roundAt.set(clusterId, now);
    const round = this.sampleNow(clusterId, client)
      // A cluster that does not answer leaves a gap in the processes' charts, as in the jobs'.
      .catch(() => undefined)
      .finally(() => this.inFlight.delete(clusterId));
    this.inFlight.set(clusterId, round);
  }

  /** One round now: every process's figures, stored and returned. */
  async sampleNow(clusterId: string, client: FlinkRestClient): Promise<ProcessSample[]> {
    const t = this.now();
    const options: RequestOptions = { priority: 'background' };
    const { taskmanagers } = await client.request(endpoints.taskManagers, {}, undefined, options);
    const processes = ['jobmanager', ...taskmanagers.map((tm) => tm.id).sort().slice(0, TASKMANAGER_METRICS_LIMIT)];
    const known = this.metricIdsOf(clusterId, processes);
    const samples = await Promise.all(
      processes.map(async (processId) => {
        try {
          let ids = known.get(processId);
          if (!ids) {
            ids = await processMetricIds(client, processId, options);
            known.set(processId, ids);
          }
          const figures = toProcessFigures(clusterId, processId, await fetchProcessMetrics(client, processId, ids, options), null);
          return processSampleOf(figures, t);
        } catch (error) {
          // A process that left between the list and its metrics (lost, scaled in), or did not answer in time: no
          // sample of it this round, the others' are kept. Its metric ids are listed again next time (a JobManager
          // restarted may have other collectors).
          known.delete(processId);
          if (error instanceof EngineError) return null;
          throw error;
        }
      }),
    );
    const stored = samples.filter((s): s is ProcessSample => s !== null);
    await this.options.history.processes.append(stored);
    return stored;
  }

  /** Waits for the rounds in flight (the app quits). */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** The cluster's cache of metric ids, without the processes that are gone. */
  private metricIdsOf(clusterId: string, processes: string[]): Map<string, string[]> {
    const known = this.metricIds.get(clusterId) ?? new Map<string, string[]>();
    for (const id of known.keys()) if (!processes.includes(id)) known.delete(id);
    this.metricIds.set(clusterId, known);
    return known;
  }
}

/** Pure: a process's figures at `t` → the sample the history keeps. GC: Flink's `All` where it sums the collectors, else their sum. */
export function processSampleOf(figures: Omit<ProcessFigures, 'note' | 'fetchedAt' | 'requestCount'>, t: number): ProcessSample {
  const collectors = figures.garbageCollectors;
  const all = collectors.find((c) => c.name === 'All');
  const sum = (key: 'count' | 'timeMs') => (all ? all[key] : collectors.length > 0 ? collectors.reduce((s, c) => s + c[key], 0) : null);
  return {
    clusterId: figures.clusterId,
    processId: figures.processId,
    t,
    heapUsed: figures.heap.used,
    heapCommitted: figures.heap.committed,
    heapMax: figures.heap.max,
    nonHeapUsed: figures.nonHeap.used,
    directUsed: figures.direct.used,
    directMax: figures.direct.max,
    managedUsed: figures.managed.used,
    managedTotal: figures.managed.max,
    networkSegmentsUsed: figures.network.segmentsUsed,
    networkSegmentsTotal: figures.network.segmentsTotal,
    gcCount: sum('count'),
    gcTimeMs: sum('timeMs'),
    cpuLoad: figures.cpuLoad,
  };
}
