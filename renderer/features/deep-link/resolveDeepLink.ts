import type { ClusterConfig } from '../../../engine/contracts/clusters';
import type { DeepLinkTarget } from '../../../engine/contracts/deep-link';

export type DeepLinkResolution =
  | { kind: 'job'; clusterId: string; jobId: string }
  | { kind: 'unknown-cluster'; clusterName: string }
  | { kind: 'ambiguous'; clusterName: string; candidates: string[] };

/**
 * The saved cluster a link names: the one with exactly that name, else the only one whose name matches
 * ignoring case (a link retyped in chat). Never a guess between two.
 */
export function resolveDeepLink(target: DeepLinkTarget, clusters: readonly Pick<ClusterConfig, 'id' | 'name'>[]): DeepLinkResolution {
  const exact = clusters.filter((c) => c.name === target.clusterName);
  const matches = exact.length > 0 ? exact : clusters.filter((c) => c.name.toLowerCase() === target.clusterName.toLowerCase());
  if (matches.length === 1) return { kind: 'job', clusterId: matches[0].id, jobId: target.jobId };
  if (matches.length === 0) return { kind: 'unknown-cluster', clusterName: target.clusterName };
  return { kind: 'ambiguous', clusterName: target.clusterName, candidates: matches.map((c) => c.name) };
}
