import type { LogsApi } from '../../../engine/contracts/logs';
import { useService } from '../../app/engine';

/** The logs service (engine/contracts/logs.ts), as the components reach it. */
export function useLogsApi(): LogsApi {
  return useService('logs');
}
