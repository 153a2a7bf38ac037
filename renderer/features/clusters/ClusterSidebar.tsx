import { useState, type ReactNode } from 'react';
import type { ClusterConfig } from '../../../engine/contracts/clusters';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { Route } from '../../app/route';
import { hrefFor } from '../../app/useHashRoute';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { testIds } from '../../testIds';
import { useClusters } from './ClustersProvider';
import { useClustersApi } from './api';

/** The cluster list: open, edit, remove (with confirmation), and the way to add one. */
export function ClusterSidebar({
  activeClusterId,
  onNavigate,
  onAddCluster,
}: {
  activeClusterId: string | null;
  onNavigate: (route: Route) => void;
  /** "Add cluster" clicked: a fresh form, even when the form (of the cluster just saved) is already open. */
  onAddCluster?: () => void;
}): ReactNode {
  const { clusters, error, loading, reload } = useClusters();
  return (
    <nav className="sidebar" aria-label="Clusters" data-testid={testIds.clusters.sidebar}>
      <div className="sidebar__header">
        <h2>Clusters</h2>
        <a className="button button--small button--primary" href={hrefFor({ page: 'add-cluster' })} onClick={onAddCluster}>
          Add cluster
        </a>
      </div>
      {error ? (
        <ErrorBanner
          error={error}
          context="Loading clusters failed"
          stale={clusters != null}
          actions={
            <button type="button" className="button button--small" onClick={() => void reload()}>
              Retry
            </button>
          }
        />
      ) : null}
      {clusters == null && loading ? <p className="muted sidebar__empty">Loading…</p> : null}
      {clusters != null && clusters.length === 0 ? (
        <p className="muted sidebar__empty">No clusters yet. Add one with its REST URL.</p>
      ) : null}
      {clusters != null && clusters.length > 0 ? (
        <ul className="cluster-list" data-testid={testIds.clusters.list}>
          {clusters.map((cluster) => (
            <ClusterItem
              key={cluster.id}
              cluster={cluster}
              active={cluster.id === activeClusterId}
              onRemoved={() => {
                if (cluster.id === activeClusterId) onNavigate({ page: 'home' });
                void reload();
              }}
            />
          ))}
        </ul>
      ) : null}
    </nav>
  );
}

function ClusterItem({
  cluster,
  active,
  onRemoved,
}: {
  cluster: ClusterConfig;
  active: boolean;
  onRemoved: () => void;
}): ReactNode {
  const clustersApi = useClustersApi();
  const [confirming, setConfirming] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const secretMissing = cluster.auth.kind !== 'none' && !cluster.auth.hasSecret;

  const onRemove = async (): Promise<void> => {
    setRemoving(true);
    setError(null);
    try {
      await clustersApi.remove(cluster.id);
      onRemoved();
    } catch (e) {
      setError(toErrorInfo(e));
      setRemoving(false);
    }
  };

  return (
    <li className={`cluster-item${active ? ' cluster-item--active' : ''}`} data-testid={testIds.clusters.item(cluster.id)}>
      <a
        className="cluster-item__link"
        href={hrefFor({ page: 'cluster', clusterId: cluster.id })}
        aria-current={active ? 'page' : undefined}
        title={cluster.url}
      >
        <span className="cluster-item__name">{cluster.name}</span>
        <span className="cluster-item__url">{cluster.url}</span>
      </a>
      {cluster.builtIn ? <span className="tag" title="Built in: cannot be edited or removed">built-in</span> : null}
      {secretMissing ? (
        <a
          className="cluster-item__warning"
          data-testid={testIds.clusters.secretMissing}
          href={hrefFor({ page: 'edit-cluster', clusterId: cluster.id })}
        >
          {cluster.auth.kind === 'basic' ? 'Password' : 'Token'} needed (kept in memory only): edit to enter it again
        </a>
      ) : null}
      {!cluster.builtIn && !confirming ? (
        <div className="cluster-item__actions">
          <a className="button button--tiny" href={hrefFor({ page: 'edit-cluster', clusterId: cluster.id })} aria-label={`Edit ${cluster.name}`}>
            Edit
          </a>
          <button type="button" className="button button--tiny" onClick={() => setConfirming(true)} aria-label={`Remove ${cluster.name}`}>
            Remove
          </button>
        </div>
      ) : null}
      {confirming ? (
        <div className="confirm" role="alertdialog" aria-label={`Remove ${cluster.name}?`} data-testid={testIds.clusters.confirmRemove}>
          <p>
            Remove “{cluster.name}” from the console? The Flink cluster itself is not touched.
          </p>
          <div className="confirm__actions">
            <button type="button" className="button button--tiny button--danger" disabled={removing} onClick={() => void onRemove()}>
              {removing ? 'Removing…' : 'Remove'}
            </button>
            <button type="button" className="button button--tiny" disabled={removing} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
          {error ? <ErrorBanner error={error} context="Not removed" /> : null}
        </div>
      ) : null}
    </li>
  );
}
