import type { ProfilerApi } from '../../../engine/contracts/profiler';
import { useService } from '../../app/engine';

/** The profiler service (engine/contracts/profiler.ts), as the components reach it. */
export function useProfilerApi(): ProfilerApi {
  return useService('profiler');
}
