import type { HistoryApi } from '../../../engine/contracts/history';
import { useService } from '../../app/engine';

/** The history service (engine/contracts/history.ts), as the components reach it. */
export function useHistoryApi(): HistoryApi {
  return useService('history');
}
