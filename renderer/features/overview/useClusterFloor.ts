import { useEffect } from 'react';
import { refreshSettings } from '../../app/refreshSettings';
import { useClustersApi } from '../clusters/api';

/**
 * Pages other than the overview (a job opened straight from a link) need the cluster's refresh floor
 * too: ask for the overview once when it is not known. Until then the conservative fallback applies.
 */
export function useClusterFloor(clusterId: string, knownMinMs: number | null): void {
  const clustersApi = useClustersApi();
  useEffect(() => {
    if (knownMinMs != null) return;
    let live = true;
    clustersApi.overview(clusterId).then(
      (overview) => {
        if (live) refreshSettings.learnMin(clusterId, overview.minRefreshIntervalMs);
      },
      () => {
        // The fallback floor stays in force; the page's own calls report the problem.
      },
    );
    return () => {
      live = false;
    };
  }, [clustersApi, clusterId, knownMinMs]);
}
