import type { AdviceApi } from '../../../engine/contracts/advice';
import { useService } from '../../app/engine';

/** The advice service (engine/contracts/advice.ts), as the components reach it. */
export function useAdviceApi(): AdviceApi {
  return useService('advice');
}
