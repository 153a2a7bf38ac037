import type { ClusterInput, EngineApi } from '../contracts/engine-api.ts';
import { ClusterConnections, connect, createClient } from '../clusters/cluster-connections.ts';
import { validateClusterInput } from '../clusters/cluster-input.ts';
import { type ClusterStore, type StoredCluster, toClusterConfig } from '../clusters/cluster-store.ts';
import type { SecretStore } from '../clusters/secret-store.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { localEngineEndpoints } from '../flink-rest/endpoints.ts';
import { fetchClusterOverview, fetchJobs, fetchTaskManagers } from '../sampling/cluster-views.ts';
import { fetchJobGraph } from '../sampling/job-graph.ts';
import { fetchVertexSubtasks } from '../sampling/vertex-subtasks.ts';
import { JobWatcher } from '../sampling/job-watcher.ts';
import { exportJournal } from '../operations/journal-export.ts';
import { publicEntry } from '../operations/journal.ts';
import { parseJournalFilter, parseOperationRequest } from '../operations/operation-input.ts';
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
  builtInClusters?: StoredCluster[];
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
  const connections = new ClusterConnections(secretStore);

  const findCluster = (clusterId: string): StoredCluster => {
    const cluster = builtIns.find((c) => c.id === clusterId) ?? clusterStore.find(clusterId);
    if (!cluster) throw new EngineError('not-found', `No saved cluster with id "${clusterId}".`);
    return cluster;
  };
  const connection = (clusterId: string) => connections.get(findCluster(clusterId));
  const watcher = new JobWatcher({ history: deps.history, connection });
  watcher.start();

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
        ...builtIns.map((c) => toClusterConfig(c, false, true)),
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
      // A page showing a job keeps it watched: its history fills in the background while the operator looks.
      if (!ENDED_STATES.has(graph.state)) await watcher.watch(clusterId, jobId, { jobName: graph.name });
      return graph;
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
      const result = await connection(clusterId).client.request(localEngineEndpoints.killTaskManager, { taskmanagerid: taskManagerId });
      const jobs = result.failedJobs.length > 0 ? `jobs failing over: ${result.failedJobs.join(', ')}` : 'it ran no task';
      const back = result.restartsAt !== null ? `; a new TaskManager registers at ${new Date(result.restartsAt).toLocaleTimeString()}` : '';
      return { message: `TaskManager ${result.killed} killed; ${jobs}${back}.` };
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
}

/** Flink ids are 32 hex characters; anything else would only produce a confusing 404. */
function requireId(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^[0-9a-f]{32}$/.test(value)) {
    throw new EngineError('invalid-input', `"${String(value)}" is not a Flink ${what} id (32 hex characters).`);
  }
  return value;
}
