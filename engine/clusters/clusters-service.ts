import type { ClusterCheck, ClusterInput, ClustersApi, MetricsStoreCheck } from '../contracts/clusters.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { killTaskManagerAndReport } from '../operations/kill-taskmanager.ts';
import { fetchClusterOverview } from '../sampling/cluster-views.ts';
import { fetchTaskManagers } from '../sampling/taskmanagers.ts';
import { connect, createClient } from './cluster-connections.ts';
import { validateClusterInput, type ValidClusterInput } from './cluster-input.ts';
import type { ClusterRegistry } from './cluster-registry.ts';
import { toClusterConfig } from './cluster-store.ts';
import { createMetricsStoreClient, metricsStoreSecretKey, metricsStoreSecretOf, toStoredMetricsStore } from './metrics-store-settings.ts';
import type { SecretStore } from './secret-store.ts';

/** What else keeps something of a cluster, told when the cluster is removed (its watches, its Kafka settings). */
export type ClusterForgetter = (clusterId: string) => void | Promise<void>;

/** Checks a metrics store for the cluster its JobManager client reaches (see engine/prometheus/prometheus-check.ts). */
export type MetricsStoreChecker = (store: FlinkRestClient, cluster: FlinkRestClient) => Promise<MetricsStoreCheck>;

export class ClustersService implements ClustersApi {
  constructor(
    private readonly registry: ClusterRegistry,
    private readonly secrets: SecretStore,
    private readonly forgetters: readonly ClusterForgetter[],
    private readonly checkMetricsStore: MetricsStoreChecker,
  ) {}

  async list() {
    return this.registry.views();
  }

  async check(input: ClusterInput) {
    return (await this.checkInput(input)).check;
  }

  async save(input: ClusterInput) {
    const { valid, secret, storeSecret, check } = await this.checkInput(input);
    if (check.metricsStore && !check.metricsStore.reachable) {
      throw new EngineError('invalid-input', `Not saved: ${check.metricsStore.findings.join(' ')}`);
    }
    const stored = this.registry.store.save({
      id: valid.id,
      name: valid.name,
      url: valid.url,
      auth: valid.auth.kind === 'basic' ? { kind: 'basic', username: valid.auth.username } : { kind: valid.auth.kind },
      caFile: valid.caFile,
      timeoutMs: valid.timeoutMs,
      ...(valid.metricsStore ? { metricsStore: toStoredMetricsStore(valid.metricsStore) } : {}),
    });
    keep(this.secrets, stored.id, secret);
    keep(this.secrets, metricsStoreSecretKey(stored.id), storeSecret);
    this.registry.forgetConnection(stored.id);
    return { cluster: toClusterConfig(stored, secret !== undefined, false, storeSecret !== undefined), check };
  }

  async remove(clusterId: string) {
    if (this.registry.isBuiltIn(clusterId)) throw new EngineError('invalid-input', 'The built-in cluster cannot be removed.');
    this.registry.store.remove(clusterId);
    this.secrets.delete(clusterId);
    this.secrets.delete(metricsStoreSecretKey(clusterId));
    this.registry.forgetConnection(clusterId);
    for (const forget of this.forgetters) await forget(clusterId);
  }

  async overview(clusterId: string) {
    const { client, check } = this.registry.connection(clusterId);
    const { metricsFetchIntervalMs } = await check();
    return fetchClusterOverview(client, clusterId, metricsFetchIntervalMs);
  }

  async taskManagers(clusterId: string) {
    return fetchTaskManagers(this.registry.connection(clusterId).client);
  }

  async killTaskManager(clusterId: string, taskManagerId: string) {
    // Killing machines is a rehearsal tool: only the engine the app bundles offers it, never a real cluster.
    if (!this.registry.isBuiltIn(clusterId)) {
      throw new EngineError('invalid-input', 'Only the bundled local engine can kill a TaskManager; on a real cluster, use its own tooling.');
    }
    if (typeof taskManagerId !== 'string' || taskManagerId === '') throw new EngineError('invalid-input', 'Which TaskManager? The id is missing.');
    return killTaskManagerAndReport(this.registry.connection(clusterId).client, taskManagerId, (at) => new Date(at).toLocaleTimeString('en-GB'));
  }

  /**
   * Valid, not a built-in one, answering as a Flink JobManager, and its metrics store (if it names one) reachable:
   * what a check or a save needs first. A store that answers but holds none of the cluster's series yet is saved,
   * with the finding said.
   */
  private async checkInput(input: ClusterInput) {
    const valid = validateClusterInput(input);
    if (valid.id && this.registry.isBuiltIn(valid.id)) {
      throw new EngineError('invalid-input', `"${valid.name}" is built into the app and cannot be changed.`);
    }
    const secret = this.secretFor(valid);
    const cluster = createClient(valid, secret);
    const check: ClusterCheck = await connect(cluster).check();
    if (!valid.metricsStore) return { valid, secret, storeSecret: undefined, check };
    const kept = valid.id && valid.metricsStore.auth.kind !== 'none' ? this.secrets.get(metricsStoreSecretKey(valid.id)) : undefined;
    const storeSecret = metricsStoreSecretOf(valid.metricsStore, kept);
    const store = createMetricsStoreClient(toStoredMetricsStore(valid.metricsStore), storeSecret, valid.timeoutMs);
    return { valid, secret, storeSecret, check: { ...check, metricsStore: await this.checkMetricsStore(store, cluster) } };
  }

  /** The secret the form sent, or on edit the one already stored. */
  private secretFor(input: ValidClusterInput): string | undefined {
    if (input.auth.kind === 'basic' && input.auth.password) return input.auth.password;
    if (input.auth.kind === 'bearer' && input.auth.token) return input.auth.token;
    if (input.auth.kind === 'none' || !input.id) return undefined;
    return this.secrets.get(input.id);
  }
}

function keep(secrets: SecretStore, key: string, secret: string | undefined): void {
  if (secret === undefined) secrets.delete(key);
  else secrets.set(key, secret);
}
