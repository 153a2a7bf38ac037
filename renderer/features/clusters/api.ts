import type { ClustersApi } from '../../../engine/contracts/clusters';
import { useService } from '../../app/engine';

/** The clusters service (engine/contracts/clusters.ts), as the components reach it. */
export function useClustersApi(): ClustersApi {
  return useService('clusters');
}
