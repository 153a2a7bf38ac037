import type { ReactNode } from 'react';
import type { JournalEntry, OperationsContext } from '../../../engine/contracts/operations';
import { testIds } from '../../testIds';
import { CancelActions } from './CancelActions';
import { useStartOperation } from './useStartOperation';

/** Cancel, as the Flink Web UI does it, confirmed with its impact. */
export function CancelDialog({ context, onStarted, onClose }: { context: OperationsContext; onStarted: (entry: JournalEntry) => void; onClose: () => void }): ReactNode {
  const { start, starting, error } = useStartOperation();
  const onConfirm = async () => {
    const entry = await start({ kind: 'cancel', clusterId: context.clusterId, jobId: context.jobId });
    if (entry) onStarted(entry);
  };
  return (
    <div className="confirm confirm--operation" role="alertdialog" aria-label="Cancel the job?" data-testid={testIds.operations.confirm}>
      <p>
        Cancel job <strong>{context.jobName}</strong> <code className="mono small">{context.jobId}</code>? It stops at once without a savepoint: the state built up
        since its last completed checkpoint is lost, and it ends CANCELED.
      </p>
      <p className="muted small">To keep the state and run it again later, use Stop with savepoint instead.</p>
      <CancelActions what="job" starting={starting} error={error} onConfirm={onConfirm} onClose={onClose} />
    </div>
  );
}
