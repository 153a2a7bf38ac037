import type { ReactNode } from 'react';
import type { ClusterConfig } from '../../../engine/contracts/clusters';
import { useClusterRefresh } from '../../app/refreshSettings';
import type { Route } from '../../app/route';
import { hrefFor } from '../../app/useHashRoute';
import { CopyText } from '../../components/CopyText';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { RefreshControl } from '../../components/RefreshControl';
import { RecordedJobsPanel } from '../history/RecordedJobsPanel';
import { testIds } from '../../testIds';
import { ApplicationsPanel } from '../applications/ApplicationsPanel';
import { JobsPanel } from '../jobs/JobsPanel';
import { JarsPanel } from '../jars/JarsPanel';
import { JournalPanel } from '../operations/JournalPanel';
import { TaskManagersPanel } from '../taskmanagers/TaskManagersPanel';
import { OverviewPanel } from './OverviewPanel';

/** An opened cluster: overview cards and the jobs table, each polled and failing on its own. */
export function ClusterPage({
  clusterId,
  cluster,
  onNavigate,
}: {
  clusterId: string;
  cluster: ClusterConfig | null;
  onNavigate: (route: Route) => void;
}): ReactNode {
  const refresh = useClusterRefresh(clusterId);
  return (
    <div className="cluster-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{cluster?.name ?? clusterId}</h1>
          {cluster ? (
            <p className="muted small cluster-url">
              REST URL <CopyText text={cluster.url} label="the REST URL" testId={testIds.clusters.restUrl} />
              {cluster.builtIn ? (
                <span> · the console's bundled local engine: Flink's REST API, for curl or <code>flink-ops … --url</code></span>
              ) : (
                <>
                  {' · '}
                  <a href={hrefFor({ page: 'edit-cluster', clusterId })}>edit</a>
                </>
              )}
            </p>
          ) : null}
        </div>
        <RefreshControl refresh={refresh} />
      </header>
      <ErrorBoundary panel="The cluster overview" resetKey={clusterId}>
        <OverviewPanel clusterId={clusterId} refresh={refresh} />
      </ErrorBoundary>
      <ErrorBoundary panel="The jobs table" resetKey={clusterId}>
        <JobsPanel clusterId={clusterId} refresh={refresh} onNavigate={onNavigate} />
      </ErrorBoundary>
      <ErrorBoundary panel="The applications" resetKey={clusterId}>
        <ApplicationsPanel clusterId={clusterId} refresh={refresh} />
      </ErrorBoundary>
      <ErrorBoundary panel="The recorded jobs" resetKey={clusterId}>
        <RecordedJobsPanel clusterId={clusterId} refresh={refresh} />
      </ErrorBoundary>
      <ErrorBoundary panel="The TaskManagers table" resetKey={clusterId}>
        <TaskManagersPanel clusterId={clusterId} canKill={cluster?.builtIn === true} refresh={refresh} />
      </ErrorBoundary>
      <ErrorBoundary panel="The jars" resetKey={clusterId}>
        <JarsPanel clusterId={clusterId} refresh={refresh} />
      </ErrorBoundary>
      <ErrorBoundary panel="The operations journal" resetKey={clusterId}>
        <JournalPanel clusterId={clusterId} refresh={refresh} />
      </ErrorBoundary>
    </div>
  );
}
