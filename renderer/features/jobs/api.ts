import type { JobsApi } from '../../../engine/contracts/jobs';
import { useService } from '../../app/engine';

/** The jobs service (engine/contracts/jobs.ts), as the components reach it. */
export function useJobsApi(): JobsApi {
  return useService('jobs');
}
