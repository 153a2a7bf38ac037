import type { KafkaApi } from '../../../engine/contracts/kafka';
import { useService } from '../../app/engine';

/** The kafka service (engine/contracts/kafka.ts), as the components reach it. */
export function useKafkaApi(): KafkaApi {
  return useService('kafka');
}
