import { readFileSync } from 'node:fs';
import type { ClusterCheck } from '../contracts/clusters.ts';
import { FlinkRestClient, type ClientAuth } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { checkFlinkCluster } from './cluster-check.ts';
import type { StoredCluster } from './cluster-store.ts';
import type { SecretStore } from './secret-store.ts';

export interface ClusterConnection {
  client: FlinkRestClient;
  /** The result of the last successful check, fetched once per connection. */
  check(): Promise<ClusterCheck>;
}

/** One REST client per saved cluster, so the per-cluster concurrency cap holds across pages. */
export class ClusterConnections {
  private readonly open = new Map<string, ClusterConnection>();

  constructor(private readonly secrets: SecretStore) {}

  get(cluster: StoredCluster): ClusterConnection {
    let connection = this.open.get(cluster.id);
    if (!connection) {
      connection = connect(createClient(cluster, this.secrets.get(cluster.id)));
      this.open.set(cluster.id, connection);
    }
    return connection;
  }

  /** After an edit or removal: the next call builds a fresh client. */
  forget(clusterId: string): void {
    this.open.delete(clusterId);
  }
}

export function connect(client: FlinkRestClient): ClusterConnection {
  let checked: Promise<ClusterCheck> | undefined;
  return {
    client,
    check() {
      checked ??= checkFlinkCluster(client).catch((error: unknown) => {
        checked = undefined; // a failed check is retried on the next call
        throw error;
      });
      return checked;
    },
  };
}

export function createClient(cluster: Omit<StoredCluster, 'id'> & { id?: string }, secret: string | undefined): FlinkRestClient {
  return new FlinkRestClient({
    baseUrl: cluster.url,
    auth: clientAuth(cluster, secret),
    caPem: cluster.caFile ? readCaFile(cluster.caFile) : undefined,
    timeoutMs: cluster.timeoutMs,
  });
}

function clientAuth(cluster: Pick<StoredCluster, 'name' | 'auth'>, secret: string | undefined): ClientAuth {
  if (cluster.auth.kind === 'none') return { kind: 'none' };
  if (secret === undefined) {
    throw new EngineError(
      'unauthorized',
      `No ${cluster.auth.kind === 'basic' ? 'password' : 'token'} for "${cluster.name}" in this session: edit the cluster to enter it again.`,
    );
  }
  return cluster.auth.kind === 'basic'
    ? { kind: 'basic', username: cluster.auth.username ?? '', password: secret }
    : { kind: 'bearer', token: secret };
}

export function readCaFile(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new EngineError('invalid-input', `Cannot read the CA file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new EngineError('invalid-input', `The CA file ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  }
  return pem;
}
