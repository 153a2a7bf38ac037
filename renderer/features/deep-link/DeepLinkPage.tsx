import { useEffect, type ReactNode } from 'react';
import type { DeepLinkTarget } from '../../../engine/contracts/deep-link';
import type { Route } from '../../app/route';
import { hrefFor } from '../../app/useHashRoute';
import { ErrorBanner } from '../../components/ErrorBanner';
import { testIds } from '../../testIds';
import { useClusters } from '../clusters/ClustersProvider';
import { resolveDeepLink } from './resolveDeepLink';

/**
 * A link to a job by cluster name (`flink-ops://cluster/<name>/job/<id>`, or the same path as a hash):
 * opens the job on the saved cluster of that name, or says plainly why it cannot.
 */
export function DeepLinkPage({ target, navigate }: { target: DeepLinkTarget; navigate: (route: Route, options?: { replace?: boolean }) => void }): ReactNode {
  const { clusters, error } = useClusters();
  const resolution = clusters ? resolveDeepLink(target, clusters) : null;

  const clusterId = resolution?.kind === 'job' ? resolution.clusterId : null;

  useEffect(() => {
    // Replace: Back returns to where the user was before the link, not to the link again.
    if (clusterId) navigate({ page: 'job', clusterId, jobId: target.jobId, vertexId: null }, { replace: true });
  }, [clusterId, target.jobId, navigate]);

  if (error) return <ErrorBanner error={error} context="The saved clusters could not be read to open the link" />;
  if (!resolution || resolution.kind === 'job') return <p className="muted">Opening job {target.jobId} on “{target.clusterName}”…</p>;
  return (
    <section className="panel not-found" role="alert" data-testid={testIds.deepLink.unresolved}>
      <h1 className="page-title">Cannot open this link</h1>
      {resolution.kind === 'unknown-cluster' ? (
        <p>
          The link opens job <code className="mono">{target.jobId}</code> on a cluster named “{target.clusterName}”, and this console has no
          cluster of that name. Add it under that name, then open the link again.
        </p>
      ) : (
        <p>
          The link names “{target.clusterName}”, which matches {resolution.candidates.map((c) => `“${c}”`).join(' and ')}: rename one so
          the link is not ambiguous.
        </p>
      )}
      <a className="button button--primary" href={hrefFor({ page: 'add-cluster' })}>
        Add cluster
      </a>
    </section>
  );
}
