import { useState, type ReactNode } from 'react';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { JournalPanel } from './JournalPanel';
import { OperationsPanel } from './OperationsPanel';
import { SavepointsPanel } from './SavepointsPanel';

/** Everything the job page offers to act on the job: the operations, its savepoints, and its journal. */
export function OperationsArea({ clusterId, jobId, refresh }: { clusterId: string; jobId: string; refresh: ClusterRefresh }): ReactNode {
  const [resubmitFrom, setResubmitFrom] = useState<string | null>(null);
  return (
    <div className="operations-area">
      <ErrorBoundary panel="The operations" resetKey={`${clusterId}/${jobId}`}>
        <OperationsPanel clusterId={clusterId} jobId={jobId} refresh={refresh} resubmitFrom={resubmitFrom} onResubmitFromHandled={() => setResubmitFrom(null)} />
      </ErrorBoundary>
      <ErrorBoundary panel="The savepoints" resetKey={`${clusterId}/${jobId}`}>
        <SavepointsPanel clusterId={clusterId} jobId={jobId} refresh={refresh} onResubmitFrom={setResubmitFrom} />
      </ErrorBoundary>
      <ErrorBoundary panel="The journal" resetKey={`${clusterId}/${jobId}`}>
        <JournalPanel clusterId={clusterId} jobId={jobId} refresh={refresh} />
      </ErrorBoundary>
    </div>
  );
}
