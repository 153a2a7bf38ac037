import type { BackpressureLevel } from '../contracts/jobs.ts';

/**
 * Flink's thresholds (JobVertexBackPressureHandler), applied to the back-pressured ratio (ms per second / 1000):
 * ≤ 0.10 ok, ≤ 0.50 low, above that high. A vertex takes the level of its most back-pressured subtask.
 */
export function backpressureLevelOf(backPressuredTimeMsPerSecond: number): BackpressureLevel {
  const ratio = backPressuredTimeMsPerSecond / 1000;
  if (ratio <= 0.1) return 'ok';
  if (ratio <= 0.5) return 'low';
  return 'high';
}
