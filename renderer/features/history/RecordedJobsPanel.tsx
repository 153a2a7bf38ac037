import type { ReactNode } from 'react';
import type { RecordedJob } from '../../../engine/contracts/history';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { hrefFor } from '../../app/useHashRoute';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { StateBadge } from '../../components/StateBadge';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { useHistoryApi } from './api';

/**
 * The jobs of this cluster the console has recorded (sampled while watched): openable from the history even when the
 * cluster no longer knows them or does not answer. Read from the console's store only, never from the cluster.
 */
export function RecordedJobsPanel({ clusterId, refresh }: { clusterId: string; refresh: ClusterRefresh }): ReactNode {
  const historyApi = useHistoryApi();
  const poll = usePolling<RecordedJob[]>(() => historyApi.recordedJobs(clusterId), refresh.intervalMs, {
    key: clusterId,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const jobs = poll.data;
  if (jobs != null && jobs.length === 0 && !poll.error) return null;
  return (
    <Panel title="Recorded in the console's history" poll={poll} testId={testIds.history.recordedJobs}>
      <p className="muted small">
        Jobs the console sampled while they were open or pinned. A recording stays viewable after the job ends or the cluster forgets it.
      </p>
      <PollErrorBanner poll={poll} context="Reading the history failed" />
      {jobs && jobs.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Job ID</th>
                <th scope="col">Last state</th>
                <th scope="col">Recorded</th>
                <th scope="col" className="num">
                  Samples
                </th>
                <th scope="col" className="num">
                  Checkpoints
                </th>
                <th scope="col">Watch</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.jobId} data-testid={testIds.history.recordedJobRow(job.jobId)}>
                  <td>
                    <a href={hrefFor({ page: 'job', clusterId, jobId: job.jobId, vertexId: null })} title={`Open the recording of ${job.name}`}>
                      {job.name}
                    </a>{' '}
                    <span className="badge badge--pending">Recording</span>
                  </td>
                  <td>
                    <code className="mono small">{job.jobId}</code>
                  </td>
                  <td>{job.lastState === 'UNKNOWN' ? '—' : <StateBadge state={job.lastState} />}</td>
                  <td className="nowrap small">
                    {formatTimestamp(job.firstSampleAt)} → {formatTimestamp(job.lastSampleAt)}
                  </td>
                  <td className="num">{job.samples}</td>
                  <td className="num">{job.checkpoints}</td>
                  <td className="small">{job.watch ? (job.watch.pinned ? 'pinned' : 'watching') : 'ended'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Panel>
  );
}
