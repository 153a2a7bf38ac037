import { AdviceService } from '../advice/advice-service.ts';
import { ApplicationsService } from '../applications/applications-service.ts';
import { MetricsStores } from '../clusters/metrics-stores.ts';
import { ClusterRegistry, type BuiltInCluster } from '../clusters/cluster-registry.ts';
import { memoryBackend, type ClusterStore } from '../clusters/cluster-store.ts';
import { ClustersService } from '../clusters/clusters-service.ts';
import type { SecretStore } from '../clusters/secret-store.ts';
import type { EngineApi } from '../contracts/engine-api.ts';
import { CurrentGraphs } from '../diagnosis/current-graphs.ts';
import { DiagnosisService } from '../diagnosis/diagnosis-service.ts';
import { HistoryWindows } from '../diagnosis/history-windows.ts';
import { ExportsService } from '../exports/exports-service.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { HistoryService } from '../history/history-service.ts';
import { KafkaConnections } from '../kafka/kafka-connections.ts';
import { KafkaService } from '../kafka/kafka-service.ts';
import { KafkaSettingsStore } from '../kafka/kafka-settings.ts';
import { StoredLagHistory, type LagHistory } from '../kafka/lag-history.ts';
import { Operations } from '../operations/operations.ts';
import { operationsClusters } from '../operations/operations-clusters.ts';
import { OperationsService } from '../operations/operations-service.ts';
import { JarsService } from '../operations/jars-service.ts';
import { fetchJobGraph } from '../sampling/job-graph.ts';
import { JobWatcher } from '../sampling/job-watcher.ts';
import { ProcessSampler } from '../sampling/process-sampler.ts';
import { JobsService } from '../sampling/jobs-service.ts';
import { RehearsalService } from '../rehearsal/rehearsal-service.ts';
import { StateService } from '../state/state-service.ts';
import { InspectService } from '../inspect/inspect-service.ts';
import type { LogFileDownloads } from '../logs/log-download.ts';
import { LogsService } from '../logs/logs-service.ts';
import { ProfilerService } from '../profiler/profiler-service.ts';
import { AppService } from './app-service.ts';

export type { BuiltInCluster } from '../clusters/cluster-registry.ts';

export interface EngineDeps {
  clusterStore: ClusterStore;
  secretStore: SecretStore;
  /** The console's memory: watched jobs' samples, checkpoints, events, and the operations journal. */
  history: HistoryStore;
  mode: 'electron' | 'web';
  version: string;
  /** Clusters the app provides itself (the local engine): listed first, never saved, never edited. */
  builtInClusters?: BuiltInCluster[];
  /** The clusters' Kafka settings (beside the cluster list); in memory when not given. */
  kafkaSettings?: KafkaSettingsStore;
  /** Where the lag trend is kept. @default the history store's `kafka-lag` table */
  lagHistory?: LagHistory;
  /** How long a hot-key sample may read. @default 30000 */
  sampleTimeoutMs?: number;
}

/** The engine as its host (the CLI's web mode, Electron's main) holds it: the services plus a way to stop them. */
export interface Engine extends EngineApi {
  /** Whole log files streamed to a browser (web mode) or a file (the desktop's save dialog), never held whole. */
  logFiles: LogFileDownloads;
  /** Stops the background work; the watches stay persisted and resume on the next start. */
  close(): Promise<void>;
}

/**
 * The composition root: builds the engine's services and connects them, nothing else.
 * Pages fetch on demand; the background work is the watcher, which samples the jobs being watched (opened recently
 * or pinned) into the history store, and the operations, which settle entries a process left open.
 */
export function createEngine(deps: EngineDeps): Engine {
  const { history, secretStore: secrets } = deps;
  const registry = new ClusterRegistry(deps.clusterStore, secrets, deps.builtInClusters);
  const metricsStores = new MetricsStores(registry);
  // The JobManager's and TaskManagers' memory and GC, sampled on the heels of a watched job's samples of their cluster.
  const processSampler = new ProcessSampler({ history });
  // A job's graph is fetched once for its page, the diagnosis and the history: it reads per subtask what the job's
  // history wants, and the sampler takes a page's refreshes as its samples.
  const currentGraphs: CurrentGraphs = new CurrentGraphs((clusterId, jobId) =>
    fetchJobGraph(registry.connection(clusterId).client, clusterId, jobId, { perSubtask: watcher.figuresWanted(clusterId, jobId) }),
  );
  const watcher: JobWatcher = new JobWatcher({
    history,
    connection: (clusterId) => registry.connection(clusterId),
    pageGraphs: currentGraphs,
    storeSampling: (clusterId) => metricsStores.sampling(clusterId),
    onSample: (sample, connection) => processSampler.onJobSample(sample.clusterId, connection.client),
  });
  const operations = new Operations({ history, origin: 'app', ...operationsClusters(registry) });

  const kafkaSettings = deps.kafkaSettings ?? new KafkaSettingsStore(memoryBackend());
  const kafka = new KafkaService({
    registry,
    secrets,
    settings: kafkaSettings,
    connections: new KafkaConnections(kafkaSettings, secrets),
    lagHistory: deps.lagHistory ?? new StoredLagHistory(history),
    sampleTimeoutMs: deps.sampleTimeoutMs ?? 30_000,
  });

  const diagnosis = new DiagnosisService(registry, new HistoryWindows(history), currentGraphs, watcher);

  const logs = new LogsService(registry);

  watcher.start();
  operations.startBackground();

  return {
    app: new AppService({ mode: deps.mode, secretStorage: secrets.kind, version: deps.version }),
    clusters: new ClustersService(registry, secrets, [(id) => watcher.forgetCluster(id), (id) => kafka.forgetCluster(id)], (store, cluster) => metricsStores.check(store, cluster)),
    jobs: new JobsService(registry, watcher, currentGraphs, operations.journal),
    applications: new ApplicationsService(registry),
    history: new HistoryService(history, registry, watcher),
    diagnosis,
    operations: new OperationsService(operations, registry, history),
    exports: new ExportsService(registry, history, operations.journal, deps.version, watcher),
    kafka,
    state: new StateService(registry, history),
    inspect: new InspectService(registry),
    logs,
    logFiles: logs,
    profiler: new ProfilerService(registry),
    advice: new AdviceService(registry, history, diagnosis),
    rehearsal: new RehearsalService(registry, history, diagnosis),
    jars: new JarsService(registry),
    close: async () => {
      operations.close();
      await watcher.stop();
      await processSampler.stop();
    },
  };
}
