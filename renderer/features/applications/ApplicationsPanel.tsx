import type { ReactNode } from 'react';
import type { ApplicationList } from '../../../engine/contracts/applications';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { hrefFor } from '../../app/useHashRoute';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { formatDuration, formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { StateBadge } from '../../components/StateBadge';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { useApplicationsApi } from './api';

/** The cluster's applications (Flink 2.3): state, jobs by state, times; before 2.3, one line saying there are none. */
export function ApplicationsPanel({ clusterId, refresh }: { clusterId: string; refresh: ClusterRefresh }): ReactNode {
  const applicationsApi = useApplicationsApi();
  const poll = usePolling<ApplicationList>(() => applicationsApi.list(clusterId), refresh.intervalMs, { key: clusterId, paused: refresh.paused, refreshSignal: refresh.refreshSignal });
  const list = poll.data;
  return (
    <Panel title="Applications" poll={poll} testId={testIds.applications.panel}>
      <PollErrorBanner poll={poll} context="Loading the applications failed" />
      {!list && !poll.error ? <p className="muted">Loading applications…</p> : null}
      {list && !list.supported ? (
        <p className="muted" data-testid={testIds.applications.unsupported}>
          {list.unsupported}
        </p>
      ) : null}
      {list?.supported && list.applications.length === 0 ? (
        <p className="empty" data-testid={testIds.applications.empty}>
          No applications on this cluster yet.
        </p>
      ) : null}
      {list?.supported && list.applications.length > 0 ? (
        <div className={`table-wrap${poll.stale ? ' is-stale' : ''}`}>
          <table className="table" data-testid={testIds.applications.table}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Application ID</th>
                <th scope="col">State</th>
                <th scope="col">Jobs</th>
                <th scope="col">Started</th>
                <th scope="col">Ended</th>
                <th scope="col" className="num">
                  Duration
                </th>
              </tr>
            </thead>
            <tbody>
              {list.applications.map((app) => (
                <tr key={app.id} data-testid={testIds.applications.row(app.id)}>
                  <td>
                    <a href={hrefFor({ page: 'application', clusterId, applicationId: app.id })} title={app.name}>
                      {app.name}
                    </a>
                  </td>
                  <td>
                    <code className="mono small">{app.id}</code>
                  </td>
                  <td>
                    <StateBadge state={app.state} testId={testIds.applications.state} />
                  </td>
                  <td className="small">{jobCountsInWords(app.jobCounts)}</td>
                  <td className="nowrap">{formatTimestamp(app.startTime)}</td>
                  <td className="nowrap">{app.endTime === null ? '—' : formatTimestamp(app.endTime)}</td>
                  <td className="num nowrap">{formatDuration(app.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Panel>
  );
}

/** `{RUNNING: 1, FINISHED: 2}` → "1 running, 2 finished"; none → "no jobs". */
export function jobCountsInWords(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state.toLowerCase()}`);
  return parts.length > 0 ? parts.join(', ') : 'no jobs';
}
