import { useCallback, useRef, type ReactNode } from 'react';
import type { JobGraph } from '../../../engine/contracts/engine-api';
import { useEngine } from '../../app/engine';
import { useClusterRefresh } from '../../app/refreshSettings';
import { JOB_TABS, type JobTab, type Route } from '../../app/route';
import { hrefFor } from '../../app/useHashRoute';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { isNotFound } from '../../components/errors';
import { formatBytes, formatDuration, formatMillis } from '../../components/format';
import { Freshness } from '../../components/Freshness';
import { RefreshControl } from '../../components/RefreshControl';
import { StateBadge } from '../../components/StateBadge';
import { useNow } from '../../components/useNow';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { ExceptionsPanel } from '../exceptions/ExceptionsPanel';
import { liveDuration } from '../jobs/jobs';
import { useClusterFloor } from '../overview/useClusterFloor';
import { SubtasksPanel } from '../subtasks/SubtasksPanel';
import { ExportSubtasksButton } from './ExportSubtasksButton';
import { KafkaPanel } from '../kafka/KafkaPanel';
import { JobGraphCanvas, type JobGraphControl } from './JobGraphCanvas';
import { notRunningNotice } from './notRunning';
import { useGraphLayout } from './useGraphLayout';
import { VertexList } from './VertexList';

const JOB_TAB_LABELS: Record<JobTab, string> = { graph: 'Graph', exceptions: 'Exceptions', kafka: 'Kafka' };

export interface JobPageProps {
  clusterId: string;
  clusterName: string | null;
  jobId: string;
  vertexId: string | null;
  /** @default 'graph' */
  tab?: JobTab;
  onNavigate: (route: Route, options?: { replace?: boolean }) => void;
}

/**
 * One job: header, then two tabs. The graph (laid out once per structure) with the selected vertex's subtasks, or the
 * exception history. A job that is not running says so above both.
 */
export function JobPage({ clusterId, clusterName, jobId, vertexId, tab = 'graph', onNavigate }: JobPageProps): ReactNode {
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
  const tabHref = (to: JobTab) => hrefFor({ page: 'job', clusterId, jobId, vertexId, ...(to !== 'graph' ? { tab: to } : {}) });
  const notice = graph ? notRunningNotice(graph.state, graph.endTime) : null;
  const onCloseSubtasks = useCallback(
    () => onNavigate({ page: 'job', clusterId, jobId, vertexId: null }, { replace: true }),
    [onNavigate, clusterId, jobId],
  );
  const gone = isNotFound(poll.error);
  const selected = graph?.vertices.find((v) => v.id === vertexId) ?? null;
  const graphControl = useRef<JobGraphControl>(null);
  const onZoomTo = useCallback((id: string) => graphControl.current?.zoomTo(id), []);

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
          {graph ? <ExportSubtasksButton clusterId={clusterId} jobId={jobId} /> : null}
        </div>
        <div className="job-header__facts">
          <code className="mono small" title="Job ID">
            {jobId}
          </code>
          {graph ? <JobFacts graph={graph} fetchedAt={poll.updatedAt} refreshMs={poll.durationMs} /> : null}
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

      {notice ? (
        <section className="job-not-running" role="status" data-testid={testIds.jobGraph.notRunning} data-state={graph?.state}>
          <strong>{notice.headline}</strong> {notice.detail}
          {notice.seeExceptions && tab !== 'exceptions' ? (
            <>
              {' '}
              <a href={tabHref('exceptions')}>See the exceptions for why.</a>
            </>
          ) : null}
        </section>
      ) : null}

      <nav className="tabs" aria-label="Job views" data-testid={testIds.jobGraph.tabs}>
        {JOB_TABS.map((to) => (
          <a key={to} className={`tabs__tab${tab === to ? ' tabs__tab--active' : ''}`} href={tabHref(to)} aria-current={tab === to ? 'page' : undefined}>
            {JOB_TAB_LABELS[to]}
          </a>
        ))}
      </nav>

      {tab === 'exceptions' ? (
        <ErrorBoundary panel="The exception history" resetKey={`${clusterId}/${jobId}/exceptions`}>
          <ExceptionsPanel clusterId={clusterId} jobId={jobId} refresh={refresh} />
        </ErrorBoundary>
      ) : tab === 'kafka' ? (
        <ErrorBoundary panel="The Kafka panel" resetKey={`${clusterId}/${jobId}/kafka`}>
          <KafkaPanel clusterId={clusterId} jobId={jobId} graph={graph ?? null} refresh={refresh} />
        </ErrorBoundary>
      ) : (
        <>
          <ErrorBoundary panel="The job graph" resetKey={`${clusterId}/${jobId}`}>
            <section className={`panel graph-panel${vertexId ? ' graph-panel--with-subtasks' : ''}${poll.stale ? ' is-stale' : ''}`} aria-label="Job graph">
              {graph && layout ? (
                <JobGraphCanvas
                  key={structureKey ?? ''}
                  ref={graphControl}
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

          {graph && layout ? (
            <ErrorBoundary panel="The vertex list" resetKey={`${clusterId}/${jobId}/vertices`}>
              <VertexList graph={graph} selectedVertexId={vertexId} onSelect={onSelectVertex} onZoomTo={onZoomTo} />
            </ErrorBoundary>
          ) : null}

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
        </>
      )}
    </div>
  );
}

function JobFacts({ graph, fetchedAt, refreshMs }: { graph: JobGraph; fetchedAt: number | null; refreshMs: number | null }): ReactNode {
  const now = useNow();
  const duration = liveDuration({ durationMs: graph.durationMs, endTime: null, state: graph.state }, fetchedAt, now);
  const failedMetrics = graph.vertices.filter((v) => v.metricsUnavailable !== undefined && v.metricsFetchedAt === undefined).length;
  return (
    <>
      <span>
        Duration <strong data-testid={testIds.jobGraph.duration}>{formatDuration(duration)}</strong>
      </span>
      <span>
        {graph.vertices.length} vertices
        {graph.maxParallelism != null ? ` · max parallelism ${graph.maxParallelism}` : ''}
      </span>
      <span title="This refresh's cost: REST requests the engine made to the cluster, what they answered, and how long the refresh took" data-testid={testIds.jobGraph.refreshCost}>
        <strong data-testid={testIds.jobGraph.requestCount}>{graph.requestCount}</strong> requests
        {graph.responseBytes != null ? ` · ${formatBytes(graph.responseBytes)}` : ''}
        {refreshMs != null ? ` · ${formatMillis(refreshMs)}` : ''} this refresh
      </span>
      {graph.metricsSampling ? (
        <span
          data-testid={testIds.jobGraph.metricsSampling}
          title={`A refresh asks metrics for at most ${graph.metricsSampling.maxPerRefresh} vertices; the others show their latest sample until their turn.`}
        >
          metrics sampled for {graph.metricsSampling.sampled} of {graph.metricsSampling.of} vertices, in turns
        </span>
      ) : null}
      {failedMetrics > 0 ? (
        <span className="job-facts__warning" data-testid={testIds.jobGraph.metricsUnavailableCount} title="Their metrics request failed this refresh; hover a vertex for why">
          ⚠ {failedMetrics} {failedMetrics === 1 ? 'vertex' : 'vertices'} without metrics
        </span>
      ) : null}
    </>
  );
}
