import type { SubtaskReadings } from '../../../engine/contracts/history';
import { formatDuration } from '../../components/format';

/**
 * What the window's samples read per subtask, in one sentence: every vertex at each reading, or a big job's vertices
 * in turns (how many a sample, how many were read, how recently the least recent).
 */
export function readingsInWords(r: SubtaskReadings): string {
  if (r.vertices === 0) return '';
  if (r.read === 0) return 'No per-subtask figures in this window yet: the charts show Flink\'s figures over each vertex\'s subtasks.';
  const age = r.oldestReadingAgeMs !== null ? `, the least recent ${formatDuration(r.oldestReadingAgeMs)} before the window's end` : '';
  if (r.mostPerSample < r.vertices) {
    return `Per-subtask figures read in turns, at most ${r.mostPerSample} of the ${r.vertices} vertices a sample: ${r.read} of them read in this window${age}.`;
  }
  return `Per-subtask figures: ${r.read === r.vertices ? `all ${r.vertices} vertices` : `${r.read} of the ${r.vertices} vertices`} read in this window${age}.`;
}
