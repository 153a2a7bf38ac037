/**
 * Where cluster passwords and tokens live. Never the cluster list itself: that file is plain JSON.
 * Electron provides an OS-encrypted store (safeStorage); web mode keeps secrets in memory only.
 */
export interface SecretStore {
  readonly kind: 'encrypted' | 'memory';
  get(clusterId: string): string | undefined;
  set(clusterId: string, secret: string): void;
  delete(clusterId: string): void;
}

/** Web mode: nothing touches the disk; the user is told secrets must be entered again after a restart. */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  private readonly secrets = new Map<string, string>();

  get(clusterId: string): string | undefined {
    return this.secrets.get(clusterId);
  }

  set(clusterId: string, secret: string): void {
    this.secrets.set(clusterId, secret);
  }

  delete(clusterId: string): void {
    this.secrets.delete(clusterId);
  }
}
