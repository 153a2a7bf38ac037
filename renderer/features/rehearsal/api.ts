import type { RehearsalApi } from '../../../engine/contracts/rehearsal';
import { useService } from '../../app/engine';

/** The rehearsal service (engine/contracts/rehearsal.ts), as the components reach it. */
export function useRehearsalApi(): RehearsalApi {
  return useService('rehearsal');
}
