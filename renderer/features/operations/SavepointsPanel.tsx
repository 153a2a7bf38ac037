import { useEffect, useState, type ReactNode } from 'react';
import type { JournalEntry, SavepointListing } from '../../../engine/contracts/operations';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { hrefFor } from '../../app/useHashRoute';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { useOperationsApi } from './api';
import { DisposeSavepointDialog } from './DisposeSavepointDialog';
import { isOpen } from './operations';
import { OperationStatus } from './OperationStatus';
import { useJournalEntry } from './useStartOperation';

/**
 * The job's savepoints and those of the runs it was resubmitted from: path, time, format, and the run it came from.
 * Read when the page opens, after an operation ends, and on Refresh: not on every refresh of the page (it asks the
 * cluster for the checkpoint history of each run).
 */
export function SavepointsPanel({
  clusterId,
  jobId,
  refresh,
  reloadSignal,
  onResubmitFrom,
}: {
  clusterId: string;
  jobId: string;
  refresh: ClusterRefresh;
  /** Bumped when an operation of the job ended. */
  reloadSignal: number;
  onResubmitFrom: (path: string) => void;
}): ReactNode {
  const operationsApi = useOperationsApi();
  const [disposing, setDisposing] = useState<string | null>(null);
  const [disposal, setDisposal] = useState<JournalEntry | null>(null);
  const followed = useJournalEntry(disposal);
  const [disposalsEnded, setDisposalsEnded] = useState(0);
  const disposalOpen = followed ? isOpen(followed) : false;
  // The list is read again once a disposal ends: a succeeded one is forgotten then, not before.
  useEffect(() => {
    if (followed && !disposalOpen) setDisposalsEnded((n) => n + 1);
  }, [followed, disposalOpen]);
  const poll = usePolling<SavepointListing[]>(() => operationsApi.savepoints(clusterId, jobId), null, {
    key: `${clusterId}/${jobId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal + reloadSignal + disposalsEnded,
  });
  return (
    <Panel
      title="Savepoints"
      poll={poll}
      testId={testIds.operations.savepoints}
      actions={
        <button type="button" className="button button--tiny" onClick={poll.refresh}>
          Refresh
        </button>
      }
    >
      <PollErrorBanner poll={poll} context="Listing the savepoints failed" />
      {poll.data && poll.data.length === 0 ? <p className="muted">No savepoint of this job or its earlier runs is known (journal and checkpoint history).</p> : null}
      {poll.data && poll.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Taken</th>
                <th scope="col">Path</th>
                <th scope="col">Format</th>
                <th scope="col">How</th>
                <th scope="col">From run</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {poll.data.map((s, i) => (
                <tr key={s.path} data-testid={testIds.operations.savepointRow(i)}>
                  <td className="nowrap">{formatTimestamp(s.time)}</td>
                  <td>
                    <code className="mono small savepoint-path">{s.path}</code>
                  </td>
                  <td>{s.format ?? '—'}</td>
                  <td>
                    {s.kind === 'stop' ? 'stop-with-savepoint' : s.kind === 'savepoint' ? 'savepoint' : '—'}
                    <div className="muted small">{s.source === 'journal' ? 'journal' : `checkpoint history${s.checkpointId !== null ? ` #${s.checkpointId}` : ''}`}</div>
                  </td>
                  <td>
                    {s.jobId === jobId ? (
                      'this run'
                    ) : (
                      <a href={hrefFor({ page: 'job', clusterId, jobId: s.jobId, vertexId: null })} className="mono small">
                        {s.jobId.slice(0, 8)}…
                      </a>
                    )}
                  </td>
                  <td>
                    <button type="button" className="button button--tiny" onClick={() => onResubmitFrom(s.path)}>
                      Resubmit from this…
                    </button>{' '}
                    <button
                      type="button"
                      className="button button--tiny"
                      data-testid={testIds.operations.dispose(i)}
                      disabled={disposalOpen}
                      onClick={() => {
                        setDisposal(null);
                        setDisposing(s.path);
                      }}
                    >
                      Dispose…
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {disposing && !disposal ? (
        <DisposeSavepointDialog
          clusterId={clusterId}
          path={disposing}
          jobId={jobId}
          onStarted={(entry) => {
            setDisposal(entry);
            setDisposing(null);
          }}
          onClose={() => setDisposing(null)}
        />
      ) : null}
      {followed ? <OperationStatus entry={followed} clusterId={clusterId} /> : null}
    </Panel>
  );
}
