import type { OperationsApi } from '../../../engine/contracts/operations';
import { useService } from '../../app/engine';

/** The operations service (engine/contracts/operations.ts), as the components reach it. */
export function useOperationsApi(): OperationsApi {
  return useService('operations');
}
