import { describe, expect, it } from 'vitest';
import {
  SECRETS_KEY,
  SafeStorageSecretStore,
  createSecretStore,
  isOsEncryptionAvailable,
  type SecretCipher,
} from './safe-storage-secret-store.ts';

/** A stand-in for electron-store: a plain map of keys, round-tripped through JSON like the file. */
function memoryBackend(initial: Record<string, unknown> = {}) {
  let data: Record<string, unknown> = JSON.parse(JSON.stringify(initial));
  return {
    get: (key: string): unknown => data[key],
    set: (key: string, value: unknown): void => {
      data = { ...data, [key]: JSON.parse(JSON.stringify(value)) };
    },
    file: (): string => JSON.stringify(data),
  };
}

/** Reversible, visibly not plain text: XOR with a fixed byte. */
function fakeCipher(overrides: Partial<SecretCipher> = {}): SecretCipher {
  const xor = (bytes: Buffer): Buffer => Buffer.from(bytes.map((b) => b ^ 0x5a));
  return {
    isEncryptionAvailable: () => true,
    encryptString: (plain) => xor(Buffer.from(`v1:${plain}`, 'utf8')),
    decryptString: (encrypted) => {
      const text = xor(encrypted).toString('utf8');
      if (!text.startsWith('v1:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return text.slice(3);
    },
    ...overrides,
  };
}

describe('SafeStorageSecretStore', () => {
  it('round-trips secrets and never writes them in plain text', () => {
    const backend = memoryBackend({ clusters: [{ id: 'c1' }] });
    const store = new SafeStorageSecretStore(backend, fakeCipher());
    store.set('c1', 'hunter2-token');
    store.set('c2', 'pässwörd');

    expect(store.kind).toBe('encrypted');
    expect(store.get('c1')).toBe('hunter2-token');
    expect(store.get('c2')).toBe('pässwörd');
    expect(store.get('c3')).toBeUndefined();
    expect(backend.file()).not.toContain('hunter2');
    expect(backend.get('clusters')).toEqual([{ id: 'c1' }]);
    expect(Object.keys(backend.get(SECRETS_KEY) as object)).toEqual(['c1', 'c2']);
  });

  it('deletes one secret and leaves the others', () => {
    const backend = memoryBackend();
    const store = new SafeStorageSecretStore(backend, fakeCipher());
    store.set('c1', 'a');
    store.set('c2', 'b');
    store.delete('c1');
    store.delete('missing');
    expect(store.get('c1')).toBeUndefined();
    expect(store.get('c2')).toBe('b');
  });

  it('treats a secret that no longer decrypts (keychain reset) as absent', () => {
    const backend = memoryBackend({ [SECRETS_KEY]: { c1: Buffer.from('garbage').toString('base64') } });
    expect(new SafeStorageSecretStore(backend, fakeCipher()).get('c1')).toBeUndefined();
  });

  it('ignores a malformed secrets entry in the file instead of trusting it', () => {
    for (const bad of ['text', 42, ['a'], null, { c1: 7 }, { c1: 'not base64!' }]) {
      const store = new SafeStorageSecretStore(memoryBackend({ [SECRETS_KEY]: bad }), fakeCipher());
      expect(store.get('c1')).toBeUndefined();
      store.set('c2', 'x');
      expect(store.get('c2')).toBe('x');
    }
  });

  it('does not let a cluster id reach the object prototype', () => {
    const backend = memoryBackend();
    const store = new SafeStorageSecretStore(backend, fakeCipher());
    store.set('c1', 'a');
    store.set('__proto__', 'p');
    expect(store.get('__proto__')).toBe('p');
    expect(store.get('c1')).toBe('a');
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});

describe('createSecretStore', () => {
  it('encrypts when the OS keychain is usable', () => {
    expect(createSecretStore(memoryBackend(), fakeCipher(), 'darwin').kind).toBe('encrypted');
    const linux = fakeCipher({ getSelectedStorageBackend: () => 'gnome_libsecret' });
    expect(createSecretStore(memoryBackend(), linux, 'linux').kind).toBe('encrypted');
  });

  it('falls back to memory, writing nothing, when encryption is unavailable', () => {
    const backend = memoryBackend();
    const store = createSecretStore(backend, fakeCipher({ isEncryptionAvailable: () => false }), 'win32');
    store.set('c1', 'secret');
    expect(store.kind).toBe('memory');
    expect(store.get('c1')).toBe('secret');
    expect(backend.file()).toBe('{}');
  });

  it('counts Linux basic_text (a hard-coded key) and an unknown backend as unavailable', () => {
    expect(isOsEncryptionAvailable(fakeCipher({ getSelectedStorageBackend: () => 'basic_text' }), 'linux')).toBe(false);
    expect(isOsEncryptionAvailable(fakeCipher({ getSelectedStorageBackend: () => 'unknown' }), 'linux')).toBe(false);
    expect(isOsEncryptionAvailable(fakeCipher({ getSelectedStorageBackend: () => 'kwallet6' }), 'linux')).toBe(true);
  });
});
