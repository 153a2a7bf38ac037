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

// Each case names exactly the fields in error and the sentence shown beside each: nothing more, nothing less.
describe('validateClusterForm', () => {
  const base = { ...emptyClusterForm(), name: 'x', url: 'http://h:1' };

  it('asks for a name and a URL, blank or only spaces', () => {
    const asked = { name: 'Give the cluster a name, e.g. "prod-eu".', url: 'Enter the JobManager REST URL, e.g. http://flink-jm:8081.' };
    expect(validateClusterForm(emptyClusterForm(), null)).toEqual(asked);
    expect(validateClusterForm({ ...emptyClusterForm(), name: '  ', url: ' \t' }, null)).toEqual(asked);
    expect(validateClusterForm({ ...base, name: '' }, null)).toEqual({ name: asked.name });
    expect(validateClusterForm({ ...base, url: '' }, null)).toEqual({ url: asked.url });
  });

  it('leaves the URL format to the engine', () => {
    expect(validateClusterForm({ ...base, url: 'not a url' }, null)).toEqual({});
  });

  it('checks the timeout range: whole milliseconds from 100 to 600000, blank for the default', () => {
    const outOfRange = { timeoutMs: 'Enter whole milliseconds between 100 and 600000.' };
    for (const timeoutMs of ['50', '99', '1.5', '600001', 'soon', '-1000']) {
      expect(validateClusterForm({ ...base, timeoutMs }, null), timeoutMs).toEqual(outOfRange);
    }
    for (const timeoutMs of ['100', '2500', '600000', '', ' 2500 ']) {
      expect(validateClusterForm({ ...base, timeoutMs }, null), timeoutMs).toEqual({});
    }
  });

  it('needs new secrets but lets an edit keep the stored one', () => {
    const basic = { ...base, authKind: 'basic' as const, username: 'u' };
    expect(validateClusterForm(basic, null)).toEqual({ password: 'Basic authentication needs a password.' });
    expect(validateClusterForm({ ...basic, username: ' ' }, null)).toEqual({ username: 'Basic authentication needs a username.', password: 'Basic authentication needs a password.' });
    expect(validateClusterForm(basic, saved)).toEqual({});
    // The stored secret is a password: a switch to a token needs the token.
    const bearer = { ...basic, authKind: 'bearer' as const };
    expect(validateClusterForm(bearer, saved)).toEqual({ token: 'Bearer authentication needs a token.' });
    expect(validateClusterForm({ ...bearer, token: '  ' }, null)).toEqual({ token: 'Bearer authentication needs a token.' });
    expect(validateClusterForm({ ...bearer, token: 't0k' }, null)).toEqual({});
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

describe('the metrics store', () => {
  const base = { ...emptyClusterForm(), name: 'x', url: 'http://h:1' };
  const withStore: ClusterConfig = { ...saved, metricsStore: { url: 'https://prom:9090', auth: { kind: 'bearer', hasSecret: true }, caFile: '/ca.pem' } };

  it('is left out without a URL, whatever its other fields hold', () => {
    const input = toClusterInput({ ...base, storeAuthKind: 'basic', storeUsername: 'u', storeCaFile: '/ca.pem' }, null);
    expect(input.metricsStore).toBeUndefined();
    expect(validateClusterForm({ ...base, storeAuthKind: 'basic' }, null)).toEqual({});
  });

  it('needs its own secret, and lets an edit keep the stored one', () => {
    const bearer = { ...base, storeUrl: ' https://prom:9090 ', storeAuthKind: 'bearer' as const };
    expect(validateClusterForm(bearer, null)).toEqual({ storeToken: 'Bearer authentication needs a token.' });
    expect(validateClusterForm(clusterToForm(withStore), withStore)).toEqual({});
    expect(toClusterInput(clusterToForm(withStore), withStore).metricsStore).toEqual({ url: 'https://prom:9090', auth: { kind: 'bearer' }, caFile: '/ca.pem' });
    expect(toClusterInput({ ...bearer, storeToken: ' t ' }, null).metricsStore).toEqual({ url: 'https://prom:9090', auth: { kind: 'bearer', token: 't' } });
  });

  it('keeps the cluster\'s secret and the store\'s apart', () => {
    // The cluster keeps its password; the store (no secret kept) needs one of its own.
    const form = { ...clusterToForm(saved), storeUrl: 'http://prom:9090', storeAuthKind: 'basic' as const, storeUsername: 'reader' };
    expect(validateClusterForm(form, saved)).toEqual({ storePassword: 'Basic authentication needs a password.' });
  });
});
