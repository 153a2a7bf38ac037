import type { ClusterInput, ClustersApi } from '../contracts/clusters.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { killTaskManagerAndReport } from '../operations/kill-taskmanager.ts';
import { fetchClusterOverview } from '../sampling/cluster-views.ts';
import { fetchTaskManagers } from '../sampling/taskmanagers.ts';
import { connect, createClient } from './cluster-connections.ts';
import { validateClusterInput, type ValidClusterInput } from './cluster-input.ts';
import type { ClusterRegistry } from './cluster-registry.ts';
import { toClusterConfig } from './cluster-store.ts';
import type { SecretStore } from './secret-store.ts';

/** What else keeps something of a cluster, told when the cluster is removed (its watches, its Kafka settings). */
export type ClusterForgetter = (clusterId: string) => void | Promise<void>;

export class ClustersService implements ClustersApi {
  constructor(
    private readonly registry: ClusterRegistry,
    private readonly secrets: SecretStore,
    private readonly forgetters: readonly ClusterForgetter[],
  ) {}

  async list() {
    return this.registry.views();
  }

  async check(input: ClusterInput) {
    return (await this.checkInput(input)).check;
  }

  async save(input: ClusterInput) {
    const { valid, secret, check } = await this.checkInput(input);
    const stored = this.registry.store.save({
      id: valid.id,
      name: valid.name,
      url: valid.url,
      auth: valid.auth.kind === 'basic' ? { kind: 'basic', username: valid.auth.username } : { kind: valid.auth.kind },
      caFile: valid.caFile,
      timeoutMs: valid.timeoutMs,
    });
    if (secret === undefined) this.secrets.delete(stored.id);
    else this.secrets.set(stored.id, secret);
    this.registry.forgetConnection(stored.id);
    return { cluster: toClusterConfig(stored, secret !== undefined), check };
  }

  async remove(clusterId: string) {
    if (this.registry.isBuiltIn(clusterId)) throw new EngineError('invalid-input', 'The built-in cluster cannot be removed.');
    this.registry.store.remove(clusterId);
    this.secrets.delete(clusterId);
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

  /** Valid, not a built-in one, and answering as a Flink JobManager: what a check or a save needs first. */
  private async checkInput(input: ClusterInput) {
    const valid = validateClusterInput(input);
    if (valid.id && this.registry.isBuiltIn(valid.id)) {
      throw new EngineError('invalid-input', `"${valid.name}" is built into the app and cannot be changed.`);
    }
    const secret = this.secretFor(valid);
    const check = await connect(createClient(valid, secret)).check();
    return { valid, secret, check };
  }

  /** The secret the form sent, or on edit the one already stored. */
  private secretFor(input: ValidClusterInput): string | undefined {
    if (input.auth.kind === 'basic' && input.auth.password) return input.auth.password;
    if (input.auth.kind === 'bearer' && input.auth.token) return input.auth.token;
    if (input.auth.kind === 'none' || !input.id) return undefined;
    return this.secrets.get(input.id);
  }
}
