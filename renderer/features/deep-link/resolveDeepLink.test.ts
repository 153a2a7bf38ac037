import { describe, expect, it } from 'vitest';
import { resolveDeepLink } from './resolveDeepLink';

const job = '0123456789abcdef0123456789abcdef';
const clusters = [
  { id: 'local', name: 'Local engine' },
  { id: 'c1', name: 'prod-eu' },
  { id: 'c2', name: 'Staging' },
  { id: 'c3', name: 'staging' },
];

describe('resolveDeepLink', () => {
  it('opens the job on the cluster with that name', () => {
    expect(resolveDeepLink({ clusterName: 'prod-eu', jobId: job }, clusters)).toEqual({ kind: 'job', clusterId: 'c1', jobId: job });
    expect(resolveDeepLink({ clusterName: 'Staging', jobId: job }, clusters)).toMatchObject({ clusterId: 'c2' });
  });

  it('forgives case when only one cluster matches', () => {
    expect(resolveDeepLink({ clusterName: 'PROD-EU', jobId: job }, clusters)).toMatchObject({ kind: 'job', clusterId: 'c1' });
    expect(resolveDeepLink({ clusterName: 'STAGING', jobId: job }, clusters)).toEqual({ kind: 'ambiguous', clusterName: 'STAGING', candidates: ['Staging', 'staging'] });
  });

  it('says when no saved cluster has the name', () => {
    expect(resolveDeepLink({ clusterName: 'prod-us', jobId: job }, clusters)).toEqual({ kind: 'unknown-cluster', clusterName: 'prod-us' });
  });
});
