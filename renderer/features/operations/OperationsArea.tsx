import { useState, type ReactNode } from 'react';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { JournalPanel } from './JournalPanel';
import { OperationsPanel } from './OperationsPanel';
import { SavepointsPanel } from './SavepointsPanel';

/** Everything the job page offers to act on the job: the operations, its savepoints, and its journal. */
export function OperationsArea({
  clusterId,
  jobId,
  jobState,
  refresh,
  markedEntry = null,
}: {
  clusterId: string;
  jobId: string;
  jobState: string | null;
  refresh: ClusterRefresh;
  /** A journal entry to mark (a link from the Rescales tab). */
  markedEntry?: string | null;
}): ReactNode {
  const [resubmitFrom, setResubmitFrom] = useState<string | null>(null);
  const [settledCount, setSettledCount] = useState(0);
  // The journal reads at once when an operation starts or moves on here, not at its next 5 s poll.
  const [journalSignal, setJournalSignal] = useState(0);
  return (
    <div className="operations-area">
      <ErrorBoundary panel="The operations" resetKey={`${clusterId}/${jobId}`}>
        <OperationsPanel
          clusterId={clusterId}
          jobId={jobId}
          jobState={jobState}
          refresh={refresh}
          resubmitFrom={resubmitFrom}
          onResubmitFromHandled={() => setResubmitFrom(null)}
          onSettled={() => setSettledCount((n) => n + 1)}
          onJournalChanged={() => setJournalSignal((n) => n + 1)}
        />
      </ErrorBoundary>
      <ErrorBoundary panel="The savepoints" resetKey={`${clusterId}/${jobId}`}>
        <SavepointsPanel clusterId={clusterId} jobId={jobId} refresh={refresh} reloadSignal={settledCount} onResubmitFrom={setResubmitFrom} />
      </ErrorBoundary>
      <ErrorBoundary panel="The journal" resetKey={`${clusterId}/${jobId}`}>
        <JournalPanel clusterId={clusterId} jobId={jobId} refresh={refresh} reloadSignal={journalSignal} markedEntry={markedEntry} />
      </ErrorBoundary>
    </div>
  );
}
