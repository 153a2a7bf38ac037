import type { ClusterInput, EngineApi } from '../contracts/engine-api.ts';
import { ClusterConnections, connect, createClient } from '../clusters/cluster-connections.ts';
import { validateClusterInput } from '../clusters/cluster-input.ts';
import { type ClusterStore, type StoredCluster, toClusterConfig } from '../clusters/cluster-store.ts';
import type { SecretStore } from '../clusters/secret-store.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { killTaskManagerAndReport } from '../operations/kill-taskmanager.ts';
import { fetchClusterOverview, fetchJobs } from '../sampling/cluster-views.ts';
import { fetchJobExceptions } from '../sampling/job-exceptions.ts';
import { fetchJobGraph } from '../sampling/job-graph.ts';
import { fetchTaskManagers } from '../sampling/taskmanagers.ts';
import { fetchVertexSubtasks } from '../sampling/vertex-subtasks.ts';

export interface EngineDeps {
  clusterStore: ClusterStore;
  secretStore: SecretStore;
  mode: 'electron' | 'web';
  version: string;
  /** Clusters the app provides itself (the local engine): listed first, never saved, never edited. */
  builtInClusters?: StoredCluster[];
}

/**
 * The one place that wires the engine's collaborators into the EngineApi the UI calls.
 * It fetches on demand: nothing polls unless a page asks, so a hidden page costs the cluster nothing.
 */
export function createEngine(deps: EngineDeps): EngineApi {
  const { clusterStore, secretStore } = deps;
  const builtIns = deps.builtInClusters ?? [];
  const connections = new ClusterConnections(secretStore);

  const findCluster = (clusterId: string): StoredCluster => {
    const cluster = builtIns.find((c) => c.id === clusterId) ?? clusterStore.find(clusterId);
    if (!cluster) throw new EngineError('not-found', `No saved cluster with id "${clusterId}".`);
    return cluster;
  };
  const connection = (clusterId: string) => connections.get(findCluster(clusterId));

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
      return fetchJobGraph(connection(clusterId).client, clusterId, requireId(jobId, 'job'));
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
  };
}

/** Flink ids are 32 hex characters; anything else would only produce a confusing 404. */
function requireId(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^[0-9a-f]{32}$/.test(value)) {
    throw new EngineError('invalid-input', `"${String(value)}" is not a Flink ${what} id (32 hex characters).`);
  }
  return value;
}
