import type { DiagnosisApi } from '../../../engine/contracts/diagnosis';
import { useService } from '../../app/engine';

/** The diagnosis service (engine/contracts/diagnosis.ts), as the components reach it. */
export function useDiagnosisApi(): DiagnosisApi {
  return useService('diagnosis');
}
