import { describe, expect, it } from 'vitest';
import { formatRoute, parseHash, routeClusterId, type Route } from './route';

describe('parseHash', () => {
  it('reads the home page from an empty or root hash', () => {
    expect(parseHash('')).toEqual({ page: 'home' });
    expect(parseHash('#')).toEqual({ page: 'home' });
    expect(parseHash('#/')).toEqual({ page: 'home' });
    expect(parseHash('#/clusters')).toEqual({ page: 'home' });
  });

  it('reads an application page (Flink 2.3), and writes it back', () => {
    const route: Route = { page: 'application', clusterId: 'c 1', applicationId: 'a'.repeat(32) };
    expect(parseHash(`#/clusters/c%201/applications/${'a'.repeat(32)}`)).toEqual(route);
    expect(parseHash(formatRoute(route))).toEqual(route);
    expect(routeClusterId(route)).toBe('c 1');
  });

  it('reads cluster pages', () => {
    expect(parseHash('#/clusters/new')).toEqual({ page: 'add-cluster' });
    expect(parseHash('#/clusters/c1')).toEqual({ page: 'cluster', clusterId: 'c1' });
    expect(parseHash('#/clusters/c1/')).toEqual({ page: 'cluster', clusterId: 'c1' });
    expect(parseHash('#/clusters/c1/jobs')).toEqual({ page: 'cluster', clusterId: 'c1' });
    expect(parseHash('#/clusters/c1/edit')).toEqual({ page: 'edit-cluster', clusterId: 'c1' });
  });

  it('reads a job page with and without a selected vertex', () => {
    expect(parseHash('#/clusters/c1/jobs/abc')).toEqual({ page: 'job', clusterId: 'c1', jobId: 'abc', vertexId: null });
    expect(parseHash('#/clusters/c1/jobs/abc?vertex=v9')).toEqual({
      page: 'job',
      clusterId: 'c1',
      jobId: 'abc',
      vertexId: 'v9',
    });
    expect(parseHash('#/clusters/c1/jobs/abc?vertex=')).toMatchObject({ vertexId: null });
    expect(parseHash('#/clusters/c1/jobs/abc?tab=checkpoints')).toEqual({ page: 'job', clusterId: 'c1', jobId: 'abc', vertexId: null, tab: 'checkpoints' });
  });

  it('reads the job page\'s tab (the page shows the graph for none, or one it does not have)', () => {
    expect(parseHash('#/clusters/c1/jobs/abc?tab=exceptions')).toEqual({ page: 'job', clusterId: 'c1', jobId: 'abc', vertexId: null, tab: 'exceptions' });
    expect(parseHash('#/clusters/c1/jobs/abc?vertex=v9&tab=exceptions')).toMatchObject({ vertexId: 'v9', tab: 'exceptions' });
    expect(parseHash('#/clusters/c1/jobs/abc')).toEqual({ page: 'job', clusterId: 'c1', jobId: 'abc', vertexId: null });
  });

  it('reads a journal entry to mark on the Operations tab (a link from the Rescales tab)', () => {
    expect(parseHash('#/clusters/c1/jobs/abc?tab=operations&entry=e1')).toEqual({ page: 'job', clusterId: 'c1', jobId: 'abc', vertexId: null, tab: 'operations', entry: 'e1' });
  });

  it('reads the evidence of a finding: a vertex with its subtasks sorted by a column and a subtask marked', () => {
    expect(parseHash('#/clusters/c1/jobs/abc?vertex=v9&sort=busyTimeMsPerSecond&subtask=12')).toEqual({
      page: 'job',
      clusterId: 'c1',
      jobId: 'abc',
      vertexId: 'v9',
      sort: 'busyTimeMsPerSecond',
      subtask: 12,
    });
    expect(parseHash('#/clusters/c1/jobs/abc?vertex=v9&subtask=-1')).not.toHaveProperty('subtask');
    expect(parseHash('#/clusters/c1/jobs/abc?sort=busy')).not.toHaveProperty('sort');
  });

  it('decodes encoded ids', () => {
    expect(parseHash('#/clusters/prod%20eu%2F1')).toEqual({ page: 'cluster', clusterId: 'prod eu/1' });
  });

  it('marks anything else as unknown instead of throwing', () => {
    expect(parseHash('#/nope')).toEqual({ page: 'unknown', hash: '#/nope' });
    expect(parseHash('#/clusters/c1/jobs/a/b')).toMatchObject({ page: 'unknown' });
    expect(parseHash('#/clusters/%E0%A4%A')).toMatchObject({ page: 'unknown' });
  });
});

describe('formatRoute', () => {
  const routes: Route[] = [
    { page: 'home' },
    { page: 'add-cluster' },
    { page: 'edit-cluster', clusterId: 'a b' },
    { page: 'cluster', clusterId: 'c/1' },
    { page: 'job', clusterId: 'c1', jobId: 'j1', vertexId: null },
    { page: 'job', clusterId: 'c1', jobId: 'j1', vertexId: 'v&1' },
    { page: 'job', clusterId: 'c1', jobId: 'j1', vertexId: null, tab: 'exceptions' },
    { page: 'job', clusterId: 'c1', jobId: 'j1', vertexId: 'v1', tab: 'exceptions' },
    { page: 'job', clusterId: 'c1', jobId: 'j1', vertexId: null, tab: 'checkpoints' },
    { page: 'job', clusterId: 'c1', jobId: 'j1', vertexId: 'v1', tab: 'metrics' },
    { page: 'job', clusterId: 'c1', jobId: 'j1', vertexId: 'v1', sort: 'recordsIn', subtask: 0 },
    { page: 'job', clusterId: 'c1', jobId: 'j1', vertexId: null, tab: 'operations', entry: 'b'.repeat(32) },
  ];

  it.each(routes)('round-trips %j', (route) => {
    expect(parseHash(formatRoute(route))).toEqual(route);
  });

  it('writes the documented shapes', () => {
    expect(formatRoute({ page: 'job', clusterId: 'c1', jobId: 'j1', vertexId: 'v1' })).toBe(
      '#/clusters/c1/jobs/j1?vertex=v1',
    );
  });
});

describe('routeClusterId', () => {
  it('names the cluster of cluster-scoped routes only', () => {
    expect(routeClusterId({ page: 'job', clusterId: 'c1', jobId: 'j', vertexId: null })).toBe('c1');
    expect(routeClusterId({ page: 'home' })).toBeNull();
  });
});

describe('deep links in the hash', () => {
  const job = '0123456789abcdef0123456789abcdef';

  it('reads #/cluster/<name>/job/<id>, the desktop link\'s path', () => {
    expect(parseHash(`#/cluster/prod%20eu/job/${job}`)).toEqual({ page: 'deep-link', clusterName: 'prod eu', jobId: job });
    expect(parseHash(`#cluster/prod/job/${job}`)).toEqual({ page: 'deep-link', clusterName: 'prod', jobId: job });
    expect(formatRoute({ page: 'deep-link', clusterName: 'prod eu', jobId: job })).toBe(`#/cluster/prod%20eu/job/${job}`);
  });

  it('treats a malformed one as an unknown page', () => {
    for (const hash of [`#/cluster/prod/job/123`, `#/cluster//job/${job}`, `#/cluster/prod/job/${job}?vertex=x`, `#/cluster/prod`]) {
      expect(parseHash(hash), hash).toEqual({ page: 'unknown', hash });
    }
  });
});
