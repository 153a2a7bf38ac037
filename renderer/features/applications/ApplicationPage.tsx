import { useState, type ReactNode } from 'react';
import type { ApplicationDetail, ApplicationExceptions } from '../../../engine/contracts/applications';
import type { JournalEntry } from '../../../engine/contracts/operations';
import { useClusterRefresh } from '../../app/refreshSettings';
import { hrefFor } from '../../app/useHashRoute';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { formatDuration, formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { RefreshControl } from '../../components/RefreshControl';
import { StateBadge, TaskCounts } from '../../components/StateBadge';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { OperationStatus } from '../operations/OperationStatus';
import { useJournalEntry } from '../operations/useStartOperation';
import { useApplicationsApi } from './api';
import { CancelApplicationDialog } from './CancelApplicationDialog';

/** One application (Flink 2.3): its state, its jobs, its exceptions (main()'s own too), and Cancel application. */
export function ApplicationPage({ clusterId, clusterName, applicationId }: { clusterId: string; clusterName: string | null; applicationId: string }): ReactNode {
  const applicationsApi = useApplicationsApi();
  const refresh = useClusterRefresh(clusterId);
  const key = `${clusterId}/${applicationId}`;
  const poll = usePolling<ApplicationDetail>(() => applicationsApi.application(clusterId, applicationId), refresh.intervalMs, { key, paused: refresh.paused, refreshSignal: refresh.refreshSignal });
  const exceptions = usePolling<ApplicationExceptions>(() => applicationsApi.exceptions(clusterId, applicationId), refresh.intervalMs, { key, paused: refresh.paused, refreshSignal: refresh.refreshSignal });
  const [confirming, setConfirming] = useState(false);
  const [started, setStarted] = useState<JournalEntry | null>(null);
  const entry = useJournalEntry(started);
  const app = poll.data;
  const ended = app ? app.endTime !== null : true;
  return (
    <div className="job-page" data-testid={testIds.applications.page}>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <a href={hrefFor({ page: 'cluster', clusterId })}>← {clusterName ?? clusterId}: all applications</a>
      </nav>
      <header className="job-header">
        <div className="job-header__title">
          <h1 className="page-title" title={app?.name ?? applicationId}>
            {app?.name ?? (poll.error ? 'Application not found' : 'Loading application…')}
          </h1>
          {app ? <StateBadge state={app.state} testId={testIds.applications.state} /> : null}
        </div>
        <div className="job-header__facts">
          <code className="mono small" title="Application ID">
            {applicationId}
          </code>
          {app ? (
            <span className="muted small">
              started {formatTimestamp(app.startTime)}
              {app.endTime !== null ? `, ended ${formatTimestamp(app.endTime)}` : ''} · {formatDuration(app.durationMs)}
            </span>
          ) : null}
        </div>
        <div className="job-header__actions">
          <button type="button" className="button button--small button--danger" disabled={!app || ended || confirming || (entry !== null && ['pending', 'in-progress'].includes(entry.state))} onClick={() => setConfirming(true)} data-testid={testIds.applications.cancel}>
            Cancel application…
          </button>
          <RefreshControl refresh={refresh} />
        </div>
      </header>
      <PollErrorBanner poll={poll} context="Loading the application failed" />
      {app && confirming ? (
        <CancelApplicationDialog
          app={app}
          onStarted={(e) => {
            setStarted(e);
            setConfirming(false);
          }}
          onClose={() => setConfirming(false)}
        />
      ) : null}
      {entry ? (
        <div data-testid={testIds.applications.outcome}>
          <OperationStatus entry={entry} clusterId={clusterId} />
        </div>
      ) : null}
      <Panel title="Jobs" poll={poll} testId={testIds.applications.jobs}>
        {app && app.jobs.length === 0 ? <p className="empty">No jobs: the application ended before its main() submitted any (see its exceptions).</p> : null}
        {app && app.jobs.length > 0 ? (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Job ID</th>
                  <th scope="col">State</th>
                  <th scope="col">Started</th>
                  <th scope="col" className="num">
                    Duration
                  </th>
                  <th scope="col">Tasks</th>
                </tr>
              </thead>
              <tbody>
                {app.jobs.map((job) => (
                  <tr key={job.id}>
                    <td>
                      <a href={hrefFor({ page: 'job', clusterId, jobId: job.id, vertexId: null })}>{job.name}</a>
                    </td>
                    <td>
                      <code className="mono small">{job.id}</code>
                    </td>
                    <td>
                      <StateBadge state={job.state} />
                    </td>
                    <td className="nowrap">{formatTimestamp(job.startTime)}</td>
                    <td className="num nowrap">{formatDuration(job.durationMs)}</td>
                    <td>
                      <TaskCounts tasks={job.tasks} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Panel>
      <Panel title="Exceptions" poll={exceptions} testId={testIds.applications.exceptions}>
        <PollErrorBanner poll={exceptions} context="Loading the application's exceptions failed" />
        {exceptions.data && exceptions.data.entries.length === 0 ? <p className="empty">No exceptions.</p> : null}
        {exceptions.data?.entries.map((e, i) => (
          <details key={`${e.timestamp}-${i}`} className="exception">
            <summary>
              <span className="nowrap">{formatTimestamp(e.timestamp)}</span> · {e.jobId ? <a href={hrefFor({ page: 'job', clusterId, jobId: e.jobId, vertexId: null })}>job {e.jobId}</a> : <strong>main()</strong>}:{' '}
              {e.cause || e.message || e.exceptionName}
            </summary>
            <p className="muted small mono">{e.exceptionName}{e.message ? `: ${e.message}` : ''}</p>
            <pre className="mono small">{e.stackTrace}</pre>
          </details>
        ))}
      </Panel>
    </div>
  );
}
