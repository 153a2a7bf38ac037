import { useCallback, type ReactNode } from 'react';
import type { SkewMetric } from '../../../engine/contracts/diagnosis';
import type { JobTab, JobTabProps } from '../job-graph/JobTabs';
import { SUBTASK_COLUMN_OF } from './evidence';
import { highlightOf } from './finding';
import { SkewPanel } from './SkewPanel';

/**
 * The skew view: heatmap of vertices × subtasks, bars for one vertex, the skew table and the key lookup. It reads the
 * history (the job's newest samples), so it also shows a job the cluster no longer knows.
 */
function SkewTab({ clusterId, jobId, windowMs, diagnosis, refresh, onNavigate, onOpenAdvice }: JobTabProps): ReactNode {
  // A cell's click-through: the graph tab, that vertex's subtasks sorted by the metric shown, the subtask marked.
  const onOpenSubtask = useCallback(
    (vertexId: string, subtask: number, metric: SkewMetric) =>
      onNavigate({ page: 'job', clusterId, jobId, vertexId, sort: SUBTASK_COLUMN_OF[metric], subtask }, { replace: true }),
    [onNavigate, clusterId, jobId],
  );
  return (
    <SkewPanel
      clusterId={clusterId}
      jobId={jobId}
      windowMs={windowMs}
      diagnosis={diagnosis}
      refresh={refresh}
      highlight={highlightOf(diagnosis?.finding ?? null)}
      onOpenSubtask={onOpenSubtask}
      onOpenState={(vertexId) => onNavigate({ page: 'job', clusterId, jobId, vertexId, tab: 'state' })}
      onOpenAdvice={onOpenAdvice}
    />
  );
}

export const skewTab: JobTab = { id: 'skew', label: 'Skew', Component: SkewTab };
