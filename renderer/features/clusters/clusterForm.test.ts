import { describe, expect, it } from 'vitest';
import type { ClusterConfig } from '../../../engine/contracts/clusters';
import { clusterToForm, clusterWithSameUrl, emptyClusterForm, normalizeClusterUrl, toClusterInput, validateClusterForm } from './clusterForm';

const saved: ClusterConfig = {
  id: 'c1',
  name: 'prod',
  url: 'https://flink:8081',
  auth: { kind: 'basic', username: 'ops', hasSecret: true },
  timeoutMs: 5000,
};

describe('validateClusterForm', () => {
  it('asks for a name and a URL', () => {
    expect(validateClusterForm(emptyClusterForm(), null)).toEqual({
      name: expect.any(String),
      url: expect.any(String),
    });
  });

  it('leaves the URL format to the engine', () => {
    expect(validateClusterForm({ ...emptyClusterForm(), name: 'x', url: 'not a url' }, null)).toEqual({});
  });

  it('checks the timeout range', () => {
    const base = { ...emptyClusterForm(), name: 'x', url: 'http://h:1' };
    expect(validateClusterForm({ ...base, timeoutMs: '50' }, null).timeoutMs).toBeDefined();
    expect(validateClusterForm({ ...base, timeoutMs: '1.5' }, null).timeoutMs).toBeDefined();
    expect(validateClusterForm({ ...base, timeoutMs: '2500' }, null).timeoutMs).toBeUndefined();
  });

  it('needs new secrets but lets an edit keep the stored one', () => {
    const basic = { ...emptyClusterForm(), name: 'x', url: 'http://h:1', authKind: 'basic' as const, username: 'u' };
    expect(validateClusterForm(basic, null).password).toBeDefined();
    expect(validateClusterForm(basic, saved).password).toBeUndefined();
    const bearer = { ...basic, authKind: 'bearer' as const };
    expect(validateClusterForm(bearer, saved).token).toBeDefined();
  });
});

describe('toClusterInput', () => {
  it('trims and fills the default timeout', () => {
    const input = toClusterInput({ ...emptyClusterForm(), name: ' a ', url: ' http://h:8081 ', timeoutMs: '' }, null);
    expect(input).toEqual({ name: 'a', url: 'http://h:8081', auth: { kind: 'none' }, timeoutMs: 10_000 });
  });

  it('omits an empty password on edit so the stored one is kept', () => {
    const input = toClusterInput(clusterToForm(saved), saved);
    expect(input).toEqual({
      id: 'c1',
      name: 'prod',
      url: 'https://flink:8081',
      auth: { kind: 'basic', username: 'ops' },
      timeoutMs: 5000,
    });
  });

  it('sends a typed secret and the CA file', () => {
    const input = toClusterInput(
      { ...clusterToForm(saved), authKind: 'bearer', token: ' t0k ', caFile: '/etc/ca.pem' },
      saved,
    );
    expect(input.auth).toEqual({ kind: 'bearer', token: 't0k' });
    expect(input.caFile).toBe('/etc/ca.pem');
  });
});

describe('clusterWithSameUrl', () => {
  const local: ClusterConfig = { id: 'local-engine', name: 'Local engine', url: 'http://127.0.0.1:8081', auth: { kind: 'none', hasSecret: false }, timeoutMs: 10_000, builtIn: true };
  const clusters = [local, saved];

  it('finds the built-in engine or a saved cluster behind the same URL, however it is typed', () => {
    expect(clusterWithSameUrl(' http://127.0.0.1:8081/ ', clusters, null)).toBe(local);
    expect(clusterWithSameUrl('HTTPS://FLINK:8081', clusters, null)).toBe(saved);
    expect(normalizeClusterUrl('https://flink:443/proxy//')).toBe('https://flink/proxy');
  });

  it('is not fooled by another port, scheme or path, nor by the cluster being edited', () => {
    expect(clusterWithSameUrl('http://127.0.0.1:8082', clusters, null)).toBeNull();
    expect(clusterWithSameUrl('http://flink:8081', clusters, null)).toBeNull();
    expect(clusterWithSameUrl('https://flink:8081/other', clusters, null)).toBeNull();
    expect(clusterWithSameUrl('https://flink:8081', clusters, saved)).toBeNull();
    expect(clusterWithSameUrl('not a url', clusters, null)).toBeNull();
  });
});
