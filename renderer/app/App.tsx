import { Suspense, useEffect, useState, type ReactNode } from 'react';
import type { EngineApi } from '../../engine/contracts/engine-api';
import { ErrorBanner } from '../components/ErrorBanner';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { preloadable } from '../components/preloadable';
import { whenIdle } from '../components/whenIdle';
import { ClusterForm } from '../features/clusters/ClusterForm';
import { ClusterSidebar } from '../features/clusters/ClusterSidebar';
import { ClustersProvider, useClusters } from '../features/clusters/ClustersProvider';
import { ApplicationPage } from '../features/applications/ApplicationPage';
import { ClusterPage } from '../features/overview/ClusterPage';
import { testIds } from '../testIds';
import { EngineProvider, useEngine } from './engine';
import { routeClusterId, type Route } from './route';
import { hrefFor, useHashRoute } from './useHashRoute';
import { Toaster } from '../components/Toaster';
import { DeepLinkPage } from '../features/deep-link/DeepLinkPage';
import { ShortcutsSheet } from './ShortcutsSheet';
import { ThemePicker } from './ThemePicker';
import { useShellCommands } from './useShellCommands';

/**
 * The job page brings React Flow and ELK: fetched once the first screen is idle, with the layout worker started, so
 * opening a job waits for neither.
 */
const JobPage = preloadable(() =>
  import('../features/job-graph/JobPage').then((m) => {
    m.prepareJobPage();
    return m.JobPage;
  }),
);

export function App({ api }: { api: EngineApi }): ReactNode {
  return (
    <EngineProvider api={api}>
      <ClustersProvider>
        <Shell />
      </ClustersProvider>
    </EngineProvider>
  );
}

function Shell(): ReactNode {
  const [route, navigate] = useHashRoute();
  const { appInfo, appInfoError } = useEngine();
  const activeClusterId = routeClusterId(route);
  const commands = useShellCommands();
  // Nearly every visit opens a job: its page's code comes while the first screen is idle.
  useEffect(() => whenIdle(() => void JobPage.preload().catch(() => undefined)), []);
  // Each "Add cluster" opens a new form: after a save, the open one edits the cluster it saved.
  const [addFormKey, setAddFormKey] = useState(0);
  return (
    <div className="app" data-testid={testIds.app.root}>
      <header className="topbar">
        <a className="topbar__brand" href={hrefFor({ page: 'home' })}>
          <span className="topbar__logo" aria-hidden="true" />
          Flink Ops Console
        </a>
        <span className="topbar__meta">
          {appInfo ? `${appInfo.mode === 'web' ? 'web mode' : 'desktop'} · v${appInfo.version}` : null}
          <ThemePicker />
          <button type="button" className="topbar__help" onClick={commands.showShortcuts} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
            ?
          </button>
        </span>
      </header>
      {appInfoError ? <ErrorBanner error={appInfoError} context="The console could not reach its engine" /> : null}
      <div className="layout">
        <ErrorBoundary panel="The cluster list">
          <ClusterSidebar activeClusterId={activeClusterId} onNavigate={navigate} onAddCluster={() => setAddFormKey((k) => k + 1)} />
        </ErrorBoundary>
        <main className="main" data-testid={testIds.app.main}>
          <ErrorBoundary panel="This page" resetKey={JSON.stringify(route)}>
            <Page route={route} navigate={navigate} addFormKey={addFormKey} />
          </ErrorBoundary>
        </main>
      </div>
      <Toaster />
      <ShortcutsSheet open={commands.sheetOpen} desktop={appInfo?.mode === 'electron'} onClose={commands.closeShortcuts} />
    </div>
  );
}

function Page({ route, navigate, addFormKey }: { route: Route; navigate: ReturnType<typeof useHashRoute>[1]; addFormKey: number }): ReactNode {
  const { clusters, loading } = useClusters();
  const cluster = 'clusterId' in route ? (clusters?.find((c) => c.id === route.clusterId) ?? null) : null;
  const unknownCluster = 'clusterId' in route && clusters != null && cluster == null && !loading;

  if (unknownCluster) {
    return (
      <section className="panel not-found" role="alert">
        <h1 className="page-title">Unknown cluster</h1>
        <p>No saved cluster has the id “{route.clusterId}”. It may have been removed.</p>
        <a className="button button--primary" href={hrefFor({ page: 'home' })}>
          Back to the start page
        </a>
      </section>
    );
  }

  switch (route.page) {
    case 'home':
      return <Home />;
    case 'add-cluster':
      return <ClusterForm key={addFormKey} editing={null} />;
    case 'edit-cluster':
      if (!cluster) return <p className="muted">Loading…</p>;
      if (cluster.builtIn) {
        return (
          <section className="panel">
            <h1 className="page-title">{cluster.name}</h1>
            <p>This cluster is built into the console and cannot be edited or removed.</p>
            <a className="button" href={hrefFor({ page: 'cluster', clusterId: cluster.id })}>
              Open it
            </a>
          </section>
        );
      }
      return <ClusterForm key={cluster.id} editing={cluster} />;
    case 'cluster':
      return <ClusterPage key={route.clusterId} clusterId={route.clusterId} cluster={cluster} onNavigate={navigate} />;
    case 'job':
      return (
        <Suspense fallback={<p className="muted">Loading the job page…</p>}>
          <JobPage
            key={`${route.clusterId}/${route.jobId}`}
            clusterId={route.clusterId}
            clusterName={cluster?.name ?? null}
            jobId={route.jobId}
            vertexId={route.vertexId}
            tab={route.tab ?? null}
            sort={route.sort ?? null}
            subtask={route.subtask ?? null}
            entry={route.entry ?? null}
            onNavigate={navigate}
          />
        </Suspense>
      );
    case 'application':
      return <ApplicationPage key={`${route.clusterId}/${route.applicationId}`} clusterId={route.clusterId} clusterName={cluster?.name ?? null} applicationId={route.applicationId} />;
    case 'deep-link':
      return <DeepLinkPage target={route} navigate={navigate} />;
    case 'unknown':
      return (
        <section className="panel not-found" role="alert">
          <h1 className="page-title">Page not found</h1>
          <p>
            The address <code className="mono">{route.hash}</code> does not name a page of the console.
          </p>
          <a className="button button--primary" href={hrefFor({ page: 'home' })}>
            Back to the start page
          </a>
        </section>
      );
  }
}

function Home(): ReactNode {
  const { clusters } = useClusters();
  return (
    <section className="panel home">
      <h1 className="page-title">Welcome</h1>
      {clusters && clusters.length > 0 ? (
        <p>Pick a cluster on the left to see its overview and jobs, or add another one.</p>
      ) : (
        <p>Add a Flink cluster by its REST URL to see its overview, jobs and job graphs.</p>
      )}
      <a className="button button--primary" href={hrefFor({ page: 'add-cluster' })}>
        Add cluster
      </a>
    </section>
  );
}
