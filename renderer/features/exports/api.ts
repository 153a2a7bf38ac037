import type { ExportsApi } from '../../../engine/contracts/exports';
import { useService } from '../../app/engine';

/** The exports service (engine/contracts/exports.ts), as the components reach it. */
export function useExportsApi(): ExportsApi {
  return useService('exports');
}
