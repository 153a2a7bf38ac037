import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { formatTimestamp } from '../../components/format';
import { testIds } from '../../testIds';
import { subtaskColumn } from '../diagnosis/evidence';
import { markedVertexOf } from '../diagnosis/finding';
import { SubtasksPanel } from '../subtasks/SubtasksPanel';
import { upstreamOf } from './graphFocus';
import { JobGraphCanvas, type JobGraphControl } from './JobGraphCanvas';
import type { JobTabProps } from './JobTabs';
import { useGraphLayout } from './useGraphLayout';
import { useJobPlan } from './useJobPlan';
import { VertexList } from './VertexList';

/** The job graph (laid out once per structure) and the selected vertex's subtasks. */
export function GraphTab({ clusterId, jobId, vertexId, graph, recorded, stale, failed, refresh, onNavigate, sort, subtask, diagnosis }: JobTabProps): ReactNode {
  const plan = useJobPlan(clusterId, jobId);
  const { layout, structureKey } = useGraphLayout(graph ?? plan);
  const onSelectVertex = useCallback(
    (id: string) => onNavigate({ page: 'job', clusterId, jobId, vertexId: id }, { replace: true }),
    [onNavigate, clusterId, jobId],
  );
  const onCloseSubtasks = useCallback(
    () => onNavigate({ page: 'job', clusterId, jobId, vertexId: null }, { replace: true }),
    [onNavigate, clusterId, jobId],
  );
  const selected = graph?.vertices.find((v) => v.id === vertexId) ?? null;
  const graphControl = useRef<JobGraphControl>(null);
  const onZoomTo = useCallback((id: string) => graphControl.current?.zoomTo(id), []);
  // The vertex the diagnosis names leads the eye, and the path from the sources to it stands out.
  const focusVertexId = recorded ? null : markedVertexOf(diagnosis?.finding ?? null);
  const edges = graph?.edges;
  const highlightPath = useMemo(() => (focusVertexId && edges ? upstreamOf(edges, focusVertexId) : null), [focusVertexId, edges]);
  return (
    <>
      {recorded && graph ? (
        <p className="hint">The graph as the console last sampled it, at {formatTimestamp(graph.fetchedAt)}: figures from then, not now.</p>
      ) : null}
      <ErrorBoundary panel="The job graph" resetKey={`${clusterId}/${jobId}`}>
        <section className={`panel graph-panel${vertexId && !recorded ? ' graph-panel--with-subtasks' : ''}${stale ? ' is-stale' : ''}`} aria-label="Job graph">
          {graph && layout ? (
            <JobGraphCanvas
              key={structureKey ?? ''}
              ref={graphControl}
              graph={graph}
              layout={layout}
              selectedVertexId={vertexId}
              onSelectVertex={onSelectVertex}
              focusVertexId={focusVertexId}
              highlightPath={highlightPath}
            />
          ) : graph ? (
            <div className="graph-placeholder" data-testid={testIds.jobGraph.layouting}>
              Laying out {graph.vertices.length} vertices…
            </div>
          ) : failed ? (
            <div className="graph-placeholder">No graph to show.</div>
          ) : (
            <div className="graph-placeholder">Loading the job graph…</div>
          )}
        </section>
      </ErrorBoundary>
      {graph && layout ? (
        <ErrorBoundary panel="The vertex list" resetKey={`${clusterId}/${jobId}/vertices`}>
          <VertexList graph={graph} selectedVertexId={vertexId} onSelect={onSelectVertex} onZoomTo={onZoomTo} />
        </ErrorBoundary>
      ) : null}
      {vertexId && !recorded ? (
        <ErrorBoundary panel="The subtasks table" resetKey={vertexId}>
          <SubtasksPanel
            key={`${vertexId}/${sort ?? ''}`}
            initialSort={subtaskColumn(sort ?? undefined)}
            markedSubtask={subtask}
            clusterId={clusterId}
            jobId={jobId}
            vertexId={vertexId}
            vertexName={selected?.name ?? null}
            refresh={refresh}
            onClose={onCloseSubtasks}
          />
        </ErrorBoundary>
      ) : graph && layout && !recorded ? (
        <p className="hint">Click a vertex to see its subtasks.</p>
      ) : null}
    </>
  );
}
