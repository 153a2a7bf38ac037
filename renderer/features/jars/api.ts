import type { JarsApi } from '../../../engine/contracts/jars';
import { useService } from '../../app/engine';

/** The jars service (engine/contracts/jars.ts), as the components reach it. */
export function useJarsApi(): JarsApi {
  return useService('jars');
}
