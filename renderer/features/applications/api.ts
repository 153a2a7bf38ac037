import type { ApplicationsApi } from '../../../engine/contracts/applications';
import { useService } from '../../app/engine';

/** The applications service (engine/contracts/applications.ts), as the components reach it. */
export function useApplicationsApi(): ApplicationsApi {
  return useService('applications');
}
