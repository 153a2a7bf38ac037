import { useMemo, useState, type ReactNode } from 'react';
import type { JobSummary } from '../../../engine/contracts/jobs';
import type { ClusterRefresh } from '../../app/refreshSettings';
import type { Route } from '../../app/route';
import { hrefFor } from '../../app/useHashRoute';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { formatDuration, formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { StateBadge, TaskCounts } from '../../components/StateBadge';
import { useNow } from '../../components/useNow';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { filterJobs, liveDuration, sortJobs } from './jobs';
import { useJobsApi } from './api';

export function JobsPanel({
  clusterId,
  refresh,
  onNavigate,
}: {
  clusterId: string;
  refresh: ClusterRefresh;
  onNavigate: (route: Route) => void;
}): ReactNode {
  const jobsApi = useJobsApi();
  const poll = usePolling<JobSummary[]>(() => jobsApi.list(clusterId), refresh.intervalMs, {
    key: clusterId,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const [query, setQuery] = useState('');
  const jobs = useMemo(() => (poll.data ? filterJobs(sortJobs(poll.data), query) : null), [poll.data, query]);

  return (
    <Panel
      title="Jobs"
      poll={poll}
      testId={testIds.jobs.panel}
      actions={
        <input
          type="search"
          className="search"
          placeholder="Filter by name, id or state"
          aria-label="Filter jobs"
          data-shortcut-target="job-filter"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      }
    >
      <PollErrorBanner poll={poll} context="Loading the job list failed" />
      {jobs == null && !poll.error ? <p className="muted">Loading jobs…</p> : null}
      {jobs != null ? (
        <JobsTable
          jobs={jobs}
          fetchedAt={poll.updatedAt}
          stale={poll.stale}
          clusterId={clusterId}
          total={poll.data?.length ?? 0}
          onOpen={(jobId) => onNavigate({ page: 'job', clusterId, jobId, vertexId: null })}
        />
      ) : null}
    </Panel>
  );
}

function JobsTable({
  jobs,
  total,
  fetchedAt,
  stale,
  clusterId,
  onOpen,
}: {
  jobs: JobSummary[];
  total: number;
  fetchedAt: number | null;
  stale: boolean;
  clusterId: string;
  onOpen: (jobId: string) => void;
}): ReactNode {
  const now = useNow();
  if (total === 0) {
    return (
      <p className="empty" data-testid={testIds.jobs.empty}>
        No jobs on this cluster yet.
      </p>
    );
  }
  return (
    <div className={`table-wrap${stale ? ' is-stale' : ''}`}>
      <table className="table jobs-table" data-testid={testIds.jobs.table}>
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
          {jobs.map((job) => (
            <tr
              key={job.id}
              className="clickable"
              data-testid={testIds.jobs.row(job.id)}
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('a')) return;
                onOpen(job.id);
              }}
            >
              <td className="jobs-table__name">
                <a href={hrefFor({ page: 'job', clusterId, jobId: job.id, vertexId: null })} title={job.name}>
                  {job.name}
                </a>
              </td>
              <td>
                <code className="mono small">{job.id}</code>
              </td>
              <td>
                <StateBadge state={job.state} testId={testIds.jobs.state} />
              </td>
              <td className="nowrap">{formatTimestamp(job.startTime)}</td>
              <td className="num nowrap" data-testid={testIds.jobs.duration}>
                {formatDuration(liveDuration(job, fetchedAt, now))}
              </td>
              <td>
                <TaskCounts tasks={job.tasks} />
              </td>
            </tr>
          ))}
          {jobs.length === 0 ? (
            <tr>
              <td colSpan={6} className="muted">
                No job matches the filter.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
