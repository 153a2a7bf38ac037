import type { InspectApi } from '../../../engine/contracts/inspect';
import { useService } from '../../app/engine';

/** The inspect service (engine/contracts/inspect.ts), as the components reach it. */
export function useInspectApi(): InspectApi {
  return useService('inspect');
}
