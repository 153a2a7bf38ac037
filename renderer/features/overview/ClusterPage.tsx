import type { ReactNode } from 'react';
import type { ClusterConfig } from '../../../engine/contracts/engine-api';
import { useClusterRefresh } from '../../app/refreshSettings';
import type { Route } from '../../app/route';
import { hrefFor } from '../../app/useHashRoute';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { RefreshControl } from '../../components/RefreshControl';
import { JobsPanel } from '../jobs/JobsPanel';
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
            <p className="muted small mono">
              {cluster.url}
              {cluster.builtIn ? ' · built-in' : ''}
              {!cluster.builtIn ? (
                <>
                  {' · '}
                  <a href={hrefFor({ page: 'edit-cluster', clusterId })}>edit</a>
                </>
              ) : null}
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
      <ErrorBoundary panel="The TaskManagers table" resetKey={clusterId}>
        <TaskManagersPanel clusterId={clusterId} canKill={cluster?.builtIn === true} refresh={refresh} />
      </ErrorBoundary>
      <ErrorBoundary panel="The operations journal" resetKey={clusterId}>
        <JournalPanel clusterId={clusterId} refresh={refresh} />
      </ErrorBoundary>
    </div>
  );
}
