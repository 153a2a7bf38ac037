import type { ClusterInput, EngineApi } from '../contracts/engine-api.ts';
import { ClusterConnections, connect, createClient } from '../clusters/cluster-connections.ts';
import { validateClusterInput } from '../clusters/cluster-input.ts';
import { type ClusterStore, type KeyValueBackend, type StoredCluster, toClusterConfig } from '../clusters/cluster-store.ts';
import type { SecretStore } from '../clusters/secret-store.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { exportSubtaskMetrics } from '../exports/subtask-metrics.ts';
import { exportSkewReport, saveIncidentBundle } from '../exports/job-exports.ts';
import type { ReportCluster } from '../exports/skew-report.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { killTaskManagerAndReport } from '../operations/kill-taskmanager.ts';
import { fetchClusterOverview, fetchJobs } from '../sampling/cluster-views.ts';
import { fetchJobExceptions } from '../sampling/job-exceptions.ts';
import { fetchJobGraph, fetchJobPlan } from '../sampling/job-graph.ts';
import { CurrentGraphs } from '../diagnosis/current-graphs.ts';
import { fetchTaskManagers } from '../sampling/taskmanagers.ts';
import { fetchVertexSubtasks } from '../sampling/vertex-subtasks.ts';
import { JobWatcher } from '../sampling/job-watcher.ts';
import { fetchConsumerLag } from '../kafka/consumer-lag.ts';
import { connectionOptionsOf, createKafka } from '../kafka/kafka-connection.ts';
import { KafkaConnections } from '../kafka/kafka-connections.ts';
import { fromKafkaFailure, withDeadline } from '../kafka/kafka-errors.ts';
import { kafkaSecretKey, KafkaSettingsStore, toKafkaSettingsView, validateKafkaSettings } from '../kafka/kafka-settings.ts';
import { discoverKafkaSource, readPendingRecords } from '../kafka/kafka-source-discovery.ts';
import { sampleHotKeys } from '../kafka/hot-key-sampler.ts';
import { StoredLagHistory, type LagHistory } from '../kafka/lag-history.ts';
import type { JobWatch } from '../contracts/engine-api.ts';
import { checkpointDetail, jobCheckpoints } from '../history/views/checkpoint-views.ts';
import { jobMetricsHistory } from '../history/views/metrics-history.ts';
import { recordedJobGraph, recordedJobs } from '../history/views/recorded-jobs.ts';
import { DiagnosisService } from '../diagnosis/diagnosis-service.ts';
import { keyGroupRanges, locateKey } from '../analysis/key-groups/key-location.ts';
import { KEY_TYPES } from '../contracts/diagnosis.ts';
import { exportJournal } from '../operations/journal-export.ts';
import { publicEntry } from '../operations/journal.ts';
import { parseJournalFilter, parseOperationRequest, parseResubmitPlanRequest } from '../operations/operation-input.ts';
import { Operations, type OperationsCluster } from '../operations/operations.ts';
import { listSavepoints } from '../operations/savepoint-listing.ts';

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

/** A cluster the app provides itself; its secret (the local engine's per-launch token) lives in memory only. */
export interface BuiltInCluster extends StoredCluster {
  secret?: string;
}

/** The secret store, with the built-in clusters' in-memory secrets in front: those never reach a store that persists. */
function withBuiltInSecrets(store: SecretStore, builtIns: readonly BuiltInCluster[]): SecretStore {
  const builtIn = (id: string) => builtIns.find((c) => c.id === id);
  return {
    kind: store.kind,
    get: (id) => (builtIn(id) ? builtIn(id)!.secret : store.get(id)),
    set: (id, secret) => store.set(id, secret),
    delete: (id) => store.delete(id),
  };
}

/** The engine as its host (the CLI's web mode, Electron's main) holds it: the API plus a way to stop it. */
export interface Engine extends EngineApi {
  /** Stops the background sampling; the watches stay persisted and resume on the next start. */
  close(): Promise<void>;
}

