import { useCallback, type ReactNode } from 'react';
import type { JobGraph } from '../../../engine/contracts/engine-api';
import { useEngine } from '../../app/engine';
import { useClusterRefresh } from '../../app/refreshSettings';
import type { Route } from '../../app/route';
import { hrefFor } from '../../app/useHashRoute';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { isNotFound } from '../../components/errors';
import { formatDuration } from '../../components/format';
import { Freshness } from '../../components/Freshness';
import { RefreshControl } from '../../components/RefreshControl';
import { StateBadge } from '../../components/StateBadge';
import { useNow } from '../../components/useNow';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { liveDuration } from '../jobs/jobs';
import { useClusterFloor } from '../overview/useClusterFloor';
import { OperationsArea } from '../operations/OperationsArea';
import { SubtasksPanel } from '../subtasks/SubtasksPanel';
import { JobGraphCanvas } from './JobGraphCanvas';
import { useGraphLayout } from './useGraphLayout';

export interface JobPageProps {
  clusterId: string;
  clusterName: string | null;
  jobId: string;
  vertexId: string | null;
  onNavigate: (route: Route, options?: { replace?: boolean }) => void;
}

/** One job: header, the graph (laid out once per structure), and the selected vertex's subtasks. */
export function JobPage({ clusterId, clusterName, jobId, vertexId, onNavigate }: JobPageProps): ReactNode {
  const { api } = useEngine();
  const refresh = useClusterRefresh(clusterId);
  useClusterFloor(clusterId, refresh.minMs);
  const poll = usePolling<JobGraph>(() => api.getJobGraph(clusterId, jobId), refresh.intervalMs, {
    key: `${clusterId}/${jobId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
    stopWhen: isNotFound,
  });
  const graph = poll.data;
  const { layout, structureKey } = useGraphLayout(graph);
  const jobsHref = hrefFor({ page: 'cluster', clusterId });

  const onSelectVertex = useCallback(
    (id: string) => onNavigate({ page: 'job', clusterId, jobId, vertexId: id }, { replace: true }),
    [onNavigate, clusterId, jobId],
  );
  const onCloseSubtasks = useCallback(
    () => onNavigate({ page: 'job', clusterId, jobId, vertexId: null }, { replace: true }),
    [onNavigate, clusterId, jobId],
  );
  const gone = isNotFound(poll.error);
  const selected = graph?.vertices.find((v) => v.id === vertexId) ?? null;

  return (
    <div className="job-page" data-testid={testIds.jobGraph.page}>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <a href={jobsHref}>← {clusterName ?? clusterId}: all jobs</a>
      </nav>
      <header className="job-header" data-testid={testIds.jobGraph.header}>
        <div className="job-header__title">
          <h1 className="page-title" data-testid={testIds.jobGraph.name} title={graph?.name ?? jobId}>
            {graph?.name ?? (gone ? 'Job not found' : 'Loading job…')}
          </h1>
          {graph ? <StateBadge state={graph.state} testId={testIds.jobGraph.state} /> : null}
        </div>
        <div className="job-header__facts">
          <code className="mono small" title="Job ID">
            {jobId}
          </code>
          {graph ? <JobFacts graph={graph} fetchedAt={poll.updatedAt} /> : null}
          <Freshness updatedAt={poll.updatedAt} loading={poll.loading} stale={poll.stale} />
        </div>
        <RefreshControl refresh={refresh} />
      </header>

      {gone ? (
        <section className="panel not-found" role="alert" data-testid={testIds.jobGraph.notFound}>
          <h2>This job is no longer on the cluster</h2>
          <p>
            The cluster does not know job <code className="mono">{jobId}</code> (anymore). It may have finished and been
            archived, been cancelled and cleaned up, or the link points to another cluster.
          </p>
          {poll.error?.endpoint ? (
            <p className="muted small">
              {poll.error.message} <code>{poll.error.endpoint}</code>
            </p>
          ) : null}
          <a className="button button--primary" href={jobsHref}>
            Back to the jobs list
          </a>
          {graph ? <p className="muted small">The last known graph is shown below for reference.</p> : null}
        </section>
      ) : (
        <PollErrorBanner poll={poll} context="Refreshing the job graph failed" />
      )}

      <ErrorBoundary panel="The job graph" resetKey={`${clusterId}/${jobId}`}>
        <section className={`panel graph-panel${vertexId ? ' graph-panel--with-subtasks' : ''}${poll.stale ? ' is-stale' : ''}`} aria-label="Job graph">
          {graph && layout ? (
            <JobGraphCanvas
              key={structureKey ?? ''}
              graph={graph}
              layout={layout}
              selectedVertexId={vertexId}
              onSelectVertex={onSelectVertex}
            />
          ) : graph ? (
            <div className="graph-placeholder" data-testid={testIds.jobGraph.layouting}>
              Laying out {graph.vertices.length} vertices…
            </div>
          ) : !poll.error ? (
            <div className="graph-placeholder">Loading the job graph…</div>
          ) : (
            <div className="graph-placeholder">No graph to show.</div>
          )}
        </section>
      </ErrorBoundary>

      {vertexId ? (
        <ErrorBoundary panel="The subtasks table" resetKey={vertexId}>
          <SubtasksPanel
            clusterId={clusterId}
            jobId={jobId}
            vertexId={vertexId}
            vertexName={selected?.name ?? null}
            refresh={refresh}
            onClose={onCloseSubtasks}
          />
        </ErrorBoundary>
      ) : graph && layout ? (
        <p className="hint">Click a vertex to see its subtasks.</p>
      ) : null}

      <OperationsArea clusterId={clusterId} jobId={jobId} jobState={graph?.state ?? null} refresh={refresh} />
    </div>
  );
}

function JobFacts({ graph, fetchedAt }: { graph: JobGraph; fetchedAt: number | null }): ReactNode {
  const now = useNow();
  const duration = liveDuration({ durationMs: graph.durationMs, endTime: null, state: graph.state }, fetchedAt, now);
  return (
    <>
      <span>
        Duration <strong data-testid={testIds.jobGraph.duration}>{formatDuration(duration)}</strong>
      </span>
      <span>
        {graph.vertices.length} vertices
        {graph.maxParallelism != null ? ` · max parallelism ${graph.maxParallelism}` : ''}
      </span>
      <span title="REST requests the engine made to the cluster for this refresh">
        <strong data-testid={testIds.jobGraph.requestCount}>{graph.requestCount}</strong> requests this refresh
      </span>
    </>
  );
}
