import type { KeyValueBackend } from '../../engine/clusters/cluster-store.ts';
import { MemorySecretStore, type SecretStore } from '../../engine/clusters/secret-store.ts';

/**
 * The part of Electron's `safeStorage` this store uses. Typed here (not imported from `electron`)
 * so the store can be tested without the Electron binary; `safeStorage` satisfies it as is.
 */
export interface SecretCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron; absent elsewhere. */
  getSelectedStorageBackend?(): string;
}

/** Key in config.json that holds `{ [clusterId]: base64(ciphertext) }`. */
export const SECRETS_KEY = 'secrets';

/**
 * Cluster passwords and tokens encrypted with the OS keychain (`safeStorage`), kept as base64
 * ciphertext under `secrets` in the same config.json as the cluster list. Plain text never
 * reaches the file: with no usable keychain use {@link createSecretStore}, which falls back to memory.
 */
export class SafeStorageSecretStore implements SecretStore {
  readonly kind = 'encrypted' as const;

  constructor(
    private readonly backend: KeyValueBackend,
    private readonly cipher: SecretCipher,
  ) {}

  /** The decrypted secret; undefined when there is none or it no longer decrypts (keychain reset). */
  get(clusterId: string): string | undefined {
    const encoded = this.read().get(clusterId);
    if (encoded === undefined) return undefined;
    try {
      return this.cipher.decryptString(Buffer.from(encoded, 'base64'));
    } catch {
      return undefined;
    }
  }

  set(clusterId: string, secret: string): void {
    const all = this.read();
    all.set(clusterId, this.cipher.encryptString(secret).toString('base64'));
    this.write(all);
  }

  delete(clusterId: string): void {
    const all = this.read();
    if (all.delete(clusterId)) this.write(all);
  }

  /** Validates at the file edge: entries that are not base64 strings are ignored, not trusted. */
  private read(): Map<string, string> {
    const raw = this.backend.get(SECRETS_KEY);
    const entries = new Map<string, string>();
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return entries;
    for (const [clusterId, value] of Object.entries(raw)) {
      if (typeof value === 'string' && BASE64.test(value)) entries.set(clusterId, value);
    }
    return entries;
  }

  private write(entries: Map<string, string>): void {
    this.backend.set(SECRETS_KEY, Object.fromEntries(entries));
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * True when `safeStorage` really protects data. On Linux without a keyring (gnome-libsecret,
 * kwallet) Chromium "encrypts" with a hard-coded key (`basic_text`): that is plain text in
 * disguise, so it counts as unavailable.
 */
export function isOsEncryptionAvailable(cipher: SecretCipher, platform: NodeJS.Platform = process.platform): boolean {
  if (!cipher.isEncryptionAvailable()) return false;
  if (platform !== 'linux') return true;
  const backend = cipher.getSelectedStorageBackend?.();
  return backend !== 'basic_text' && backend !== 'unknown';
}

/**
 * The secret store for Electron: encrypted when the OS keychain is usable, else memory only
 * (kind 'memory': the UI tells the user secrets are asked again after a restart).
 * Call after the app's `ready` event: before it, encryption reports unavailable.
 */
export function createSecretStore(
  backend: KeyValueBackend,
  cipher: SecretCipher,
  platform: NodeJS.Platform = process.platform,
): SecretStore {
  return isOsEncryptionAvailable(cipher, platform) ? new SafeStorageSecretStore(backend, cipher) : new MemorySecretStore();
}