/** Job states after which a job never changes again: nothing left to watch. */
const ENDED_STATES = new Set(['FINISHED', 'CANCELED', 'FAILED', 'SUSPENDED']);

/**
 * The one place that wires the engine's collaborators into the EngineApi the UI calls.
 * Pages fetch on demand; the only background work is the watcher, which samples the jobs being watched (opened
 * recently or pinned) into the history store at the cluster's metrics fetch interval.
 */
export function createEngine(deps: EngineDeps): Engine {
  const { clusterStore, secretStore } = deps;
  const builtIns = deps.builtInClusters ?? [];
  const connections = new ClusterConnections(withBuiltInSecrets(secretStore, builtIns));
  const kafkaSettings = deps.kafkaSettings ?? new KafkaSettingsStore(memoryBackend());
  const kafkaConnections = new KafkaConnections(kafkaSettings, secretStore);
  const lagHistory = deps.lagHistory ?? new StoredLagHistory(deps.history);
  const kafka = (clusterId: string) => kafkaConnections.get(clusterId, findCluster(clusterId).name);
  /** A Kafka failure that may mean a dead connection: the next call reconnects. */
  const resetOnFailure = (clusterId: string) => (error: unknown) => {
    if (error instanceof EngineError && !['invalid-input', 'not-found'].includes(error.info.kind)) kafkaConnections.reset(clusterId);
    throw error;
  };

  const findCluster = (clusterId: string): StoredCluster => {
    const cluster = builtIns.find((c) => c.id === clusterId) ?? clusterStore.find(clusterId);
    if (!cluster) throw new EngineError('not-found', `No saved cluster with id "${clusterId}".`);
    return cluster;
  };
  const connection = (clusterId: string) => connections.get(findCluster(clusterId));
  const watcher = new JobWatcher({ history: deps.history, connection });
  watcher.start();
  const diagnosis = new DiagnosisService(deps.history);
  const currentGraphs = new CurrentGraphs((clusterId, jobId) => fetchJobGraph(connection(clusterId).client, clusterId, jobId));

  const operationsCluster = (cluster: StoredCluster): OperationsCluster => {
    const conn = connections.get(cluster);
    return { id: cluster.id, name: cluster.name, url: cluster.url, client: conn.client, metricsFetchIntervalMs: async () => (await conn.check()).metricsFetchIntervalMs };
  };
  const knownClusters = (): StoredCluster[] => [...builtIns, ...clusterStore.list()];
  const operations = new Operations({
    history: deps.history,
    origin: 'app',
    cluster: (clusterId) => operationsCluster(findCluster(clusterId)),
    clusterOfEntry: (entry) => {
      const known = knownClusters().find((c) => c.id === entry.clusterId) ?? knownClusters().find((c) => c.url === entry.clusterUrl);
      if (known) return operationsCluster(known);
      // An entry the CLI wrote for a URL the app has not saved: reach it as the CLI did, without credentials.
      try {
        return operationsCluster({ id: entry.clusterId, name: entry.clusterName, url: entry.clusterUrl, auth: { kind: 'none' }, timeoutMs: 10_000 });
      } catch {
        return undefined;
      }
    },
  });
  // Operations left open by a process that ended (the app killed, a CLI interrupted) are settled in the background.
  operations.startBackground();

  /** The secret the form sent, or on edit the one already stored. */
  const secretFor = (input: ReturnType<typeof validateClusterInput>): string | undefined => {
    if (input.auth.kind === 'basic' && input.auth.password) return input.auth.password;
    if (input.auth.kind === 'bearer' && input.auth.token) return input.auth.token;
    if (input.auth.kind === 'none' || !input.id) return undefined;
    return secretStore.get(input.id);
  };

  const checkInput = async (input: ClusterInput) => {
    const valid = validateClusterInput(input);
    if (valid.id && builtIns.some((c) => c.id === valid.id)) {
      throw new EngineError('invalid-input', `"${valid.name}" is built into the app and cannot be changed.`);
    }
    const secret = secretFor(valid);
    const check = await connect(createClient(valid, secret)).check();
    return { valid, secret, check };
  };

  return {
    async getAppInfo() {
      return { mode: deps.mode, secretStorage: secretStore.kind, version: deps.version };
    },

    async listClusters() {
      return [
        ...builtIns.map(({ secret, ...c }) => toClusterConfig(c, secret !== undefined, true)),
        ...clusterStore.list().map((c) => toClusterConfig(c, secretStore.get(c.id) !== undefined)),
      ];
    },

    async checkCluster(input) {
      return (await checkInput(input)).check;
    },

    async saveCluster(input) {
      const { valid, secret, check } = await checkInput(input);
      const stored = clusterStore.save({
        id: valid.id,
        name: valid.name,
        url: valid.url,
        auth: valid.auth.kind === 'basic' ? { kind: 'basic', username: valid.auth.username } : { kind: valid.auth.kind },
        caFile: valid.caFile,
        timeoutMs: valid.timeoutMs,
      });
      if (secret === undefined) secretStore.delete(stored.id);
      else secretStore.set(stored.id, secret);
      connections.forget(stored.id);
      return { cluster: toClusterConfig(stored, secret !== undefined), check };
    },

    async removeCluster(clusterId) {
      if (builtIns.some((c) => c.id === clusterId)) {
        throw new EngineError('invalid-input', 'The built-in cluster cannot be removed.');
      }
      clusterStore.remove(clusterId);
      secretStore.delete(clusterId);
      connections.forget(clusterId);
      await watcher.forgetCluster(clusterId);
      kafkaSettings.remove(clusterId);
      secretStore.delete(kafkaSecretKey(clusterId));
      kafkaConnections.forget(clusterId);
    },

    async getClusterOverview(clusterId) {
      const { client, check } = connection(clusterId);
      const { metricsFetchIntervalMs } = await check();
      return fetchClusterOverview(client, clusterId, metricsFetchIntervalMs);
    },

    async listJobs(clusterId) {
      return fetchJobs(connection(clusterId).client);
    },

    async getJobGraph(clusterId, jobId) {
      const graph = await fetchJobGraph(connection(clusterId).client, clusterId, requireId(jobId, 'job'));
      currentGraphs.remember(graph);
      // A page showing a job keeps it watched: its history fills in the background while the operator looks.
      if (!ENDED_STATES.has(graph.state)) await watcher.watch(clusterId, jobId, { jobName: graph.name });
      return graph;
    },

    async getJobPlan(clusterId, jobId) {
      return fetchJobPlan(connection(clusterId).client, clusterId, requireId(jobId, 'job'));
    },

    async getVertexSubtasks(clusterId, jobId, vertexId) {
      return fetchVertexSubtasks(connection(clusterId).client, clusterId, requireId(jobId, 'job'), requireId(vertexId, 'vertex'));
    },

    async listTaskManagers(clusterId) {
      return fetchTaskManagers(connection(clusterId).client);
    },

    async killTaskManager(clusterId, taskManagerId) {
      // Killing machines is a rehearsal tool: only the engine the app bundles offers it, never a real cluster.
      if (!builtIns.some((c) => c.id === clusterId)) {
        throw new EngineError('invalid-input', 'Only the bundled local engine can kill a TaskManager; on a real cluster, use its own tooling.');
      }
      if (typeof taskManagerId !== 'string' || taskManagerId === '') throw new EngineError('invalid-input', 'Which TaskManager? The id is missing.');
      return killTaskManagerAndReport(connection(clusterId).client, taskManagerId, (at) => new Date(at).toLocaleTimeString('en-GB'));
    },

    async getJobExceptions(clusterId, jobId) {
      return fetchJobExceptions(connection(clusterId).client, clusterId, requireId(jobId, 'job'));
    },

    async listWatches() {
      return watcher.list().map((w) => ({ ...w }));
    },

    async setJobPinned(clusterId, jobId, pinned) {
      findCluster(clusterId);
      if (typeof pinned !== 'boolean') throw new EngineError('invalid-input', 'Pin or unpin: `pinned` must be true or false.');
      if (pinned) return { ...(await watcher.watch(clusterId, requireId(jobId, 'job'), { pinned: true })) };
      const existing = deps.history.watches.get(clusterId, requireId(jobId, 'job'));
      return existing ? { ...(await watcher.watch(clusterId, jobId, { pinned: false })) } : null;
    },

    // The history: read from the store only, so it answers for jobs and clusters that are gone.

    async getJobCheckpoints(clusterId, jobId, limit) {
      const id = requireId(jobId, 'job');
      return jobCheckpoints(deps.history, requireText(clusterId, 'cluster id'), id, requireWhole(limit ?? 60, 'limit', 1, 1000), watchOf(clusterId, id));
    },

    async getCheckpointDetail(clusterId, jobId, checkpointId, triggerTimestamp) {
      const id = requireId(jobId, 'job');
      return checkpointDetail(deps.history, requireText(clusterId, 'cluster id'), id, requireWhole(checkpointId, 'checkpoint id', 0), requireWhole(triggerTimestamp, 'trigger timestamp', 0));
    },

    async getJobMetricsHistory(clusterId, jobId, windowMs, to) {
      const span = requireWhole(windowMs, 'window', 1_000, 7 * 24 * 3600_000);
      const end = to === undefined || to === null ? Date.now() : requireWhole(to, 'window end', 0);
      return jobMetricsHistory(deps.history, requireText(clusterId, 'cluster id'), requireId(jobId, 'job'), end - span, end);
    },

    async listRecordedJobs(clusterId) {
      const cluster = requireText(clusterId, 'cluster id');
      return recordedJobs(deps.history, cluster, (jobId) => watchOf(cluster, jobId));
    },

    async getRecordedJob(clusterId, jobId) {
      const id = requireId(jobId, 'job');
      return recordedJobGraph(deps.history, requireText(clusterId, 'cluster id'), id, watchOf(clusterId, id));
    },

    async diagnoseJob(clusterId, jobId, windowMs) {
      findCluster(clusterId);
      return currentGraphs.diagnose(diagnosis.diagnose(clusterId, requireId(jobId, 'job'), windowMs));
    },

    async getSkewHeatmap(clusterId, jobId, windowMs, metric, aggregate) {
      findCluster(clusterId);
      return diagnosis.heatmap(clusterId, requireId(jobId, 'job'), windowMs, metric, aggregate);
    },

    async locateKey(lookup) {
      if (!lookup || typeof lookup.key !== 'string' || !(KEY_TYPES as readonly unknown[]).includes(lookup.keyType)) {
        throw new EngineError('invalid-input', `A key lookup needs a key (text) and its type: ${KEY_TYPES.join(', ')}.`);
      }
      try {
        return locateKey(lookup);
      } catch (error) {
        throw new EngineError('invalid-input', (error as Error).message);
      }
    },

    async getKeyGroupRanges(maxParallelism, parallelism) {
      try {
        return keyGroupRanges(maxParallelism, parallelism);
      } catch (error) {
        throw new EngineError('invalid-input', (error as Error).message);
      }
    },

    async exportSubtaskMetrics(clusterId, jobId) {
      return exportSubtaskMetrics(connection(clusterId).client, clusterId, requireId(jobId, 'job'));
    },

    async exportSkewReport(clusterId, jobId, request) {
      return exportSkewReport(deps.history, await reportCluster(clusterId), requireId(jobId, 'job'), request);
    },

    async saveIncidentBundle(clusterId, jobId, request) {
      const id = requireId(jobId, 'job');
      const cluster = await reportCluster(clusterId);
      const client = connection(clusterId).client;
      const [jobGraph, exceptions] = await Promise.all([fetchJobGraph(client, clusterId, id).catch(() => null), fetchJobExceptions(client, clusterId, id).catch(() => null)]);
      const journal = operations.journal.list({ clusterId, jobId: id, limit: 1000 }).map(publicEntry);
      return saveIncidentBundle(deps.history, cluster, id, request, { savedBy: deps.version, jobGraph, exceptions, journal });
    },

    async getKafkaSettings(clusterId) {
      findCluster(clusterId);
      const stored = kafkaSettings.get(clusterId);
      return stored ? toKafkaSettingsView(stored, secretStore.get(kafkaSecretKey(clusterId)) !== undefined) : null;
    },

    async saveKafkaSettings(clusterId, input) {
      const cluster = findCluster(clusterId);
      const valid = validateKafkaSettings(input);
      const password = valid.password ?? (valid.stored.sasl.mechanism !== 'none' ? secretStore.get(kafkaSecretKey(clusterId)) : undefined);
      // Checked before saving: settings that cannot reach the brokers (or whose credentials fail) are not kept.
      const options = connectionOptionsOf(valid.stored, password);
      const admin = createKafka(options).admin();
      try {
        await withDeadline(
          (async () => {
            await admin.connect();
            await admin.describeCluster();
          })(),
          options.timeoutMs! + 2000,
          () => `The Kafka brokers ${options.brokers.join(',')} did not answer within ${options.timeoutMs} ms.`,
        );
      } catch (error) {
        throw fromKafkaFailure(error, options.brokers, `checking the Kafka settings of "${cluster.name}"`);
      } finally {
        void admin.disconnect().catch(() => {});
      }
      kafkaSettings.set(clusterId, valid.stored);
      if (password === undefined) secretStore.delete(kafkaSecretKey(clusterId));
      else secretStore.set(kafkaSecretKey(clusterId), password);
      kafkaConnections.forget(clusterId);
      return toKafkaSettingsView(valid.stored, password !== undefined);
    },

    async removeKafkaSettings(clusterId) {
      findCluster(clusterId);
      kafkaSettings.remove(clusterId);
      secretStore.delete(kafkaSecretKey(clusterId));
      kafkaConnections.forget(clusterId);
    },

    async getKafkaSource(clusterId, jobId) {
      return discoverKafkaSource(connection(clusterId).client, requireId(jobId, 'job'));
    },

    async getConsumerLag(clusterId, query) {
      if (typeof query !== 'object' || query === null || typeof query.groupId !== 'string') throw new EngineError('invalid-input', 'Which consumer group? The group id is missing.');
      const { options, admin } = kafka(clusterId);
      const jobId = query.jobId !== undefined ? requireId(query.jobId, 'job') : undefined;
      const [lag, pendingRecords] = await Promise.all([
        admin()
          .then((client) => fetchConsumerLag(client, { groupId: query.groupId, topics: Array.isArray(query.topics) ? query.topics.map(String) : undefined }, options.brokers))
          .catch(resetOnFailure(clusterId)),
        // The job's own view of its backlog; a cluster that does not expose it (or is down) leaves it empty.
        jobId !== undefined ? readPendingRecords(connection(clusterId).client, jobId).catch(() => null) : Promise.resolve(null),
      ]);
      lagHistory.append(clusterId, lag.groupId, { at: lag.fetchedAt, totalLag: lag.totalLag, partitionsWithoutCommit: lag.partitionsWithoutCommit, pendingRecords });
      return { ...lag, pendingRecords };
    },

    async getLagHistory(clusterId, groupId, sinceMs) {
      findCluster(clusterId);
      if (typeof groupId !== 'string' || !Number.isFinite(sinceMs)) throw new EngineError('invalid-input', 'The lag history needs a group id and a start time.');
      return lagHistory.read(clusterId, groupId, sinceMs, Date.now());
    },

    async sampleHotKeys(clusterId, query) {
      if (typeof query !== 'object' || query === null) throw new EngineError('invalid-input', 'The hot-key sample needs a topic and a key path.');
      const { kafka: client, options } = kafka(clusterId);
      return sampleHotKeys(
        client,
        {
          topic: String(query.topic ?? ''),
          keyPath: String(query.keyPath ?? ''),
          seconds: query.seconds,
          maxRecords: query.maxRecords,
          top: query.top,
          keyedVertex: query.keyedVertex,
        },
        { brokers: options.brokers, timeoutMs: deps.sampleTimeoutMs ?? 30_000 },
      );
    },

    async getOperationsContext(clusterId, jobId) {
      return operations.operationsContext(clusterId, jobId);
    },

    async startOperation(request) {
      const { entry, done } = await operations.start(parseOperationRequest(request));
      // The outcome lands in the journal; the UI follows it there.
      done.catch(() => undefined);
      return publicEntry(entry);
    },

    async getJournalEntry(id) {
      if (typeof id !== 'string') throw new EngineError('invalid-input', 'Which operation? The trigger id is missing.');
      const entry = operations.journal.get(id);
      return entry ? publicEntry(entry) : null;
    },

    async listJournal(filter) {
      return operations.journal.list(parseJournalFilter(filter)).map(publicEntry);
    },

    async exportJournal(filter, format) {
      if (format !== 'csv' && format !== 'json') throw new EngineError('invalid-input', `Export as csv or json, not "${String(format)}".`);
      const valid = parseJournalFilter(filter);
      const entries = operations.journal.list({ ...valid, limit: Number.MAX_SAFE_INTEGER }).map(publicEntry);
      return exportJournal(entries, valid, format, Date.now());
    },

    async planRescale(clusterId, jobId, request) {
      return operations.planRescale(clusterId, jobId, request);
    },
    async planResubmit(request) {
      return operations.planResubmit(parseResubmitPlanRequest(request));
    },

    async getRescaleOutcome(entryId) {
      return operations.rescaleOutcome(entryId);
    },

    async listSavepoints(clusterId, jobId) {
      const cluster = findCluster(clusterId);
      return listSavepoints({ journal: operations.journal, history: deps.history, client: connections.get(cluster).client, clusterId, jobId: requireId(jobId, 'job') });
    },

    close: async () => {
      operations.close();
      await watcher.stop();
    },
  };

  /** What a report says of its cluster; the Flink version when the cluster answers (a recording's may not). */
  async function reportCluster(clusterId: string): Promise<ReportCluster> {
    const cluster = findCluster(clusterId);
    const check = await connection(clusterId).check().catch(() => null);
    return { id: clusterId, name: cluster.name, url: cluster.url, flinkVersion: check?.flinkVersion ?? null };
  }

  function watchOf(clusterId: string, jobId: string): JobWatch | null {
    const watch = deps.history.watches.get(clusterId, jobId);
    return watch ? { ...watch } : null;
  }
}

function requireText(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new EngineError('invalid-input', `The ${what} is missing.`);
  return value;
}

function requireWhole(value: unknown, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new EngineError('invalid-input', `The ${what} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`);
  }
  return value;
}

/** An in-memory key-value backend (settings that need not outlive the process, and tests). */
function memoryBackend(): KeyValueBackend {
  const values = new Map<string, unknown>();
  return { get: (key) => values.get(key), set: (key, value) => void values.set(key, value) };
}

/** Flink ids are 32 hex characters; anything else would only produce a confusing 404. */
function requireId(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^[0-9a-f]{32}$/.test(value)) {
    throw new EngineError('invalid-input', `"${String(value)}" is not a Flink ${what} id (32 hex characters).`);
  }
  return value;
}
