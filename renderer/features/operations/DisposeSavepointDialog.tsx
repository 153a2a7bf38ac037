import { useEffect, useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JournalEntry, SavepointDisposalImpact } from '../../../engine/contracts/operations';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { testIds } from '../../testIds';
import { useOperationsApi } from './api';
import { useStartOperation } from './useStartOperation';

/**
 * Dispose a savepoint (`POST /savepoint-disposal`), confirmed with what is lost: its path, its job, size and time as
 * far as the console knows them. Journaled before it is sent; the list forgets the savepoint once Flink says done.
 */
export function DisposeSavepointDialog({ clusterId, path, jobId, onStarted, onClose }: { clusterId: string; path: string; jobId: string; onStarted: (entry: JournalEntry) => void; onClose: () => void }): ReactNode {
  const operationsApi = useOperationsApi();
  const [impact, setImpact] = useState<SavepointDisposalImpact | null>(null);
  const [impactError, setImpactError] = useState<ErrorInfo | null>(null);
  const { start, starting, error } = useStartOperation();
  useEffect(() => {
    let live = true;
    operationsApi.disposalImpact(clusterId, path).then(
      (i) => live && setImpact(i),
      (e: unknown) => live && setImpactError(toErrorInfo(e)),
    );
    return () => {
      live = false;
    };
  }, [operationsApi, clusterId, path]);

  const onConfirm = async () => {
    const entry = await start({ kind: 'dispose-savepoint', clusterId, savepointPath: path, jobId: impact?.jobId ?? jobId });
    if (entry) onStarted(entry);
  };
  return (
    <div className="confirm confirm--operation" role="alertdialog" aria-label="Dispose the savepoint?" data-testid={testIds.operations.confirm}>
      {impactError ? <ErrorBanner error={impactError} context="What the disposal loses could not be read" /> : null}
      <p data-testid={testIds.operations.disposeImpact}>{impact ? impact.sentence : impactError ? `Deletes the savepoint ${path} for good.` : 'Reading what is lost…'}</p>
      {impact?.inFlight ? <p className="notice notice--warning">A disposal of this savepoint is in flight (trigger {impact.inFlight.id}).</p> : null}
      <div className="confirm__actions">
        <button
          type="button"
          className="button button--small button--danger"
          disabled={starting || (!impact && !impactError) || Boolean(impact?.inFlight)}
          onClick={() => void onConfirm()}
          data-testid={testIds.operations.confirmButton}
        >
          {starting ? 'Sending…' : 'Dispose the savepoint'}
        </button>
        <button type="button" className="button button--small" disabled={starting} onClick={onClose}>
          Keep it
        </button>
      </div>
      {error ? <ErrorBanner error={error} context="Not disposed" /> : null}
    </div>
  );
}
