/**
 * Where the user is, kept in the URL hash so a reload (or a link pasted into chat at 3 a.m.) lands
 * on the same page. Pure: parse and format only, no window access.
 *
 *   #/                                  home (pick or add a cluster)
 *   #/clusters/new                      add a cluster
 *   #/clusters/<id>/edit                edit a cluster
 *   #/clusters/<id>                     overview + jobs
 *   #/clusters/<id>/jobs/<jobId>        job graph
 *   #/clusters/<id>/jobs/<jobId>?vertex=<vertexId>   job graph with a vertex's subtasks open
 *   #/clusters/<id>/applications/<appId>  an application (Flink 2.3): its jobs, its exceptions
 *   #/cluster/<name>/job/<jobId>        a deep link (engine/contracts/deep-link.ts): the job, by cluster name
 *   #/clusters/<id>/jobs/<jobId>?tab=<tab>          another tab of the job page (checkpoints, metrics, ...)
 *   #/clusters/<id>/jobs/<jobId>?vertex=<vertexId>&sort=<column>&subtask=<n>   ... sorted by a column, a subtask marked
 *   #/clusters/<id>/jobs/<jobId>?tab=operations&entry=<id>   the Operations tab, a journal entry marked
 */
import { deepLinkHash, parseDeepLinkPath } from '../../engine/contracts/deep-link';

export type Route =
  | { page: 'home' }
  | { page: 'add-cluster' }
  | { page: 'edit-cluster'; clusterId: string }
  | { page: 'cluster'; clusterId: string }
  | { page: 'job'; clusterId: string; jobId: string; vertexId: string | null; /** A job page tab other than the graph. */ tab?: string; sort?: string; subtask?: number; /** A journal entry marked on the Operations tab. */ entry?: string }
  | { page: 'application'; clusterId: string; applicationId: string }
  | { page: 'deep-link'; clusterName: string; jobId: string }
  | { page: 'unknown'; hash: string };

export function parseHash(hash: string): Route {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const queryAt = raw.indexOf('?');
  const path = queryAt >= 0 ? raw.slice(0, queryAt) : raw;
  const query = new URLSearchParams(queryAt >= 0 ? raw.slice(queryAt + 1) : '');
  const parts = path.split('/').filter((p) => p.length > 0);
  let segments: string[];
  try {
    segments = parts.map((p) => decodeURIComponent(p));
  } catch {
    return { page: 'unknown', hash };
  }

  if (segments.length === 0) return { page: 'home' };
  if (segments[0] === 'cluster') {
    const target = queryAt < 0 ? parseDeepLinkPath(path) : null;
    return target ? { page: 'deep-link', ...target } : { page: 'unknown', hash };
  }
  if (segments[0] !== 'clusters') return { page: 'unknown', hash };
  if (segments.length === 1) return { page: 'home' };
  if (segments.length === 2 && segments[1] === 'new') return { page: 'add-cluster' };
  const clusterId = segments[1];
  if (segments.length === 2) return { page: 'cluster', clusterId };
  if (segments.length === 3 && segments[2] === 'edit') return { page: 'edit-cluster', clusterId };
  if (segments.length === 3 && segments[2] === 'jobs') return { page: 'cluster', clusterId };
  if (segments.length === 4 && segments[2] === 'applications') return { page: 'application', clusterId, applicationId: segments[3] };
  if (segments.length === 4 && segments[2] === 'jobs') {
    const vertex = query.get('vertex');
    const route: Route = { page: 'job', clusterId, jobId: segments[3], vertexId: vertex && vertex.length > 0 ? vertex : null };
    const tab = query.get('tab');
    if (tab) route.tab = tab;
    const entry = query.get('entry');
    if (entry) route.entry = entry;
    // The evidence of a finding: the subtasks table sorted by the metric that proves it, the named subtask marked.
    const sort = query.get('sort');
    const subtask = Number(query.get('subtask') ?? Number.NaN);
    if (route.vertexId && sort) route.sort = sort;
    if (route.vertexId && query.has('subtask') && Number.isInteger(subtask) && subtask >= 0) route.subtask = subtask;
    return route;
  }
  return { page: 'unknown', hash };
}

export function formatRoute(route: Route): string {
  const enc = encodeURIComponent;
  switch (route.page) {
    case 'home':
      return '#/';
    case 'add-cluster':
      return '#/clusters/new';
    case 'edit-cluster':
      return `#/clusters/${enc(route.clusterId)}/edit`;
    case 'cluster':
      return `#/clusters/${enc(route.clusterId)}`;
    case 'job': {
      const base = `#/clusters/${enc(route.clusterId)}/jobs/${enc(route.jobId)}`;
      const query = [
        route.vertexId ? `vertex=${enc(route.vertexId)}` : '',
        route.vertexId && route.sort ? `sort=${enc(route.sort)}` : '',
        route.vertexId && route.subtask !== undefined ? `subtask=${route.subtask}` : '',
        route.tab ? `tab=${enc(route.tab)}` : '',
        route.entry ? `entry=${enc(route.entry)}` : '',
      ].filter(Boolean);
      return query.length > 0 ? `${base}?${query.join('&')}` : base;
    }
    case 'application':
      return `#/clusters/${enc(route.clusterId)}/applications/${enc(route.applicationId)}`;
    case 'deep-link':
      return deepLinkHash(route);
    case 'unknown':
      return route.hash.startsWith('#') ? route.hash : `#${route.hash}`;
  }
}

/** The cluster a route is about, if any: the sidebar highlights it. */
export function routeClusterId(route: Route): string | null {
  return 'clusterId' in route ? route.clusterId : null;
}
