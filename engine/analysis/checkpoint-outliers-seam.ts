import type { CheckpointOutlier } from '../contracts/diagnosis.ts';
import type { CheckpointRecord } from '../history/checkpoint-history.ts';

/**
 * SEAM (issue 9): the checkpoint outlier analysis (slow or oversized subtasks in the checkpoints of the window) is
 * built with the checkpoint history by issue 9 and is not in this branch. The diagnosis, the CLI and the UI already
 * carry its result (`JobDiagnosis.checkpointOutliers`): wire that analysis in here. Until then: null, which the
 * diagnosis reports under "not known" instead of pretending there are no outliers.
 */
export function checkpointOutliers(_checkpoints: readonly CheckpointRecord[] = []): CheckpointOutlier[] | null {
  return null;
}
