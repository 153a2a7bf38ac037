import type { Finding, SkewMetric } from '../../../engine/contracts/diagnosis';
import type { SubtaskColumn } from '../subtasks/sortSubtasks';

/** The subtasks-table column that shows a metric (the table has counts where the window has rates). */
export const SUBTASK_COLUMN_OF: Record<SkewMetric, SubtaskColumn> = {
  recordsInPerSecond: 'recordsIn',
  recordsOutPerSecond: 'recordsOut',
  bytesInPerSecond: 'bytesIn',
  bytesOutPerSecond: 'bytesOut',
  busyTimeMsPerSecond: 'busyTimeMsPerSecond',
  backPressuredTimeMsPerSecond: 'backPressuredTimeMsPerSecond',
  idleTimeMsPerSecond: 'idleTimeMsPerSecond',
  checkpointedStateBytes: 'index',
};

const COLUMNS = new Set<string>(Object.values(SUBTASK_COLUMN_OF));

/** A column named in the URL, if the table has it. */
export function subtaskColumn(name: string | undefined): SubtaskColumn | null {
  return name && COLUMNS.has(name) ? (name as SubtaskColumn) : null;
}

/**
 * Where "show the evidence" goes: the finding's vertex, its table sorted by the proving metric, the named subtask; a
 * held-back watermark goes to the vertex's watermarks (the Inspect tab), where the low subtask and its lag are named.
 */
export function evidenceOf(finding: Finding): { vertexId: string; sort?: SubtaskColumn; subtask?: number; tab?: string } | null {
  if (!finding.vertexId) return null;
  if (finding.kind === 'idle-source-split') return { vertexId: finding.vertexId, tab: 'inspect' };
  return {
    vertexId: finding.vertexId,
    ...(finding.metric && { sort: SUBTASK_COLUMN_OF[finding.metric] }),
    ...(finding.subtasks.length > 0 && { subtask: finding.subtasks[0].subtask }),
  };
}
