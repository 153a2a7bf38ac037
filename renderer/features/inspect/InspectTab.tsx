import type { ReactNode } from 'react';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { testIds } from '../../testIds';
import { markedVertexOf } from '../diagnosis/finding';
import type { JobTabProps } from '../job-graph/JobTabs';
import { ConfigurationPanel } from './ConfigurationPanel';
import { FlameGraphPanel } from './FlameGraphPanel';
import { VertexInspectPanel } from './VertexInspectPanel';
import './inspect.css';

/**
 * A vertex picked here (or by the URL, or the one the diagnosis names) and the job's configuration. Nothing here is
 * part of the graph's refresh: these requests are made only while the tab is open.
 */
export function InspectTab({ clusterId, jobId, vertexId, subtask, graph, recorded, refresh, onNavigate, diagnosis }: JobTabProps): ReactNode {
  const vertices = graph?.vertices ?? [];
  const chosen = vertexId ?? markedVertexOf(diagnosis?.finding ?? null) ?? vertices[0]?.id ?? null;
  const chosenVertex = vertices.find((v) => v.id === chosen);
  return (
    <>
      {recorded ? <p className="hint">The cluster no longer has this job: there is nothing to inspect live.</p> : null}
      {!recorded && vertices.length > 0 ? (
        <label className="inspect-vertex-select">
          Vertex{' '}
          <select
            value={chosen ?? ''}
            onChange={(e) => onNavigate({ page: 'job', clusterId, jobId, vertexId: e.target.value, tab: 'inspect' }, { replace: true })}
            data-testid={testIds.inspect.vertexSelect}
          >
            {vertices.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {!recorded && chosen ? (
        <ErrorBoundary panel="The vertex views" resetKey={chosen}>
          <VertexInspectPanel key={chosen} clusterId={clusterId} jobId={jobId} vertexId={chosen} refresh={refresh} />
        </ErrorBoundary>
      ) : null}
      {!recorded && chosenVertex ? (
        <ErrorBoundary panel="The flame graph" resetKey={chosenVertex.id}>
          <FlameGraphPanel key={`${chosenVertex.id}/${subtask ?? ''}`} clusterId={clusterId} jobId={jobId} vertexId={chosenVertex.id} parallelism={chosenVertex.parallelism} initialSubtask={subtask} />
        </ErrorBoundary>
      ) : null}
      {!recorded ? (
        <ErrorBoundary panel="The configuration" resetKey={`${clusterId}/${jobId}`}>
          <ConfigurationPanel clusterId={clusterId} jobId={jobId} />
        </ErrorBoundary>
      ) : null}
    </>
  );
}
