import type { StateApi } from '../../../engine/contracts/state';
import { useService } from '../../app/engine';

/** The state service (engine/contracts/state.ts), as the components reach it. */
export function useStateApi(): StateApi {
  return useService('state');
}
